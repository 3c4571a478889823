import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

/** JSON response that carries the session cookies better-auth set (or cleared). */
export function jsonWithCookies(c: Context, body: unknown, from: Headers, status: ContentfulStatusCode = 200) {
  for (const cookie of from.getSetCookie()) c.header('Set-Cookie', cookie, { append: true })
  return c.json(body, status)
}

/** The caller's address: the socket's, or the first forwarded one when behind a trusted proxy. */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  // The entry file passes the socket's address (Bun) or Cloudflare's verified one (Workers);
  // request headers are never trusted for it unless trustProxy says so.
  const env = c.env as { ip?: string } | undefined
  return env?.ip ?? 'unknown'
}
