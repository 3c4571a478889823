import { and, desc, eq, or, sql, type AnyColumn } from 'drizzle-orm'
import type { z } from 'zod'
import { preparedFor } from '../../../db/client'
import { prompts } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import type { promptBody, PromptView } from './schema'

type PromptRow = typeof prompts.$inferSelect

const viewColumns = { id: prompts.id, title: prompts.title, content: prompts.content, createdAt: prompts.createdAt, updatedAt: prompts.updatedAt }

/** `{{topic}}`-style variables, each once, in order of first use. */
export function promptVariables(content: string): string[] {
  return [...new Set([...content.matchAll(/\{\{\s*([\p{L}\p{N}_ -]{1,40}?)\s*\}\}/gu)].map((m) => m[1]!))]
}

const toView = (p: Pick<PromptRow, keyof typeof viewColumns>): PromptView => ({
  id: p.id,
  title: p.title,
  content: p.content,
  variables: promptVariables(p.content),
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
})

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)
// Searched literally: % and _ in the search are escaped.
const contains = (column: AnyColumn, pattern: unknown) => sql`${column} LIKE ${pattern} ESCAPE '\\'`

const ownPrompts = preparedFor((db) =>
  db.select(viewColumns).from(prompts).where(eq(prompts.userId, sql.placeholder('userId'))).orderBy(desc(prompts.updatedAt)).prepare(),
)
const patternParam = sql.placeholder('pattern')
const ownPromptsMatching = preparedFor((db) =>
  db
    .select(viewColumns)
    .from(prompts)
    .where(and(eq(prompts.userId, sql.placeholder('userId')), or(contains(prompts.title, patternParam), contains(prompts.content, patternParam))))
    .orderBy(desc(prompts.updatedAt))
    .prepare(),
)

/** The caller's prompts, last edited first; `search` matches title or content. */
export async function listPrompts(deps: AppDeps, caller: SessionUser, search?: string) {
  const rows = search
    ? await ownPromptsMatching(deps.db).all({ userId: caller.id, pattern: `%${escapeLike(search)}%` })
    : await ownPrompts(deps.db).all({ userId: caller.id })
  return rows.map(toView)
}

async function findOwn(deps: AppDeps, caller: SessionUser, id: string) {
  const row = await deps.db.query.prompts.findFirst({ where: and(eq(prompts.id, id), eq(prompts.userId, caller.id)) })
  return row ?? fail('PROMPT_NOT_FOUND')
}

export async function getPrompt(deps: AppDeps, caller: SessionUser, id: string) {
  return toView(await findOwn(deps, caller, id))
}

export async function createPrompt(deps: AppDeps, caller: SessionUser, input: z.infer<typeof promptBody>) {
  const [row] = await deps.db
    .insert(prompts)
    .values({ id: crypto.randomUUID(), organizationId: caller.organizationId, userId: caller.id, ...input })
    .returning()
  return toView(row!)
}

export async function updatePrompt(deps: AppDeps, caller: SessionUser, id: string, input: z.infer<typeof promptBody>) {
  await findOwn(deps, caller, id)
  const [row] = await deps.db
    .update(prompts)
    .set({ ...input, updatedAt: new Date() })
    .where(and(eq(prompts.id, id), eq(prompts.userId, caller.id)))
    .returning()
  return toView(row!)
}

export async function deletePrompt(deps: AppDeps, caller: SessionUser, id: string) {
  await findOwn(deps, caller, id)
  await deps.db.delete(prompts).where(and(eq(prompts.id, id), eq(prompts.userId, caller.id)))
}
