import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm'
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core'
import { groupMembers, groups } from '../../../db/schema'
import type { AppDeps } from '../../lib/context'
import { AppError } from '../../lib/errors'

/** The group lookups other domains need (models: which groups a model is open to). */

/**
 * The given groups, all of the organisation, or a validation error naming the field: an unknown
 * id (or one of another organisation) is refused before anything changes.
 */
export async function groupsOfOrganization(deps: AppDeps, organizationId: string, ids: string[], field = 'groupIds') {
  const unique = [...new Set(ids)]
  if (!unique.length) return []
  const found = await deps.db
    .select({ id: groups.id, name: groups.name })
    .from(groups)
    .where(and(eq(groups.organizationId, organizationId), inArray(groups.id, unique)))
  if (found.length !== unique.length) throw new AppError('VALIDATION_FAILED', { fields: { [field]: 'Unknown group' } })
  return found
}

/** A table linking prompts or agents to the groups they are shared with (read-only shares). */
export type GroupShareLink = { table: SQLiteTable; item: SQLiteColumn; group: SQLiteColumn }

/** The item (its id given as `outerId` of the outer query) is shared with a group `userId` belongs to. */
export function sharedWithGroupOf(link: GroupShareLink, outerId: SQL, userId: unknown): SQL {
  return sql`exists (select 1 from ${link.table} join ${groupMembers} on ${groupMembers.groupId} = ${link.group}
      where ${link.item} = ${outerId} and ${groupMembers.userId} = ${userId})`
}

/**
 * The groups the item (its id given as `outerId`) is shared with, by name, as a JSON array of
 * `{ id, name }`: for its owner only (`owner` is the item's owner column), `[]` for anyone else.
 * A subquery for lists, which then need no second statement.
 */
export function shareGroupsJson(link: GroupShareLink, outerId: SQL, owner: SQLiteColumn, userId: unknown): SQL<string> {
  return sql<string>`case when ${owner} = ${userId} then (select json_group_array(json_object('id', g.id, 'name', g.name)) from (
      select ${groups.id} as id, ${groups.name} as name from ${link.table} join ${groups} on ${groups.id} = ${link.group}
      where ${link.item} = ${outerId} order by ${groups.name}) g) else '[]' end`
}

/** The groups each of these items is shared with, by name. */
export async function shareGroupsOf(deps: AppDeps, link: GroupShareLink, ids: string[]) {
  if (!ids.length) return []
  return deps.db
    .select({ itemId: sql<string>`${link.item}`, id: groups.id, name: groups.name })
    .from(link.table)
    .innerJoin(groups, eq(groups.id, link.group))
    .where(inArray(link.item, ids))
    .orderBy(asc(groups.name))
}
