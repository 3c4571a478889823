/**
 * The baseline of bench/api.ts: the least a correct `GET /api/prompts` must do, in the same kind
 * of server (Bun + Hono, @libsql/client on Kontor's database file). It checks the signed session
 * cookie as better-auth signs it (HMAC-SHA256, key imported once), selects the session and its
 * user by token in one statement (expiry and confirmation checked), selects the caller's prompts
 * and answers the same JSON as Kontor. No logging, no request id, no validation library, no ORM.
 * Run by bench/api.ts: bun bench/bare-api.ts (PORT, DATABASE_URL, KONTOR_SECRET from the env).
 */
import { createClient, type Client } from '@libsql/client'
import { Hono } from 'hono'
import { getCookie } from 'hono/cookie'
import { promptVariables } from '../src/api/prompts/service'

export async function createBareApp(db: Client, secret: string) {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])
  const app = new Hono()
  app.get('/api/prompts', async (c) => {
    const signed = getCookie(c, 'kontor.session_token') ?? ''
    const dot = signed.lastIndexOf('.')
    const token = signed.slice(0, dot)
    const signature = Uint8Array.from(atob(signed.slice(dot + 1)), (ch) => ch.charCodeAt(0))
    if (dot < 1 || !(await crypto.subtle.verify('HMAC', key, signature, new TextEncoder().encode(token)))) return c.json({ code: 'UNAUTHORIZED' }, 401)
    const session = await db.execute({
      sql: 'SELECT u.id, u.role, u.email_verified, s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token = ?',
      args: [token],
    })
    const caller = session.rows[0]
    if (!caller || Number(caller.expires_at) < Date.now() || !caller.email_verified) return c.json({ code: 'UNAUTHORIZED' }, 401)
    const { rows } = await db.execute({
      sql: 'SELECT id, title, content, created_at, updated_at FROM prompts WHERE user_id = ? ORDER BY updated_at DESC',
      args: [caller.id as string],
    })
    return c.json(
      rows.map((p) => ({
        id: p.id,
        title: p.title,
        content: p.content,
        variables: promptVariables(p.content as string),
        createdAt: new Date(Number(p.created_at)).toISOString(),
        updatedAt: new Date(Number(p.updated_at)).toISOString(),
      })),
    )
  })
  app.get('/health', (c) => c.text('ok'))
  return app
}

if (import.meta.main) {
  const app = await createBareApp(createClient({ url: process.env.DATABASE_URL! }), process.env.KONTOR_SECRET!)
  Bun.serve({ port: Number(process.env.PORT), idleTimeout: 0, fetch: app.fetch })
}
