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
export async function startOidcProvider(opts: {
  redirectPrefix: string
  port?: number
  /** A provider that lies: the claims of every ID token it issues pass through this, and the token is signed again with the provider's key. */
  tamperIdToken?: (claims: Record<string, unknown>) => Record<string, unknown>
}) {
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const signing = opts.tamperIdToken ? await signingKey() : undefined
  const provider = new Provider(issuer, {
    ...(signing && { jwks: { keys: [signing.jwk] } }),
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
  let inner: Server | undefined
  if (!opts.tamperIdToken || !signing) server.on('request', provider.callback())
  else {
    // The provider answers behind a relay that rewrites the ID tokens of its token endpoint.
    const tamper = opts.tamperIdToken
    inner = createServer(provider.callback())
    await new Promise<void>((resolve) => inner!.listen(0, '127.0.0.1', resolve))
    const innerUrl = `http://127.0.0.1:${(inner.address() as AddressInfo).port}`
    server.on('request', async (req, res) => {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k, v]) => typeof v === 'string' && k !== 'host' && k !== 'content-length')) as Record<string, string>
      const upstream = await fetch(`${innerUrl}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined, redirect: 'manual' })
      // The provider names its endpoints after the host it was asked at: the relay's, not its own.
      let body = Buffer.from(Buffer.from(await upstream.arrayBuffer()).toString('utf8').replaceAll(innerUrl, issuer))
      if (req.url?.startsWith('/token') && upstream.ok) {
        const answer = JSON.parse(body.toString('utf8')) as { id_token?: string }
        if (answer.id_token) answer.id_token = await signing.resign(answer.id_token, tamper)
        body = Buffer.from(JSON.stringify(answer))
      }
      const out: Record<string, string | string[]> = {}
      upstream.headers.forEach((value, key) => {
        if (!['content-length', 'content-encoding', 'transfer-encoding', 'set-cookie', 'connection', 'keep-alive'].includes(key)) out[key] = value.replaceAll(innerUrl, issuer)
      })
      const cookies = upstream.headers.getSetCookie()
      if (cookies.length) out['set-cookie'] = cookies
      res.writeHead(upstream.status, out).end(body)
    })
  }
  return {
    issuer,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      if (inner) await new Promise<void>((resolve) => inner!.close(() => resolve()))
    },
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

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')

/** An RS256 key for the provider (as its JWKS) and a way to sign one of its tokens again with other claims. */
async function signingKey() {
  const pair = (await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  )) as CryptoKeyPair
  // Without WebCrypto's key_ops and ext: the provider would publish `key_ops: ["sign"]`, which verifiers refuse.
  const { key_ops: _ops, ext: _ext, ...exported } = await crypto.subtle.exportKey('jwk', pair.privateKey)
  const jwk = { ...exported, kid: 'tampering', alg: 'RS256', use: 'sig' }
  return {
    jwk,
    resign: async (token: string, tamper: (claims: Record<string, unknown>) => Record<string, unknown>) => {
      const [header, payload] = token.split('.')
      const claims = tamper(JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>)
      const data = `${header}.${base64url(new TextEncoder().encode(JSON.stringify(claims)))}`
      const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', pair.privateKey, new TextEncoder().encode(data))
      return `${data}.${base64url(new Uint8Array(signature))}`
    },
  }
}
