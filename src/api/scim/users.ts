import { and, asc, count, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm'
import { z } from 'zod'
import { groupMembers, groups, sessions, users } from '../../../db/schema'
import { recordAudit } from '../audit/access'
import { seatAvailable } from '../invites/access'
import { anotherAdminExists } from '../members/access'
import { fileKeysOf, removeFiles } from '../sources/access'
import { checkSchemas, invalid, listResponse, parseFilter, parsePage, parsePatch, SCHEMA, ScimError, toBoolean, toText, type Filter } from './protocol'
import type { ScimContext } from './context'

type UserRow = typeof users.$inferSelect
/** What SCIM may change of a member. */
type Draft = { name: string; email: string; externalId: string | null; active: boolean }

const email = z.email()
const NAME_MAX = 200
const FILTERS = ['userName', 'externalId', 'emails.value', 'emails', 'displayName', 'id', 'active'] as const

const notFound = () => new ScimError(404, 'User not found')

export function userLocation(ctx: ScimContext, id: string) {
  return `${ctx.base}/Users/${id}`
}

function toResource(ctx: ScimContext, u: UserRow, memberOf: { id: string; name: string }[]) {
  return {
    schemas: [SCHEMA.user],
    id: u.id,
    ...(u.scimExternalId && { externalId: u.scimExternalId }),
    userName: u.email,
    name: { formatted: u.name },
    displayName: u.name,
    emails: [{ value: u.email, type: 'work', primary: true }],
    active: !u.deactivatedAt,
    groups: memberOf.map((g) => ({ value: g.id, display: g.name, $ref: `${ctx.base}/Groups/${g.id}` })),
    meta: { resourceType: 'User', created: u.createdAt.toISOString(), lastModified: u.updatedAt.toISOString(), location: userLocation(ctx, u.id) },
  }
}

async function groupsOf(ctx: ScimContext, userIds: string[]) {
  if (!userIds.length) return []
  return ctx.deps.db
    .select({ userId: groupMembers.userId, id: groups.id, name: groups.name })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(inArray(groupMembers.userId, userIds))
    .orderBy(asc(groups.name))
}

async function resourceOf(ctx: ScimContext, u: UserRow) {
  return toResource(ctx, u, await groupsOf(ctx, [u.id]))
}

async function findUser(ctx: ScimContext, id: string) {
  const row = await ctx.deps.db.query.users.findFirst({ where: and(eq(users.id, id), eq(users.organizationId, ctx.organizationId)) })
  if (!row) throw notFound()
  return row
}

const validEmail = (value: unknown) => typeof value === 'string' && email.safeParse(value.trim()).success

/** The e-mail of a User body: userName when it is an address, else the primary (or first) e-mail. */
function emailOf(userName: unknown, emails: unknown): string {
  if (validEmail(userName)) return (userName as string).trim().toLowerCase()
  if (Array.isArray(emails)) {
    const primary = emails.find((e) => e && typeof e === 'object' && (e as { primary?: unknown }).primary === true) ?? emails[0]
    const value = primary && typeof primary === 'object' ? (primary as { value?: unknown }).value : undefined
    if (validEmail(value)) return (value as string).trim().toLowerCase()
  }
  throw invalid('userName or a primary e-mail must be an e-mail address')
}

function nameOf(body: Record<string, unknown>, fallback: string): string {
  const name = body.name && typeof body.name === 'object' ? (body.name as Record<string, unknown>) : {}
  const joined = [name.givenName, name.familyName].filter((p) => typeof p === 'string' && p.trim()).join(' ')
  const candidates = [body.displayName, name.formatted, joined, fallback]
  const picked = candidates.find((c) => typeof c === 'string' && c.trim()) as string
  return toText(picked, 'name', NAME_MAX)
}

function draftOf(body: Record<string, unknown>): Draft {
  checkSchemas(body, SCHEMA.user, [SCHEMA.user, SCHEMA.enterpriseUser])
  if (body.userName === undefined) throw invalid('userName is required')
  const mail = emailOf(body.userName, body.emails)
  const externalId = body.externalId === undefined || body.externalId === null ? null : toText(body.externalId, 'externalId')
  return { name: nameOf(body, mail), email: mail, externalId, active: body.active === undefined ? true : toBoolean(body.active, 'active') }
}

const taken = (error: unknown) => /UNIQUE.*users\.email/.test(String((error as { cause?: unknown })?.cause ?? error))
const alreadyExists = () => new ScimError(409, 'A user with this userName already exists', 'uniqueness')
const noSeat = () => new ScimError(403, 'No seat is free in this organisation. An admin can add seats under Admin Settings → Billing.')

export async function createUser(ctx: ScimContext, body: Record<string, unknown>) {
  const draft = draftOf(body)
  const id = crypto.randomUUID()
  const now = Date.now()
  const locale = typeof body.preferredLanguage === 'string' && /^en\b/i.test(body.preferredLanguage) ? 'en' : 'de'
  // An active member takes a seat: the check and the insert are one statement.
  const seat = draft.active ? seatAvailable(ctx.deps.config, ctx.organizationId, now) : sql`1`
  let inserted: { id: string }[]
  try {
    inserted = await ctx.deps.db.all<{ id: string }>(sql`
      INSERT INTO ${users} (id, name, email, email_verified, organization_id, role, locale, scim_external_id, deactivated_at, created_at, updated_at)
      SELECT ${id}, ${draft.name}, ${draft.email}, 1, ${ctx.organizationId}, 'user', ${locale}, ${draft.externalId}, ${draft.active ? null : now}, ${now}, ${now}
      WHERE ${seat}
      RETURNING id`)
  } catch (error) {
    if (taken(error)) throw alreadyExists()
    throw error
  }
  if (!inserted.length) throw noSeat()
  const row = await findUser(ctx, id)
  await recordAudit(ctx.deps, ctx.actor, ctx.from, { action: 'scim.user_created', target: { type: 'user', id, label: draft.email }, details: { active: draft.active } })
  return toResource(ctx, row, [])
}

export async function getUser(ctx: ScimContext, id: string) {
  return resourceOf(ctx, await findUser(ctx, id))
}

function filterCondition(filter: Filter | undefined): SQL | undefined {
  if (!filter) return undefined
  const { attribute, value } = filter
  if (attribute === 'active') return value === false ? isNotNull(users.deactivatedAt) : isNull(users.deactivatedAt)
  const text = typeof value === 'string' ? value : String(value)
  switch (attribute) {
    case 'userName':
    case 'emails':
    case 'emails.value':
      return eq(users.email, text.trim().toLowerCase())
    case 'externalId':
      return eq(users.scimExternalId, text)
    case 'displayName':
      return eq(users.name, text)
    default:
      return eq(users.id, text)
  }
}

export async function listUsers(ctx: ScimContext, query: Record<string, string | undefined>) {
  const where = and(eq(users.organizationId, ctx.organizationId), filterCondition(parseFilter(query.filter, FILTERS)))
  const page = parsePage(query)
  const [total] = await ctx.deps.db.select({ n: count() }).from(users).where(where)
  const rows = page.count ? await ctx.deps.db.select().from(users).where(where).orderBy(asc(users.createdAt), asc(users.id)).limit(page.count).offset(page.offset) : []
  const memberships = await groupsOf(ctx, rows.map((r) => r.id))
  const resources = rows.map((u) => toResource(ctx, u, memberships.filter((m) => m.userId === u.id)))
  return listResponse(resources, total?.n ?? 0, page.startIndex)
}

/** Writes a changed draft: the name, address and external id, then (de)activation with its rules. */
async function apply(ctx: ScimContext, before: UserRow, draft: Draft) {
  const { db, config } = ctx.deps
  const now = new Date()
  const changed = draft.name !== before.name || draft.email !== before.email || draft.externalId !== before.scimExternalId
  if (changed) {
    try {
      await db.update(users).set({ name: draft.name, email: draft.email, scimExternalId: draft.externalId, updatedAt: now }).where(eq(users.id, before.id))
    } catch (error) {
      if (taken(error)) throw alreadyExists()
      throw error
    }
    await recordAudit(ctx.deps, ctx.actor, ctx.from, {
      action: 'scim.user_updated',
      target: { type: 'user', id: before.id, label: draft.email },
      details: { ...(draft.email !== before.email && { email: { from: before.email, to: draft.email } }), ...(draft.name !== before.name && { name: { from: before.name, to: draft.name } }) },
    })
  }
  const wasActive = !before.deactivatedAt
  if (wasActive && !draft.active) {
    const guard = before.role === 'admin' ? anotherAdminExists(ctx.organizationId) : sql`1`
    const [done] = await db.update(users).set({ deactivatedAt: now, updatedAt: now }).where(and(eq(users.id, before.id), guard)).returning({ id: users.id })
    if (!done) throw new ScimError(400, 'The last admin of an organisation cannot be deactivated.', 'mutability')
    // Their sessions end at once; the seat is free (deactivated members are not counted).
    await db.delete(sessions).where(eq(sessions.userId, before.id))
    await recordAudit(ctx.deps, ctx.actor, ctx.from, { action: 'scim.user_deactivated', target: { type: 'user', id: before.id, label: draft.email } })
  } else if (!wasActive && draft.active) {
    const [done] = await db
      .update(users)
      .set({ deactivatedAt: null, updatedAt: now })
      .where(and(eq(users.id, before.id), seatAvailable(config, ctx.organizationId, now.getTime())))
      .returning({ id: users.id })
    if (!done) throw noSeat()
    await recordAudit(ctx.deps, ctx.actor, ctx.from, { action: 'scim.user_reactivated', target: { type: 'user', id: before.id, label: draft.email } })
  }
  return resourceOf(ctx, await findUser(ctx, before.id))
}

const draftFrom = (u: UserRow): Draft => ({ name: u.name, email: u.email, externalId: u.scimExternalId, active: !u.deactivatedAt })

export async function replaceUser(ctx: ScimContext, id: string, body: Record<string, unknown>) {
  const before = await findUser(ctx, id)
  return apply(ctx, before, draftOf(body))
}

/** Sets one attribute of the draft from a PATCH path (or a key of a path-less value). */
function setAttribute(draft: Draft, path: string, value: unknown, op: 'add' | 'replace' | 'remove') {
  const p = path.replace(/^urn:ietf:params:scim:schemas:core:2\.0:User:/i, '').toLowerCase()
  const [first, ...rest] = draft.name.split(' ')
  if (op === 'remove') {
    if (p === 'externalid') draft.externalId = null
    else throw invalid(`${path} cannot be removed`, 'mutability')
    return
  }
  switch (p) {
    case 'active':
      draft.active = toBoolean(value, 'active')
      return
    case 'username':
      draft.email = emailOf(value, undefined)
      return
    case 'displayname':
    case 'name.formatted':
      draft.name = toText(value, path, NAME_MAX)
      return
    case 'name.givenname':
      draft.name = toText([toText(value, path, NAME_MAX), ...rest].join(' '), 'name', NAME_MAX)
      return
    case 'name.familyname':
      draft.name = toText([first, toText(value, path, NAME_MAX)].join(' '), 'name', NAME_MAX)
      return
    case 'name': {
      draft.name = nameOf({ name: value }, draft.name)
      return
    }
    case 'externalid':
      draft.externalId = value === null ? null : toText(value, 'externalId')
      return
    case 'emails':
      draft.email = emailOf(undefined, Array.isArray(value) ? value : [value])
      return
    case 'emails[type eq "work"].value':
    case 'emails[primary eq true].value':
      draft.email = emailOf(value, undefined)
      return
    default:
      // Attributes Kontor does not keep (title, phone numbers, the enterprise extension) are accepted and not stored.
      if (/^(title|usertype|preferredlanguage|locale|timezone|phonenumbers|addresses|urn:ietf:params:scim:schemas:extension:enterprise)/.test(p)) return
      throw invalid(`Unsupported path: ${path}`, 'invalidPath')
  }
}

export async function patchUser(ctx: ScimContext, id: string, body: Record<string, unknown>) {
  const operations = parsePatch(body)
  const before = await findUser(ctx, id)
  const draft = draftFrom(before)
  for (const { op, path, value } of operations) {
    if (path) setAttribute(draft, path, value, op)
    else if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, v] of Object.entries(value)) setAttribute(draft, key, v, op)
    } else throw invalid('An operation without path needs an object value', 'noTarget')
  }
  return apply(ctx, before, draft)
}

/** Deletes the member, as removing them under Users does: sessions, credentials and private data go with them. */
export async function deleteUser(ctx: ScimContext, id: string) {
  const member = await findUser(ctx, id)
  const guard = member.role === 'admin' && !member.deactivatedAt ? anotherAdminExists(ctx.organizationId) : sql`1`
  const files = await fileKeysOf(ctx.deps, { userId: id })
  const deleted = await ctx.deps.db
    .delete(users)
    .where(and(eq(users.id, id), eq(users.organizationId, ctx.organizationId), guard))
    .returning({ id: users.id })
  if (!deleted.length) throw new ScimError(400, 'The last admin of an organisation cannot be deleted.', 'mutability')
  await recordAudit(ctx.deps, ctx.actor, ctx.from, { action: 'scim.user_deleted', target: { type: 'user', id, label: member.email }, details: { name: member.name } })
  await removeFiles(ctx.deps, files)
}
