import { and, eq, inArray, isNotNull, or, sql, type Placeholder, type SQL } from 'drizzle-orm'
import { preparedFor } from '../../../db/client'
import { agentCollections, collectionGroups, collections, groupMembers, sources, threadCollections, threads } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { AppError, fail } from '../../lib/errors'
import type { AccessRole } from './schema'

/**
 * Who may reach a collection (the knowledge lookups other domains need: agents check and list
 * their collections, the chat finds what its source_query may search). A collection is reached
 * by its owner, by everyone of its organisation when shared with it, and by the members of the
 * groups it is shared with; anyone else, above all another organisation, finds nothing.
 */

/**
 * The outer row's id in a correlated subquery, always with its table: Drizzle leaves the table
 * out of a column in a query of one table, where `id` would then name the subquery's own column.
 */
export const outerCollectionId = sql`${sql.identifier('collections')}.${sql.identifier('id')}`

/** The collections `userId` of `organizationId` may read, as a condition on `collections`. */
export function readableBy(userId: string | Placeholder, organizationId: string | Placeholder): SQL {
  return and(
    eq(collections.organizationId, organizationId),
    or(
      eq(collections.userId, userId),
      isNotNull(collections.organizationRole),
      sql`exists (select 1 from ${collectionGroups} join ${groupMembers} on ${groupMembers.groupId} = ${collectionGroups.groupId}
          where ${collectionGroups.collectionId} = ${outerCollectionId} and ${groupMembers.userId} = ${userId})`,
    ),
  )!
}

/** The best of the roles a user's shares give (editor over reader); the owner is owner. */
export async function roleOf(deps: AppDeps, userId: string, collection: Pick<typeof collections.$inferSelect, 'id' | 'userId' | 'organizationRole'>): Promise<AccessRole | null> {
  if (collection.userId === userId) return 'owner'
  const viaGroups = await deps.db
    .select({ role: collectionGroups.role })
    .from(collectionGroups)
    .innerJoin(groupMembers, eq(groupMembers.groupId, collectionGroups.groupId))
    .where(and(eq(collectionGroups.collectionId, collection.id), eq(groupMembers.userId, userId)))
  const roles = [collection.organizationRole, ...viaGroups.map((r) => r.role)]
  if (roles.includes('editor')) return 'editor'
  return roles.includes('reader') ? 'reader' : null
}

const RANK: Record<AccessRole, number> = { reader: 1, editor: 2, owner: 3 }

/**
 * The collection with the caller's role, when the caller has at least `needed`. Without any
 * access it is not found (its existence stays hidden); with too little, the call is forbidden.
 */
export async function findCollection(deps: AppDeps, caller: SessionUser, id: string, needed: AccessRole = 'reader') {
  const collection = await deps.db.query.collections.findFirst({ where: and(eq(collections.id, id), eq(collections.organizationId, caller.organizationId)) })
  const role = collection ? await roleOf(deps, caller.id, collection) : null
  if (!collection || !role) fail('COLLECTION_NOT_FOUND')
  if (RANK[role] < RANK[needed]) fail('FORBIDDEN')
  return { collection, role }
}

/** Of the given collections, those the user may read (in the given order, each once). */
export async function readableOf(deps: AppDeps, userId: string, organizationId: string, ids: string[]) {
  const unique = [...new Set(ids)]
  if (!unique.length) return []
  const rows = await deps.db
    .select({ id: collections.id })
    .from(collections)
    .where(and(inArray(collections.id, unique), readableBy(userId, organizationId)))
  const found = new Set(rows.map((r) => r.id))
  return unique.filter((id) => found.has(id))
}

/** The collections exactly as given, all readable by the caller, or a field error (an agent's collections). */
export async function checkReadable(deps: AppDeps, caller: SessionUser, ids: string[], field = 'collectionIds') {
  const readable = await readableOf(deps, caller.id, caller.organizationId, ids)
  if (readable.length !== new Set(ids).size) throw new AppError('VALIDATION_FAILED', { fields: { [field]: 'Choose collections you may read' } })
  return readable
}

/** How many of the (outer) collection's files are ready to search. */
const readyFilesOf = sql<number>`(select count(*) from ${sources} where ${sources.collectionId} = ${outerCollectionId} and ${sources.status} = 'ready')`

/** Names and searchable files of collections (for chats and agents to show), in the given order. */
export async function describeCollections(deps: AppDeps, ids: string[]) {
  if (!ids.length) return []
  const rows = await deps.db
    .select({
      id: collections.id,
      name: collections.name,
      readyFiles: readyFilesOf,
    })
    .from(collections)
    .where(inArray(collections.id, ids))
  const byId = new Map(rows.map((r) => [r.id, { ...r, readyFiles: Number(r.readyFiles) }]))
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []))
}

/** An agent's collections, in the order of the table's key (by id), the same on every read. */
export async function collectionIdsOfAgent(deps: AppDeps, agentId: string) {
  const rows = await deps.db.select({ id: agentCollections.collectionId }).from(agentCollections).where(eq(agentCollections.agentId, agentId))
  return rows.map((r) => r.id)
}

/**
 * An agent's collections the user may read, described as describeCollections does and in the order
 * of collectionIdsOfAgent, as a JSON array: a subquery for a list of agents (`agentId` names the
 * outer row's id).
 */
export function readableCollectionsOfAgentJson(agentId: SQL, userId: string | Placeholder, organizationId: string | Placeholder): SQL<string> {
  return sql<string>`(select json_group_array(json_object('id', d.id, 'name', d.name, 'readyFiles', d.ready_files)) from (
      select ${collections.id} as id, ${collections.name} as name,
        ${readyFilesOf} as ready_files
      from ${agentCollections} join ${collections} on ${collections.id} = ${agentCollections.collectionId}
      where ${agentCollections.agentId} = ${agentId} and ${readableBy(userId, organizationId)}
      order by ${agentCollections.collectionId}) d)`
}

/** Gives an agent exactly these collections (checked by the caller). */
export async function setAgentCollections(deps: AppDeps, agentId: string, ids: string[]) {
  await deps.db.delete(agentCollections).where(eq(agentCollections.agentId, agentId))
  if (ids.length) await deps.db.insert(agentCollections).values(ids.map((collectionId) => ({ agentId, collectionId })))
}

/** The collections attached to a chat, read before every reply starts: prepared once. */
const attachedCollections = preparedFor((db) =>
  db.select({ id: threadCollections.collectionId }).from(threadCollections).where(eq(threadCollections.threadId, sql.placeholder('threadId'))).prepare(),
)

/**
 * The collections a chat's source_query searches: those attached to the chat and those of its
 * agent, as far as the chat's user may still read them (a share taken back takes them out).
 */
export async function searchableCollections(deps: AppDeps, thread: Pick<typeof threads.$inferSelect, 'id' | 'userId' | 'organizationId' | 'agentId'>) {
  const [attached, ofAgent] = await Promise.all([
    attachedCollections(deps.db).all({ threadId: thread.id }),
    thread.agentId ? collectionIdsOfAgent(deps, thread.agentId) : Promise.resolve([]),
  ])
  const ids = [...attached.map((r) => r.id), ...ofAgent]
  return readableOf(deps, thread.userId, thread.organizationId, ids)
}
