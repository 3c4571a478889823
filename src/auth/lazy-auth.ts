import type { Auth } from './auth'

/**
 * better-auth with its plugins (SSO with SAML's XML and signature stack, passkeys with their
 * certificate readers, two factors, API keys) is the largest part of Kontor's code. Reading a
 * session needs none of it (src/auth/session.ts), so it is built on first use: a sign-in, a
 * password change, an API key checked. Until then the process neither loads nor holds it
 * (decision 0078). A build that failed is tried again on the next use.
 */
export function lazyAuth(build: () => Promise<Auth>): Auth {
  let built: Promise<Auth> | undefined
  const auth = () =>
    (built ??= build().catch((error: unknown) => {
      built = undefined
      throw error
    }))
  type Endpoint = (...args: unknown[]) => Promise<unknown>
  const api = new Proxy({} as Auth['api'], {
    get: (_, name) =>
      // Never a thenable: `await auth.api` must not call an endpoint named `then`.
      name === 'then' ? undefined : (...args: unknown[]) => auth().then((a) => (a.api as unknown as Record<string | symbol, Endpoint>)[name]!(...args)),
  })
  return {
    api,
    handler: (request: Request) => auth().then((a) => a.handler(request)),
    get $context() {
      return auth().then((a) => a.$context)
    },
  } as unknown as Auth
}
