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
import { AGENT_TOOLS } from '../src/api/agents/limits'
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
      // The caller's own prompts and those shared with them; for their own, the groups they share with.
      const { rows } = await db.execute({
        sql: `SELECT p.id, p.title, p.content, p.user_id, u.name AS owner_name, p.shared_with_organization, p.created_at, p.updated_at,
                CASE WHEN p.user_id = ?1 THEN (SELECT json_group_array(json_object('id', g.id, 'name', g.name)) FROM (
                  SELECT groups.id, groups.name FROM prompt_groups JOIN groups ON groups.id = prompt_groups.group_id
                  WHERE prompt_groups.prompt_id = p.id ORDER BY groups.name) g) ELSE '[]' END AS groups
              FROM prompts p JOIN users u ON u.id = p.user_id
              WHERE p.organization_id = ?2 AND (p.user_id = ?1 OR p.shared_with_organization = 1 OR EXISTS (
                SELECT 1 FROM prompt_groups pg JOIN group_members gm ON gm.group_id = pg.group_id WHERE pg.prompt_id = p.id AND gm.user_id = ?1))
              ORDER BY p.updated_at DESC`,
        args: [who.id, who.organizationId],
      })
      return rows.map((p) => ({
        id: p.id,
        title: p.title,
        content: p.content,
        variables: promptVariables(p.content as string),
        mine: p.user_id === who.id,
        owner: { id: p.user_id, name: p.owner_name },
        sharedWithOrganization: !!p.shared_with_organization,
        groups: JSON.parse(p.groups as string),
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
        // Pinned chats lead (the bench has none, so the page's limit counts the same rows as Kontor's).
        sql: 'SELECT id, title, model_id, agent_id, created_at, last_message_at, pinned_at FROM threads WHERE user_id = ? ORDER BY pinned_at IS NULL, pinned_at DESC, last_message_at DESC, id DESC LIMIT ?',
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
          pinnedAt: t.pinned_at === null ? null : iso(t.pinned_at),
        })),
        nextCursor: rows.length > limit && last ? `${last.last_message_at}_${last.id}` : null,
      }
    }),
  )
  app.get(
    '/api/agents',
    list(false, async (who) => {
      // The agent's model counts while it is a permitted language model of a still permitted and
      // available provider (configured platform provider, or the organisation's endpoint). Its
      // share groups (for the owner), collections the caller may read and MCP tools come along as
      // JSON from subqueries of the same statement.
      const { rows } = await db.execute({
        sql: `SELECT a.id, a.user_id, u.name AS owner_name, a.shared_with_organization, a.name, a.instructions, a.model_id, a.tools, a.created_at, a.updated_at,
                pm.provider_id, pm.model, pm.embedding, e.name AS endpoint_name, ms.default_model_id, ms.embedding_model_id,
                CASE WHEN a.user_id = ?2 THEN (SELECT json_group_array(json_object('id', g.id, 'name', g.name)) FROM (
                  SELECT groups.id, groups.name FROM agent_groups JOIN groups ON groups.id = agent_groups.group_id
                  WHERE agent_groups.agent_id = a.id ORDER BY groups.name) g) ELSE '[]' END AS groups,
                (SELECT json_group_array(json_object('id', c.id, 'name', c.name, 'readyFiles',
                    (SELECT count(*) FROM sources s WHERE s.collection_id = c.id AND s.status = 'ready')))
                  FROM agent_collections ac JOIN collections c ON c.id = ac.collection_id
                  WHERE ac.agent_id = a.id AND c.organization_id = ?1 AND (c.user_id = ?2 OR c.organization_role IS NOT NULL OR EXISTS (
                    SELECT 1 FROM collection_groups cg JOIN group_members gm ON gm.group_id = cg.group_id WHERE cg.collection_id = c.id AND gm.user_id = ?2))) AS collections,
                (SELECT json_group_array(json_object('server', t.server, 'tool', t.tool)) FROM (
                  SELECT srv.name AS server, mt.name AS tool FROM mcp_tool_agents mta JOIN mcp_tools mt ON mt.id = mta.tool_id JOIN mcp_servers srv ON srv.id = mt.server_id
                  WHERE mta.agent_id = a.id AND mt.organization_id = ?1 AND mt.scope = 'agents' ORDER BY srv.name, mt.name) t) AS mcp_tools
              FROM agents a
              JOIN users u ON u.id = a.user_id
              LEFT JOIN permitted_models pm ON pm.id = a.model_id AND pm.organization_id = ?1 AND pm.embedding = 0
                AND EXISTS (SELECT 1 FROM permitted_providers pp WHERE pp.organization_id = ?1 AND pp.provider_id = pm.provider_id)
              LEFT JOIN model_endpoints e ON e.organization_id = ?1 AND 'endpoint-' || e.id = pm.provider_id
              LEFT JOIN model_settings ms ON ms.organization_id = ?1
              WHERE a.organization_id = ?1 AND (a.user_id = ?2 OR a.shared_with_organization = 1 OR EXISTS (
                SELECT 1 FROM agent_groups ag JOIN group_members gm ON gm.group_id = ag.group_id WHERE ag.agent_id = a.id AND gm.user_id = ?2))
              ORDER BY a.created_at DESC`,
        args: [who.organizationId, who.id],
      })
      return rows.map((a) => {
        const model = agentModel(a)
        const tools = JSON.parse(a.tools as string) as string[]
        return {
          id: a.id,
          mine: a.user_id === who.id,
          owner: { id: a.user_id, name: a.owner_name },
          sharedWithOrganization: !!a.shared_with_organization,
          groups: JSON.parse(a.groups as string),
          name: a.name,
          instructions: a.instructions,
          modelId: a.model_id,
          model,
          available: model !== null,
          collections: JSON.parse(a.collections as string),
          tools: AGENT_TOOLS.filter((name) => tools.includes(name)),
          mcpTools: JSON.parse(a.mcp_tools as string),
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
        sql: 'SELECT id, name, email, role, email_verified, deactivated_at, created_at FROM users WHERE organization_id = ? ORDER BY created_at',
        args: [who.organizationId],
      })
      return rows.map((u) => ({ id: u.id, name: u.name, email: u.email, role: u.role, emailVerified: !!u.email_verified, deactivated: u.deactivated_at !== null, joinedAt: iso(u.created_at) }))
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
