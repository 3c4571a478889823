import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

export const OIDC_CLIENT_ID = 'kontor-test'
export const OIDC_CLIENT_SECRET = 'kontor-test-secret-0123456789abcdef'
/** A second client of the same provider: its codes and tokens are not meant for Kontor. */
export const OIDC_OTHER_CLIENT_ID = 'another-app'

/**
 * A real OpenID provider (the `oidc-provider` package) on 127.0.0.1, with its development login
 * page: any login name is accepted and becomes the subject and e-mail address. Its clients
 * (Kontor's and another app's) accept any redirect below `redirectPrefix` (Kontor's callback
 * carries the provider's id).
 */
export async function startOidcProvider(opts: { redirectPrefix: string; port?: number }) {
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        client_secret: OIDC_CLIENT_SECRET,
        redirect_uris: [`${opts.redirectPrefix}placeholder`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
      {
        client_id: OIDC_OTHER_CLIENT_ID,
        client_secret: 'another-app-secret-0123456789abcdef',
        redirect_uris: [`${opts.redirectPrefix}placeholder`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({ sub: id, email: id, email_verified: true, name: `SSO ${id.split('@')[0]}` }),
    }),
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['test-cookie-key-0123456789'] },
  })
  provider.Client.prototype.redirectUriAllowed = function (uri: string) {
    return uri.startsWith(opts.redirectPrefix)
  }
  server.on('request', provider.callback())
  return {
    issuer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    /** Goes through the provider's pages as a browser would (login, consent) and answers the redirect back to Kontor. */
    signIn: async (authorizationUrl: string, login: string) => {
      const jar = new Map<string, string>()
      const send = async (url: string, body?: Record<string, string>) => {
        const response = await fetch(url, {
          method: body ? 'POST' : 'GET',
          redirect: 'manual',
          headers: {
            cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
            ...(body && { 'content-type': 'application/x-www-form-urlencoded' }),
          },
          body: body && new URLSearchParams(body).toString(),
        })
        for (const cookie of response.headers.getSetCookie()) {
          const [pair] = cookie.split(';')
          const i = pair!.indexOf('=')
          jar.set(pair!.slice(0, i), pair!.slice(i + 1))
        }
        await response.arrayBuffer()
        return response.headers.get('location') ? new URL(response.headers.get('location')!, url).toString() : null
      }
      let next = await send(authorizationUrl)
      let interactions = 0
      for (let step = 0; next && step < 10; step++) {
        if (next.startsWith(opts.redirectPrefix)) return next
        const interaction = /\/interaction\/([^/?]+)$/.exec(new URL(next).pathname)
        if (interaction) {
          await send(next)
          const prompt = interactions++ === 0 ? 'login' : 'consent'
          next = await send(next, prompt === 'login' ? { prompt, login, password: 'any' } : { prompt })
        } else next = await send(next)
      }
      throw new Error(`the provider did not send the browser back (last: ${next})`)
    },
  }
}
