import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm'
import { groupMembers, groups, users } from '../../../db/schema'
import { recordAudit } from '../audit/access'
import type { ScimContext } from './context'
import { checkSchemas, invalid, listResponse, parseFilter, parsePage, parsePatch, SCHEMA, ScimError, toText, type Filter } from './protocol'
import { userLocation } from './users'

type GroupRow = typeof groups.$inferSelect
type Member = { groupId: string; id: string; name: string }

const NAME_MAX = 100
const FILTERS = ['displayName', 'externalId', 'id'] as const
const notFound = () => new ScimError(404, 'Group not found')
const nameTaken = () => new ScimError(409, 'A group with this displayName already exists', 'uniqueness')
const isNameTaken = (error: unknown) => String((error as { cause?: unknown })?.cause ?? error).includes('UNIQUE constraint failed: groups.')

function toResource(ctx: ScimContext, g: GroupRow, members: Member[]) {
  return {
    schemas: [SCHEMA.group],
    id: g.id,
    ...(g.scimExternalId && { externalId: g.scimExternalId }),
    displayName: g.name,
    members: members.filter((m) => m.groupId === g.id).map((m) => ({ value: m.id, display: m.name, type: 'User', $ref: userLocation(ctx, m.id) })),
    meta: { resourceType: 'Group', created: g.createdAt.toISOString(), lastModified: g.createdAt.toISOString(), location: `${ctx.base}/Groups/${g.id}` },
  }
}

async function membersOf(ctx: ScimContext, groupIds: string[]): Promise<Member[]> {
  if (!groupIds.length) return []
  return ctx.deps.db
    .select({ groupId: groupMembers.groupId, id: users.id, name: users.name })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(inArray(groupMembers.groupId, groupIds))
    .orderBy(asc(users.name))
}

async function findGroup(ctx: ScimContext, id: string) {
  const row = await ctx.deps.db.query.groups.findFirst({ where: and(eq(groups.id, id), eq(groups.organizationId, ctx.organizationId)) })
  if (!row) throw notFound()
  return row
}

async function resourceOf(ctx: ScimContext, id: string) {
  const row = await findGroup(ctx, id)
  return toResource(ctx, row, await membersOf(ctx, [id]))
}

/** The user ids of a `members` value; each must be a member of the token's organisation. */
async function memberIds(ctx: ScimContext, value: unknown): Promise<string[]> {
  if (value === undefined || value === null) return []
  const list = Array.isArray(value) ? value : [value]
  const ids = list.map((m) => {
    const id = m && typeof m === 'object' ? (m as { value?: unknown }).value : undefined
    if (typeof id !== 'string' || !id) throw invalid('Each member needs a value (the id of a User)')
    return id
  })
  const unique = [...new Set(ids)]
  if (!unique.length) return []
  const found = await ctx.deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, unique), eq(users.organizationId, ctx.organizationId)))
  const missing = unique.filter((id) => !found.some((f) => f.id === id))
  if (missing.length) throw invalid(`No such User: ${missing.join(', ')}`)
  return unique
}

function draftOf(body: Record<string, unknown>) {
  checkSchemas(body, SCHEMA.group, [SCHEMA.group])
  const externalId = body.externalId === undefined || body.externalId === null ? null : toText(body.externalId, 'externalId')
  return { name: toText(body.displayName, 'displayName', NAME_MAX), externalId }
}

export async function createGroup(ctx: ScimContext, body: Record<string, unknown>) {
  const draft = draftOf(body)
  const ids = await memberIds(ctx, body.members)
  const id = crypto.randomUUID()
  try {
    await ctx.deps.db.transaction(async (tx) => {
      await tx.insert(groups).values({ id, organizationId: ctx.organizationId, name: draft.name, scimExternalId: draft.externalId })
      if (ids.length) await tx.insert(groupMembers).values(ids.map((userId) => ({ groupId: id, userId })))
    })
  } catch (error) {
    if (isNameTaken(error)) throw nameTaken()
    throw error
  }
  await recordAudit(ctx.deps, ctx.actor, ctx.from, { action: 'scim.group_created', target: { type: 'group', id, label: draft.name }, details: { members: ids.length } })
  return resourceOf(ctx, id)
}

export async function getGroup(ctx: ScimContext, id: string) {
  return resourceOf(ctx, id)
}

function filterCondition(filter: Filter | undefined): SQL | undefined {
  if (!filter) return undefined
  const text = String(filter.value)
  if (filter.attribute === 'displayName') return eq(groups.name, text)
  if (filter.attribute === 'externalId') return eq(groups.scimExternalId, text)
  return eq(groups.id, text)
}

export async function listGroups(ctx: ScimContext, query: Record<string, string | undefined>) {
  const where = and(eq(groups.organizationId, ctx.organizationId), filterCondition(parseFilter(query.filter, FILTERS)))
  const page = parsePage(query)
  const [total] = await ctx.deps.db.select({ n: count() }).from(groups).where(where)
  const rows = page.count ? await ctx.deps.db.select().from(groups).where(where).orderBy(asc(groups.createdAt), asc(groups.id)).limit(page.count).offset(page.offset) : []
  // `excludedAttributes=members` (Entra asks so) leaves the member lists out.
  const withMembers = !/\bmembers\b/i.test(query.excludedAttributes ?? '')
  const members = withMembers ? await membersOf(ctx, rows.map((g) => g.id)) : []
  const resources = rows.map((g) => {
    const resource = toResource(ctx, g, members)
    if (withMembers) return resource
    const { members: _, ...rest } = resource
    return rest
  })
  return listResponse(resources, total?.n ?? 0, page.startIndex)
}

type Change = { name?: string; externalId?: string | null; set?: string[]; add?: string[]; remove?: string[] | 'all' }

/** Writes a change in one transaction and records it. */
async function write(ctx: ScimContext, before: GroupRow, change: Change) {
  const id = before.id
  let added = 0
  let removed = 0
  try {
    await ctx.deps.db.transaction(async (tx) => {
      if (change.name !== undefined || change.externalId !== undefined) {
        await tx
          .update(groups)
          .set({ ...(change.name !== undefined && { name: change.name }), ...(change.externalId !== undefined && { scimExternalId: change.externalId }) })
          .where(eq(groups.id, id))
      }
      const current = (await tx.select({ userId: groupMembers.userId }).from(groupMembers).where(eq(groupMembers.groupId, id))).map((r) => r.userId)
      let next = new Set(current)
      if (change.set) next = new Set(change.set)
      for (const userId of change.add ?? []) next.add(userId)
      if (change.remove === 'all') next.clear()
      else for (const userId of change.remove ?? []) next.delete(userId)
      const gone = current.filter((u) => !next.has(u))
      const fresh = [...next].filter((u) => !current.includes(u))
      if (gone.length) await tx.delete(groupMembers).where(and(eq(groupMembers.groupId, id), inArray(groupMembers.userId, gone)))
      if (fresh.length) await tx.insert(groupMembers).values(fresh.map((userId) => ({ groupId: id, userId })))
      added = fresh.length
      removed = gone.length
    })
  } catch (error) {
    if (isNameTaken(error)) throw nameTaken()
    throw error
  }
  const name = change.name ?? before.name
  await recordAudit(ctx.deps, ctx.actor, ctx.from, {
    action: 'scim.group_updated',
    target: { type: 'group', id, label: name },
    details: { ...(name !== before.name && { renamed: { from: before.name, to: name } }), membersAdded: added, membersRemoved: removed },
  })
  return resourceOf(ctx, id)
}

export async function replaceGroup(ctx: ScimContext, id: string, body: Record<string, unknown>) {
  const before = await findGroup(ctx, id)
  const draft = draftOf(body)
  return write(ctx, before, { name: draft.name, externalId: draft.externalId, set: await memberIds(ctx, body.members) })
}

export async function patchGroup(ctx: ScimContext, id: string, body: Record<string, unknown>) {
  const operations = parsePatch(body)
  const before = await findGroup(ctx, id)
  const change: Change = {}
  const addIds = async (value: unknown, op: 'add' | 'replace') => {
    const ids = await memberIds(ctx, value)
    if (op === 'replace') {
      change.set = ids
      change.add = []
      change.remove = []
    } else change.add = [...(change.add ?? []), ...ids]
  }
  for (const { op, path, value } of operations) {
    const p = path?.replace(/^urn:ietf:params:scim:schemas:core:2\.0:Group:/i, '')
    const one = p?.match(/^members\[\s*value\s+eq\s+"([^"]+)"\s*\]$/i)
    if (op === 'remove') {
      if (one) change.remove = change.remove === 'all' ? 'all' : [...(change.remove ?? []), one[1]!]
      else if (p?.toLowerCase() === 'members') change.remove = value === undefined ? 'all' : [...(change.remove === 'all' ? [] : (change.remove ?? [])), ...(await memberIdsLoose(value))]
      else if (p?.toLowerCase() === 'externalid') change.externalId = null
      else throw invalid(`${path} cannot be removed`, p ? 'invalidPath' : 'noTarget')
    } else if (p?.toLowerCase() === 'members') await addIds(value, op)
    else if (p?.toLowerCase() === 'displayname') change.name = toText(value, 'displayName', NAME_MAX)
    else if (p?.toLowerCase() === 'externalid') change.externalId = value === null ? null : toText(value, 'externalId')
    else if (!p && value && typeof value === 'object' && !Array.isArray(value)) {
      const v = value as Record<string, unknown>
      if (v.displayName !== undefined) change.name = toText(v.displayName, 'displayName', NAME_MAX)
      if (v.externalId !== undefined) change.externalId = v.externalId === null ? null : toText(v.externalId, 'externalId')
      if (v.members !== undefined) await addIds(v.members, op)
    } else throw invalid(`Unsupported path: ${path ?? '(none)'}`, p ? 'invalidPath' : 'noTarget')
  }
  return write(ctx, before, change)
}

/** Ids to remove: unknown ones are simply not members, so they are not an error. */
async function memberIdsLoose(value: unknown) {
  const list = Array.isArray(value) ? value : [value]
  return list.map((m) => (m && typeof m === 'object' ? (m as { value?: unknown }).value : undefined)).filter((v): v is string => typeof v === 'string')
}

export async function deleteGroup(ctx: ScimContext, id: string) {
  const before = await findGroup(ctx, id)
  await ctx.deps.db.delete(groups).where(and(eq(groups.id, id), eq(groups.organizationId, ctx.organizationId)))
  await recordAudit(ctx.deps, ctx.actor, ctx.from, { action: 'scim.group_deleted', target: { type: 'group', id, label: before.name } })
}
