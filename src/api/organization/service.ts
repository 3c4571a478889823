import { eq } from 'drizzle-orm'
import { organizations } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { requireAdmin } from '../../lib/guards'
import type { OrganizationView } from './schema'

/** The caller's organisation, for its admins' settings page. */
export async function getOrganization(deps: AppDeps, caller: SessionUser): Promise<OrganizationView> {
  requireAdmin(caller)
  const row = await deps.db.select().from(organizations).where(eq(organizations.id, caller.organizationId)).get()
  if (!row) fail('UNAUTHORIZED')
  return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString() }
}

/** Renames the caller's organisation: the sidebar, invitations and their mails show the new name. */
export async function renameOrganization(deps: AppDeps, caller: SessionUser, name: string): Promise<OrganizationView> {
  requireAdmin(caller)
  await deps.db.update(organizations).set({ name }).where(eq(organizations.id, caller.organizationId))
  return getOrganization(deps, caller)
}
