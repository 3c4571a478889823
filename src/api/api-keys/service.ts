import { and, desc, eq, type SQL } from 'drizzle-orm'
import type { z } from 'zod'
import { apiKeys, organizations, users } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { requireAdmin } from '../../lib/guards'
import { apiAccessOf } from './access'
import type { ApiKeyView, apiSettingsBody, createApiKeyBody } from './schema'

const DAY_SECONDS = 24 * 60 * 60

const viewColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  start: apiKeys.start,
  createdAt: apiKeys.createdAt,
  expiresAt: apiKeys.expiresAt,
  lastRequest: apiKeys.lastRequest,
  ownerId: users.id,
  ownerName: users.name,
  ownerEmail: users.email,
}
type ViewRow = { [K in keyof typeof viewColumns]: (typeof viewColumns)[K]['_']['data'] | null }

const toView = (row: ViewRow): ApiKeyView => ({
  id: row.id!,
  name: row.name ?? '',
  start: row.start,
  createdAt: row.createdAt!.toISOString(),
  expiresAt: row.expiresAt?.toISOString() ?? null,
  lastUsedAt: row.lastRequest?.toISOString() ?? null,
  owner: { id: row.ownerId!, name: row.ownerName!, email: row.ownerEmail! },
})

/** Keys joined with their owner, always within the caller's organisation. */
function keysWhere(caller: SessionUser, condition: SQL | undefined) {
  return and(eq(users.organizationId, caller.organizationId), condition)
}

/** The caller's keys, or (admins, `organization`) every key of the organisation; newest first. */
export async function listApiKeys(deps: AppDeps, caller: SessionUser, scope: 'own' | 'organization') {
  if (scope === 'organization') requireAdmin(caller)
  const rows = await deps.db
    .select(viewColumns)
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.referenceId))
    .where(keysWhere(caller, scope === 'own' ? eq(apiKeys.referenceId, caller.id) : undefined))
    .orderBy(desc(apiKeys.createdAt))
  return rows.map(toView)
}

/**
 * Creates a personal key with better-auth's plugin, which keeps only the key's hash. The answer
 * carries the key itself: the one time it is shown.
 */
export async function createApiKey(deps: AppDeps, caller: SessionUser, input: z.infer<typeof createApiKeyBody>) {
  if (!(await apiAccessOf(deps, caller.organizationId))) fail('API_ACCESS_DISABLED')
  const created = await deps.auth.api.createApiKey({
    body: { name: input.name, userId: caller.id, ...(input.expiresInDays && { expiresIn: input.expiresInDays * DAY_SECONDS }) },
  })
  const view = toView({
    id: created.id,
    name: created.name,
    start: created.start,
    createdAt: new Date(created.createdAt),
    expiresAt: created.expiresAt ? new Date(created.expiresAt) : null,
    lastRequest: null,
    ownerId: caller.id,
    ownerName: caller.name,
    ownerEmail: caller.email,
  })
  return { ...view, key: created.key }
}

/** Revokes a key at once: the owner their own, an admin any of the organisation's. */
export async function revokeApiKey(deps: AppDeps, caller: SessionUser, id: string) {
  const mayRevoke = caller.role === 'admin' ? undefined : eq(apiKeys.referenceId, caller.id)
  const [row] = await deps.db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.referenceId))
    .where(keysWhere(caller, and(eq(apiKeys.id, id), mayRevoke)))
  if (!row) fail('API_KEY_NOT_FOUND')
  await deps.db.delete(apiKeys).where(eq(apiKeys.id, row.id))
}

export async function apiSettings(deps: AppDeps, caller: SessionUser) {
  return { apiAccess: await apiAccessOf(deps, caller.organizationId) }
}

/** Switches API access on or off for the whole organisation; keys are kept and work again when it is back on. */
export async function updateApiSettings(deps: AppDeps, caller: SessionUser, input: z.infer<typeof apiSettingsBody>) {
  requireAdmin(caller)
  await deps.db.update(organizations).set({ apiAccess: input.apiAccess }).where(eq(organizations.id, caller.organizationId))
  return { apiAccess: input.apiAccess }
}
