import { and, desc, eq, or, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm'
import type { z } from 'zod'
import { flatRows, preparedFor } from '../../../db/client'
import { promptGroups, prompts, users } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { groupsOfOrganization, shareGroupsJson, sharedWithGroupOf } from '../groups/access'
import type { promptBody, promptSharingBody, PromptView } from './schema'

type PromptRow = typeof prompts.$inferSelect

/** `{{topic}}`-style variables, each once, in order of first use. */
export function promptVariables(content: string): string[] {
  return [...new Set([...content.matchAll(/\{\{\s*([\p{L}\p{N}_ -]{1,40}?)\s*\}\}/gu)].map((m) => m[1]!))]
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)
// Searched literally: % and _ in the search are escaped.
const contains = (column: AnyColumn, pattern: unknown) => sql`${column} LIKE ${pattern} ESCAPE '\\'`

// The outer row's id in the correlated subquery, always with its table (see knowledge/access.ts).
const outerPromptId = sql`${sql.identifier('prompts')}.${sql.identifier('id')}`
const promptShareLink = { table: promptGroups, item: promptGroups.promptId, group: promptGroups.groupId }

/**
 * The prompts the user may read, as a condition on `prompts`: their own, those shared with the
 * whole organisation and those shared with a group the user belongs to; never another organisation's.
 */
function readableBy(userId: string | Placeholder, organizationId: string | Placeholder): SQL {
  return and(
    eq(prompts.organizationId, organizationId),
    or(eq(prompts.userId, userId), eq(prompts.sharedWithOrganization, true), sharedWithGroupOf(promptShareLink, outerPromptId, userId)),
  )!
}

/**
 * What a prompt's view needs, in one statement: its owner's name and, for the caller's own prompts,
 * the groups they are shared with by name (a JSON array).
 */
const viewColumns = (userId: string | Placeholder) => ({
  id: prompts.id,
  title: prompts.title,
  content: prompts.content,
  userId: prompts.userId,
  sharedWithOrganization: prompts.sharedWithOrganization,
  createdAt: prompts.createdAt,
  updatedAt: prompts.updatedAt,
  ownerName: users.name,
  groups: shareGroupsJson(promptShareLink, outerPromptId, prompts.userId, userId),
})

type ViewRow = Awaited<ReturnType<ReturnType<typeof readablePrompts>>>[number]

function toView(p: ViewRow, caller: SessionUser): PromptView {
  return {
    id: p.id,
    title: p.title,
    content: p.content,
    variables: promptVariables(p.content),
    mine: p.userId === caller.id,
    owner: { id: p.userId, name: p.ownerName },
    sharedWithOrganization: p.sharedWithOrganization,
    groups: JSON.parse(p.groups) as PromptView['groups'],
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  }
}

const userId = sql.placeholder('userId')
const pattern = sql.placeholder('pattern')
/** The list, prepared once per database: the library page's hot path. */
const readablePrompts = preparedFor((db) =>
  flatRows(
    db
      .select(viewColumns(userId))
      .from(prompts)
      .innerJoin(users, eq(users.id, prompts.userId))
      .where(and(readableBy(userId, sql.placeholder('organizationId')), sql`(${pattern} is null or ${contains(prompts.title, pattern)} or ${contains(prompts.content, pattern)})`))
      .orderBy(desc(prompts.updatedAt))
      .prepare(),
  ),
)

/**
 * The prompts the caller may use, last edited first: their own and those shared with them (the web
 * splits the two by `mine`); `search` matches title or content.
 */
export async function listPrompts(deps: AppDeps, caller: SessionUser, search?: string) {
  const rows = await readablePrompts(deps.db)({ userId: caller.id, organizationId: caller.organizationId, pattern: search ? `%${escapeLike(search)}%` : null })
  return rows.map((row) => toView(row, caller))
}

/**
 * The prompt, when the caller may read it. Without access it is not found (its existence stays
 * hidden); a prompt shared with the caller cannot be changed by them (forbidden).
 */
async function findPrompt(deps: AppDeps, caller: SessionUser, id: string, needOwner: boolean): Promise<PromptRow> {
  const [row] = await deps.db.select({ prompt: prompts }).from(prompts).where(and(eq(prompts.id, id), readableBy(caller.id, caller.organizationId)))
  if (!row) fail('PROMPT_NOT_FOUND')
  if (needOwner && row.prompt.userId !== caller.id) fail('FORBIDDEN')
  return row.prompt
}

async function viewOf(deps: AppDeps, caller: SessionUser, id: string) {
  const [row] = await deps.db.select(viewColumns(caller.id)).from(prompts).innerJoin(users, eq(users.id, prompts.userId)).where(eq(prompts.id, id))
  return toView(row!, caller)
}

export async function getPrompt(deps: AppDeps, caller: SessionUser, id: string) {
  await findPrompt(deps, caller, id, false)
  return viewOf(deps, caller, id)
}

export async function createPrompt(deps: AppDeps, caller: SessionUser, input: z.infer<typeof promptBody>) {
  const [row] = await deps.db
    .insert(prompts)
    .values({ id: crypto.randomUUID(), organizationId: caller.organizationId, userId: caller.id, ...input })
    .returning({ id: prompts.id })
  return viewOf(deps, caller, row!.id)
}

/** The caller's own, private copy of a prompt they may read (to change it). */
export async function copyPrompt(deps: AppDeps, caller: SessionUser, id: string) {
  const source = await findPrompt(deps, caller, id, false)
  return createPrompt(deps, caller, { title: source.title, content: source.content })
}

export async function updatePrompt(deps: AppDeps, caller: SessionUser, id: string, input: z.infer<typeof promptBody>) {
  await findPrompt(deps, caller, id, true)
  await deps.db
    .update(prompts)
    .set({ ...input, updatedAt: new Date() })
    .where(and(eq(prompts.id, id), eq(prompts.userId, caller.id)))
  return viewOf(deps, caller, id)
}

/** Shares a prompt with the organisation and/or groups of it, replacing the shares before: its owner only. */
export async function sharePrompt(deps: AppDeps, caller: SessionUser, id: string, sharing: z.infer<typeof promptSharingBody>) {
  await findPrompt(deps, caller, id, true)
  // A group of another organisation (or none at all) is refused before anything changes.
  await groupsOfOrganization(deps, caller.organizationId, sharing.groupIds, 'groupIds')
  await deps.db.batch([
    deps.db.update(prompts).set({ sharedWithOrganization: sharing.organization }).where(eq(prompts.id, id)),
    deps.db.delete(promptGroups).where(eq(promptGroups.promptId, id)),
    ...sharing.groupIds.map((groupId) => deps.db.insert(promptGroups).values({ promptId: id, groupId })),
  ])
  return viewOf(deps, caller, id)
}

export async function deletePrompt(deps: AppDeps, caller: SessionUser, id: string) {
  await findPrompt(deps, caller, id, true)
  await deps.db.delete(prompts).where(and(eq(prompts.id, id), eq(prompts.userId, caller.id)))
}
