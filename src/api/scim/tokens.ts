import { desc, eq, and } from 'drizzle-orm'
import { scimTokens, users } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { requireAdmin } from '../../lib/guards'
import { sha256Hex } from '../../lib/sha256'
import { recordAudit, type AuditFrom } from '../audit/access'
import type { ScimTokenView } from './schema'

/** What every SCIM token starts with (so that secret scanners and people recognise one). */
export const SCIM_TOKEN_PREFIX = 'kontor_scim_'
/** Longer than any token Kontor makes: a longer bearer is refused without a lookup. */
const TOKEN_LENGTH_MAX = 200
/** Last use is written at most this often per token. */
const LAST_USED_EVERY_MS = 60_000

const columns = {
  id: scimTokens.id,
  name: scimTokens.name,
  start: scimTokens.start,
  createdAt: scimTokens.createdAt,
  lastUsedAt: scimTokens.lastUsedAt,
  creatorId: users.id,
  creatorName: users.name,
}
type Row = { id: string; name: string; start: string; createdAt: Date; lastUsedAt: Date | null; creatorId: string | null; creatorName: string | null }

const toView = (row: Row): ScimTokenView => ({
  id: row.id,
  name: row.name,
  start: row.start,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  createdBy: row.creatorId ? { id: row.creatorId, name: row.creatorName ?? '' } : null,
})

function randomToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  const base64 = btoa(String.fromCharCode(...bytes))
  return SCIM_TOKEN_PREFIX + base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

export async function listScimTokens(deps: AppDeps, caller: SessionUser) {
  requireAdmin(caller)
  const rows = await deps.db
    .select(columns)
    .from(scimTokens)
    .leftJoin(users, eq(users.id, scimTokens.createdBy))
    .where(eq(scimTokens.organizationId, caller.organizationId))
    .orderBy(desc(scimTokens.createdAt))
  return rows.map(toView)
}

/** Creates a token; only its SHA-256 is kept, and the answer is the one time it is shown. */
export async function createScimToken(deps: AppDeps, caller: SessionUser, name: string, from: AuditFrom) {
  requireAdmin(caller)
  const token = randomToken()
  const [row] = await deps.db
    .insert(scimTokens)
    .values({
      id: crypto.randomUUID(),
      organizationId: caller.organizationId,
      name,
      tokenHash: await sha256Hex(token),
      start: token.slice(0, SCIM_TOKEN_PREFIX.length + 4),
      createdBy: caller.id,
    })
    .returning()
  const created = row!
  await recordAudit(deps, caller, from, { action: 'scim_token.created', target: { type: 'scim_token', id: created.id, label: name } })
  const view = toView({ ...created, creatorId: caller.id, creatorName: caller.name })
  return { ...view, token, endpoint: `${deps.config.baseUrl}/scim/v2` }
}

export async function revokeScimToken(deps: AppDeps, caller: SessionUser, id: string, from: AuditFrom) {
  requireAdmin(caller)
  const [row] = await deps.db
    .delete(scimTokens)
    .where(and(eq(scimTokens.id, id), eq(scimTokens.organizationId, caller.organizationId)))
    .returning({ id: scimTokens.id, name: scimTokens.name })
  if (!row) fail('SCIM_TOKEN_NOT_FOUND')
  await recordAudit(deps, caller, from, { action: 'scim_token.revoked', target: { type: 'scim_token', id: row.id, label: row.name } })
}

/** The organisation a bearer token belongs to, or null; notes the token's use. */
export async function scimTokenOrganization(deps: AppDeps, token: string | undefined) {
  if (!token || token.length > TOKEN_LENGTH_MAX || !token.startsWith(SCIM_TOKEN_PREFIX)) return null
  const row = await deps.db.query.scimTokens.findFirst({ where: eq(scimTokens.tokenHash, await sha256Hex(token)) })
  if (!row) return null
  const now = new Date()
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_EVERY_MS) {
    await deps.db.update(scimTokens).set({ lastUsedAt: now }).where(eq(scimTokens.id, row.id))
  }
  return { tokenId: row.id, tokenName: row.name, organizationId: row.organizationId }
}
