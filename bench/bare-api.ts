/**
 * The baseline of bench/api.ts: the least a correct list route must do, in the same kind of
 * server (Bun + Hono, @libsql/client on Kontor's database file), for the four lists measured:
 * `GET /api/prompts`, `/api/threads` (first page), `/api/agents` and the admin's `/api/users`.
 * Each checks the signed session cookie as better-auth signs it (HMAC-SHA256, key imported once),
 * hashes the token as the sessions table keeps it, selects the session with its user in one
 * statement (expiry, confirmation and, for the members list, the admin role checked), runs one
 * statement for the list and answers the same JSON as Kontor. No logging, no request id, no
 * validation library, no ORM; the agents' model descriptions come from Kontor's own mapping.
 * Run by bench/api.ts: bun bench/bare-api.ts (PORT, DATABASE_URL, KONTOR_SECRET and the
 * providers' *_API_KEY from the env).
 */
import { createClient, type Client, type Row } from '@libsql/client'
import { Hono, type Context } from 'hono'
import { getCookie } from 'hono/cookie'
import { toPermittedModel } from '../src/api/models/access'
import { PLATFORM_PROVIDERS, type PlatformProviderId } from '../src/api/models/catalogue'
import { promptVariables } from '../src/api/prompts/service'
import { sha256Hex } from '../src/lib/sha256'

type Caller = { id: string; role: string; organizationId: string }

const iso = (ms: unknown) => new Date(Number(ms)).toISOString()

export async function createBareApp(db: Client, secret: string, platformProviders: Set<string>) {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])

  async function caller(c: Context): Promise<Caller | null> {
    const signed = getCookie(c, 'kontor.session_token') ?? ''
    const dot = signed.lastIndexOf('.')
    const token = signed.slice(0, dot)
    const signature = Uint8Array.from(atob(signed.slice(dot + 1)), (ch) => ch.charCodeAt(0))
    if (dot < 1 || !(await crypto.subtle.verify('HMAC', key, signature, new TextEncoder().encode(token)))) return null
    const { rows } = await db.execute({
      sql: 'SELECT u.id, u.role, u.organization_id, u.email_verified, s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token = ?',
      args: [await sha256Hex(token)],
    })
    const row = rows[0]
    if (!row || Number(row.expires_at) < Date.now() || !row.email_verified) return null
    return { id: row.id as string, role: row.role as string, organizationId: row.organization_id as string }
  }

  /** A list route: 401 without a session, 403 for a non-admin on an admin route, else the list. */
  const list = (admin: boolean, answer: (caller: Caller, c: Context) => Promise<unknown>) => async (c: Context) => {
    const who = await caller(c)
    if (!who) return c.json({ code: 'UNAUTHORIZED' }, 401)
    if (admin && who.role !== 'admin') return c.json({ code: 'FORBIDDEN' }, 403)
    return c.json(await answer(who, c))
  }

  const app = new Hono()
  app.get(
    '/api/prompts',
    list(false, async (who) => {
      const { rows } = await db.execute({
        sql: 'SELECT id, title, content, created_at, updated_at FROM prompts WHERE user_id = ? ORDER BY updated_at DESC',
        args: [who.id],
      })
      return rows.map((p) => ({
        id: p.id,
        title: p.title,
        content: p.content,
        variables: promptVariables(p.content as string),
        createdAt: iso(p.created_at),
        updatedAt: iso(p.updated_at),
      }))
    }),
  )
  app.get(
    '/api/threads',
    list(false, async (who, c) => {
      const limit = Math.min(100, Math.max(1, Number(c.req.query('limit') ?? 50) || 50))
      const { rows } = await db.execute({
        sql: 'SELECT id, title, model_id, agent_id, created_at, last_message_at FROM threads WHERE user_id = ? ORDER BY last_message_at DESC, id DESC LIMIT ?',
        args: [who.id, limit + 1],
      })
      const shown = rows.slice(0, limit)
      const last = shown.at(-1)
      return {
        threads: shown.map((t) => ({
          id: t.id,
          title: t.title,
          modelId: t.model_id,
          agentId: t.agent_id,
          createdAt: iso(t.created_at),
          lastMessageAt: iso(t.last_message_at),
        })),
        nextCursor: rows.length > limit && last ? `${last.last_message_at}_${last.id}` : null,
      }
    }),
  )
  app.get(
    '/api/agents',
    list(false, async (who) => {
      // The agent's model counts while it is a permitted language model of a still permitted and
      // available provider (configured platform provider, or the organisation's endpoint).
      const { rows } = await db.execute({
        sql: `SELECT a.id, a.name, a.instructions, a.model_id, a.created_at, a.updated_at,
                pm.provider_id, pm.model, pm.embedding, e.name AS endpoint_name, ms.default_model_id, ms.embedding_model_id
              FROM agents a
              LEFT JOIN permitted_models pm ON pm.id = a.model_id AND pm.organization_id = ?1 AND pm.embedding = 0
                AND EXISTS (SELECT 1 FROM permitted_providers pp WHERE pp.organization_id = ?1 AND pp.provider_id = pm.provider_id)
              LEFT JOIN model_endpoints e ON e.organization_id = ?1 AND 'endpoint-' || e.id = pm.provider_id
              LEFT JOIN model_settings ms ON ms.organization_id = ?1
              WHERE a.user_id = ?2 ORDER BY a.created_at DESC`,
        args: [who.organizationId, who.id],
      })
      return rows.map((a) => {
        const model = agentModel(a)
        return {
          id: a.id,
          name: a.name,
          instructions: a.instructions,
          modelId: a.model_id,
          model,
          available: model !== null,
          createdAt: iso(a.created_at),
          updatedAt: iso(a.updated_at),
        }
      })
    }),
  )
  app.get(
    '/api/users',
    list(true, async (who) => {
      const { rows } = await db.execute({
        sql: 'SELECT id, name, email, role, email_verified, created_at FROM users WHERE organization_id = ? ORDER BY created_at',
        args: [who.organizationId],
      })
      return rows.map((u) => ({ id: u.id, name: u.name, email: u.email, role: u.role, emailVerified: !!u.email_verified, joinedAt: iso(u.created_at) }))
    }),
  )
  app.get('/health', (c) => c.text('ok'))

  function agentModel(a: Row) {
    if (a.provider_id === null) return null
    const providerId = a.provider_id as string
    const provider = providerId.startsWith('endpoint-')
      ? a.endpoint_name === null ? null : { name: a.endpoint_name as string, region: 'selfHosted' as const }
      : platformProviders.has(providerId) ? PLATFORM_PROVIDERS[providerId as PlatformProviderId] : null
    if (!provider) return null
    const row = { id: a.model_id as string, providerId, model: a.model as string, embedding: !!a.embedding, restricted: false, priceInput: null, priceOutput: null }
    return toPermittedModel(row, provider, { defaultModelId: a.default_model_id as string | null, embeddingModelId: a.embedding_model_id as string | null })
  }

  return app
}

if (import.meta.main) {
  const configured = Object.entries({ openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY', mistral: 'MISTRAL_API_KEY', ollama: 'OLLAMA_BASE_URL' })
    .filter(([, name]) => process.env[name])
    .map(([id]) => id)
  const app = await createBareApp(createClient({ url: process.env.DATABASE_URL! }), process.env.KONTOR_SECRET!, new Set(configured))
  Bun.serve({ port: Number(process.env.PORT), idleTimeout: 0, fetch: app.fetch })
}
