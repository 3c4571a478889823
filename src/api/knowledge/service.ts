import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { collectionGroups, collections, groups, sources, threadCollections, users } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { groupsOfOrganization } from '../groups/access'
import { findOwnThread, removeFiles, retryFailedSource, toSourceView, uploadFile } from '../sources/access'
import { describeCollections, findCollection, outerCollectionId, readableBy, readableOf, roleOf } from './access'
import { COLLECTIONS_PER_CHAT_MAX, type createCollectionBody, type CollectionView, type sharingBody, type updateCollectionBody } from './schema'

type CollectionRow = typeof collections.$inferSelect

const fileCounts = {
  files: sql<number>`(select count(*) from ${sources} where ${sources.collectionId} = ${outerCollectionId})`,
  readyFiles: sql<number>`(select count(*) from ${sources} where ${sources.collectionId} = ${outerCollectionId} and ${sources.status} = 'ready')`,
}

/** Collections with their owner's name, file counts and groups, each with the caller's role. */
async function views(deps: AppDeps, caller: SessionUser, where: ReturnType<typeof readableBy>): Promise<CollectionView[]> {
  const rows = await deps.db
    .select({ collection: collections, ownerName: users.name, ...fileCounts })
    .from(collections)
    .innerJoin(users, eq(users.id, collections.userId))
    .where(where)
    .orderBy(asc(collections.name), desc(collections.createdAt))
  if (!rows.length) return []
  const ids = rows.map((r) => r.collection.id)
  const shares = await deps.db
    .select({ collectionId: collectionGroups.collectionId, id: groups.id, name: groups.name, role: collectionGroups.role })
    .from(collectionGroups)
    .innerJoin(groups, eq(groups.id, collectionGroups.groupId))
    .where(inArray(collectionGroups.collectionId, ids))
    .orderBy(asc(groups.name))
  return Promise.all(
    rows.map(async ({ collection: c, ownerName, files, readyFiles }) => ({
      id: c.id,
      name: c.name,
      description: c.description,
      role: (await roleOf(deps, caller.id, c))!,
      owner: { id: c.userId, name: ownerName },
      organizationRole: c.organizationRole,
      groups: shares.filter((s) => s.collectionId === c.id).map(({ id, name, role }) => ({ id, name, role })),
      files: Number(files),
      readyFiles: Number(readyFiles),
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
    })),
  )
}

const viewOf = async (deps: AppDeps, caller: SessionUser, c: Pick<CollectionRow, 'id'>) => (await views(deps, caller, eq(collections.id, c.id)))[0]!

/** The collections the caller may read: their own and those shared with them (the web splits the two by `role`). */
export function listCollections(deps: AppDeps, caller: SessionUser) {
  return views(deps, caller, readableBy(caller.id, caller.organizationId))
}

export async function getCollection(deps: AppDeps, caller: SessionUser, id: string) {
  const { collection } = await findCollection(deps, caller, id)
  return viewOf(deps, caller, collection)
}

/** A new collection, private to the caller until shared. */
export async function createCollection(deps: AppDeps, caller: SessionUser, input: z.infer<typeof createCollectionBody>) {
  const [row] = await deps.db
    .insert(collections)
    .values({ id: crypto.randomUUID(), organizationId: caller.organizationId, userId: caller.id, name: input.name, description: input.description ?? null })
    .returning()
  return viewOf(deps, caller, row!)
}

/** Renames a collection or changes its description: its owner and editors. */
export async function updateCollection(deps: AppDeps, caller: SessionUser, id: string, change: z.infer<typeof updateCollectionBody>) {
  await findCollection(deps, caller, id, 'editor')
  if (Object.keys(change).length) await deps.db.update(collections).set({ ...change, updatedAt: new Date() }).where(eq(collections.id, id))
  return getCollection(deps, caller, id)
}

/** Shares a collection with the organisation and/or groups of it, replacing the shares before: its owner only. */
export async function shareCollection(deps: AppDeps, caller: SessionUser, id: string, sharing: z.infer<typeof sharingBody>) {
  await findCollection(deps, caller, id, 'owner')
  // A group of another organisation (or none at all) is refused before anything changes.
  await groupsOfOrganization(deps, caller.organizationId, sharing.groups.map((g) => g.groupId), 'groups')
  await deps.db.batch([
    deps.db.update(collections).set({ organizationRole: sharing.organizationRole, updatedAt: new Date() }).where(eq(collections.id, id)),
    deps.db.delete(collectionGroups).where(eq(collectionGroups.collectionId, id)),
    ...sharing.groups.map((g) => deps.db.insert(collectionGroups).values({ collectionId: id, groupId: g.groupId, role: g.role })),
  ])
  return getCollection(deps, caller, id)
}

/** Deletes a collection with its files (their chunks and vectors go by cascade): its owner only. */
export async function deleteCollection(deps: AppDeps, caller: SessionUser, id: string) {
  await findCollection(deps, caller, id, 'owner')
  const files = await deps.db.select({ fileKey: sources.fileKey }).from(sources).where(eq(sources.collectionId, id))
  await deps.db.delete(collections).where(eq(collections.id, id))
  await removeFiles(deps, files.map((f) => f.fileKey))
}

/** The collection's files with their processing status (the web app polls this). */
export async function listFiles(deps: AppDeps, caller: SessionUser, id: string) {
  await findCollection(deps, caller, id)
  const rows = await deps.db.select().from(sources).where(eq(sources.collectionId, id)).orderBy(asc(sources.fileName), asc(sources.createdAt))
  return rows.map(toSourceView)
}

/**
 * Uploads a file into a collection (owner and editors): the same checks, limits and background
 * processing as a chat's files. A file named like one already there replaces it once processed.
 */
export async function uploadToCollection(deps: AppDeps, caller: SessionUser, id: string, request: Request, background: (job: Promise<unknown>) => void) {
  await findCollection(deps, caller, id, 'editor')
  return uploadFile(deps, caller, { collectionId: id }, request, background, () => findCollection(deps, caller, id))
}

/** Removes a file from a collection (owner and editors); its chunks and vectors go with it. */
export async function deleteFile(deps: AppDeps, caller: SessionUser, id: string, fileId: string) {
  await findCollection(deps, caller, id, 'editor')
  const [row] = await deps.db
    .delete(sources)
    .where(and(eq(sources.id, fileId), eq(sources.collectionId, id)))
    .returning({ fileKey: sources.fileKey })
  if (!row) fail('SOURCE_NOT_FOUND')
  await removeFiles(deps, [row.fileKey])
}

/** Processes a failed file of a collection again (owner and editors). */
export async function retryFile(deps: AppDeps, caller: SessionUser, id: string, fileId: string, background: (job: Promise<unknown>) => void) {
  await findCollection(deps, caller, id, 'editor')
  return retryFailedSource(deps, fileId, eq(sources.collectionId, id), background)
}

/** The groups of the caller's organisation a collection can be shared with. */
export async function shareTargets(deps: AppDeps, caller: SessionUser) {
  const rows = await deps.db.select({ id: groups.id, name: groups.name }).from(groups).where(eq(groups.organizationId, caller.organizationId)).orderBy(asc(groups.name))
  return { groups: rows }
}

/** The collections attached to the caller's chat that the caller may (still) read. */
export async function threadCollectionList(deps: AppDeps, caller: SessionUser, threadId: string) {
  await findOwnThread(deps, caller, threadId)
  const attached = await deps.db
    .select({ id: threadCollections.collectionId })
    .from(threadCollections)
    .where(eq(threadCollections.threadId, threadId))
    .orderBy(asc(threadCollections.createdAt))
  return describeCollections(deps, await readableOf(deps, caller.id, caller.organizationId, attached.map((r) => r.id)))
}

/** Attaches a collection the caller may read to their chat (at most 20; attaching again is harmless). */
export async function attachCollection(deps: AppDeps, caller: SessionUser, threadId: string, collectionId: string) {
  await findOwnThread(deps, caller, threadId)
  await findCollection(deps, caller, collectionId)
  const count = await deps.db.$count(threadCollections, eq(threadCollections.threadId, threadId))
  if (count >= COLLECTIONS_PER_CHAT_MAX) fail('VALIDATION_FAILED', { fields: { collectionId: `At most ${COLLECTIONS_PER_CHAT_MAX} collections per chat` } })
  await deps.db.insert(threadCollections).values({ threadId, collectionId }).onConflictDoNothing()
  return threadCollectionList(deps, caller, threadId)
}

/** Detaches a collection from the caller's chat (detaching one not attached is harmless). */
export async function detachCollection(deps: AppDeps, caller: SessionUser, threadId: string, collectionId: string) {
  await findOwnThread(deps, caller, threadId)
  await deps.db.delete(threadCollections).where(and(eq(threadCollections.threadId, threadId), eq(threadCollections.collectionId, collectionId)))
  return threadCollectionList(deps, caller, threadId)
}
