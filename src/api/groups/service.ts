import { and, asc, eq, inArray } from 'drizzle-orm'
import { groupMembers, groups, users } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { AppError, fail } from '../../lib/errors'
import { requireAdmin } from '../../lib/guards'
import type { Group } from './schema'

type GroupRow = typeof groups.$inferSelect
type MemberRow = { groupId: string; id: string; name: string; email: string }

const toGroup = (g: GroupRow, members: MemberRow[]): Group => ({
  id: g.id,
  name: g.name,
  members: members.filter((m) => m.groupId === g.id).map(({ id, name, email }) => ({ id, name, email })),
  createdAt: g.createdAt.toISOString(),
})

async function membersOf(deps: AppDeps, groupIds: string[]) {
  if (!groupIds.length) return []
  return deps.db
    .select({ groupId: groupMembers.groupId, id: users.id, name: users.name, email: users.email })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(inArray(groupMembers.groupId, groupIds))
    .orderBy(asc(users.name), asc(users.email))
}

async function findGroup(deps: AppDeps, caller: SessionUser, id: string) {
  const row = await deps.db.query.groups.findFirst({ where: and(eq(groups.id, id), eq(groups.organizationId, caller.organizationId)) })
  return row ?? fail('GROUP_NOT_FOUND')
}

async function groupView(deps: AppDeps, row: GroupRow) {
  return toGroup(row, await membersOf(deps, [row.id]))
}

/** A name is unique within the organisation (the unique index decides, also under concurrent requests). */
function nameTaken(error?: unknown): never {
  const text = error === undefined ? 'UNIQUE constraint failed: groups.' : `${error} ${(error as { cause?: unknown })?.cause}`
  if (text.includes('UNIQUE constraint failed: groups.')) throw new AppError('GROUP_NAME_TAKEN', { fields: { name: 'A group with this name already exists' } })
  throw error
}

/** The organisation's groups with their members, by name. */
export async function listGroups(deps: AppDeps, caller: SessionUser) {
  requireAdmin(caller)
  const rows = await deps.db.select().from(groups).where(eq(groups.organizationId, caller.organizationId)).orderBy(asc(groups.name))
  const members = await membersOf(deps, rows.map((g) => g.id))
  return rows.map((g) => toGroup(g, members))
}

export async function createGroup(deps: AppDeps, caller: SessionUser, name: string) {
  requireAdmin(caller)
  const [row] = await deps.db
    .insert(groups)
    .values({ id: crypto.randomUUID(), organizationId: caller.organizationId, name })
    .onConflictDoNothing()
    .returning()
  return row ? toGroup(row, []) : nameTaken()
}

export async function renameGroup(deps: AppDeps, caller: SessionUser, id: string, name: string) {
  requireAdmin(caller)
  await findGroup(deps, caller, id)
  const [row] = await deps.db
    .update(groups)
    .set({ name })
    .where(and(eq(groups.id, id), eq(groups.organizationId, caller.organizationId)))
    .returning()
    .catch(nameTaken)
  return row ? groupView(deps, row) : fail('GROUP_NOT_FOUND')
}

/** Deletes a group; models open only to it stay restricted (open to their other groups, or to nobody). */
export async function deleteGroup(deps: AppDeps, caller: SessionUser, id: string) {
  requireAdmin(caller)
  await findGroup(deps, caller, id)
  await deps.db.delete(groups).where(and(eq(groups.id, id), eq(groups.organizationId, caller.organizationId)))
}

/** Adds members of the organisation; one unknown member (or of another organisation) and none are added. */
export async function addMembers(deps: AppDeps, caller: SessionUser, id: string, userIds: string[]) {
  requireAdmin(caller)
  const group = await findGroup(deps, caller, id)
  const unique = [...new Set(userIds)]
  const found = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.organizationId, caller.organizationId), inArray(users.id, unique)))
  if (found.length !== unique.length) throw new AppError('VALIDATION_FAILED', { fields: { userIds: 'Unknown member' } })
  await deps.db
    .insert(groupMembers)
    .values(unique.map((userId) => ({ groupId: group.id, userId })))
    .onConflictDoNothing()
  return groupView(deps, group)
}

export async function removeMember(deps: AppDeps, caller: SessionUser, id: string, userId: string) {
  requireAdmin(caller)
  const group = await findGroup(deps, caller, id)
  const removed = await deps.db
    .delete(groupMembers)
    .where(and(eq(groupMembers.groupId, group.id), eq(groupMembers.userId, userId)))
    .returning()
  if (!removed.length) fail('USER_NOT_FOUND')
  return groupView(deps, group)
}
