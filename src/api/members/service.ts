import { recordAudit, type AuditFrom } from '../audit/access'
import { and, asc, eq, sql } from 'drizzle-orm'
import { flatRows, preparedFor } from '../../../db/client'
import { users } from '../../../db/schema'
import type { AppDeps, Role, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { requireAdmin } from '../../lib/guards'
import { removeFiles, fileKeysOf } from '../sources/access'
import { anotherAdminExists } from './access'
import type { Member } from './schema'

const memberColumns = { id: users.id, name: users.name, email: users.email, role: users.role, emailVerified: users.emailVerified, deactivatedAt: users.deactivatedAt, createdAt: users.createdAt }

const toMember = (u: Pick<typeof users.$inferSelect, keyof typeof memberColumns>): Member => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role,
  emailVerified: u.emailVerified,
  deactivated: u.deactivatedAt !== null,
  joinedAt: u.createdAt.toISOString(),
})

const membersOf = preparedFor((db) =>
  flatRows(db.select(memberColumns).from(users).where(eq(users.organizationId, sql.placeholder('organizationId'))).orderBy(asc(users.createdAt)).prepare()),
)

/** Members of the caller's organisation, oldest first. */
export async function listMembers(deps: AppDeps, caller: SessionUser) {
  requireAdmin(caller)
  const rows = await membersOf(deps.db)({ organizationId: caller.organizationId })
  return rows.map(toMember)
}

async function findMember(deps: AppDeps, caller: SessionUser, id: string) {
  const member = await deps.db.query.users.findFirst({
    where: and(eq(users.id, id), eq(users.organizationId, caller.organizationId)),
  })
  return member ?? fail('USER_NOT_FOUND')
}

/** Changes a member's role. The last admin cannot be demoted, even by two admins at once. */
export async function changeRole(deps: AppDeps, caller: SessionUser, id: string, role: Role, from: AuditFrom) {
  requireAdmin(caller)
  const member = await findMember(deps, caller, id)
  if (member.role === role) return toMember(member)
  const guard = role === 'user' ? anotherAdminExists(caller.organizationId) : sql`1`
  const [updated] = await deps.db
    .update(users)
    .set({ role, updatedAt: new Date() })
    .where(and(eq(users.id, id), eq(users.organizationId, caller.organizationId), guard))
    .returning()
  if (!updated) fail('LAST_ADMIN')
  await recordAudit(deps, caller, from, {
    action: 'member.role_changed',
    target: { type: 'user', id, label: member.email },
    details: { from: member.role, to: role },
  })
  return toMember(updated)
}

/**
 * Removes a member. Their sessions and credentials go with them (foreign keys cascade), and so
 * does everything private to them: threads, prompts and agents reference the user with
 * ON DELETE CASCADE (docs/decisions/0010-members-and-invites.md). Their files attached to chats
 * are removed from the file store after the commit.
 */
export async function removeMember(deps: AppDeps, caller: SessionUser, id: string, from: AuditFrom) {
  requireAdmin(caller)
  if (id === caller.id) fail('CANNOT_REMOVE_SELF')
  const member = await findMember(deps, caller, id)
  const guard = member.role === 'admin' ? anotherAdminExists(caller.organizationId) : sql`1`
  const files = await fileKeysOf(deps, { userId: id })
  const deleted = await deps.db
    .delete(users)
    .where(and(eq(users.id, id), eq(users.organizationId, caller.organizationId), guard))
    .returning({ id: users.id })
  if (!deleted.length) fail('LAST_ADMIN')
  await recordAudit(deps, caller, from, { action: 'member.removed', target: { type: 'user', id, label: member.email }, details: { name: member.name, role: member.role } })
  // A file attached between the read and the delete is left to the background job (deleted_files).
  await removeFiles(deps, files)
}
