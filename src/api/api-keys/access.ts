import { eq, getTableColumns } from 'drizzle-orm'
import { organizations, users } from '../../../db/schema'
import { toSessionUser } from '../../auth/session'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'

/** Longer than any key Kontor makes: a longer bearer is refused without a lookup. */
const KEY_LENGTH_MAX = 200

export async function apiAccessOf(deps: AppDeps, organizationId: string) {
  const row = await deps.db.query.organizations.findFirst({ where: eq(organizations.id, organizationId), columns: { apiAccess: true } })
  return row?.apiAccess ?? false
}

/**
 * The caller behind an API key, read afresh on every call: better-auth's plugin checks the key
 * (its hash, revocation, expiry) and notes its use; the owner is then read from the database, so
 * a removed member's key (deleted with them), a deactivated member's key or an organisation that
 * switched API access off is refused at once. Throws INVALID_API_KEY (401) or API_ACCESS_DISABLED (403).
 */
export async function apiKeyCaller(deps: AppDeps, key: string | undefined): Promise<{ user: SessionUser; keyId: string }> {
  if (!key || key.length > KEY_LENGTH_MAX) fail('INVALID_API_KEY')
  const result = await deps.auth.api.verifyApiKey({ body: { key } })
  if (!result.valid || !result.key) fail('INVALID_API_KEY')
  const [owner] = await deps.db
    .select({ ...getTableColumns(users), organizationName: organizations.name, apiAccess: organizations.apiAccess })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(eq(users.id, result.key.referenceId))
  const user = owner && toSessionUser(owner)
  // A member deactivated by SCIM is refused like a removed one: their keys stay, unusable, until reactivation.
  if (!user || !user.emailVerified || owner.deactivatedAt) fail('INVALID_API_KEY')
  if (!owner.apiAccess) fail('API_ACCESS_DISABLED')
  return { user, keyId: result.key.id }
}
