import { getTableColumns, sql } from 'drizzle-orm'
import { contextVersion, threads } from '../../../db/schema'
import { flatRows, preparedFor } from '../../../db/client'
import type { ChatProvider } from '../../ai'
import { toolsFor } from '../../ai/tools'
import type { Tool, ToolContext } from '../../ai/tools/types'
import type { AppDeps, SessionUser } from '../../lib/context'
import { describeCollections, searchableCollections } from '../knowledge/access'
import { mcpToolsFor } from '../mcp-servers/access'
import { providerClient } from '../models/access'
import { budgetsApply } from '../usage/access'
import { chatSources, ownThreadWhere, sourcesOfThread } from '../sources/access'
import { fail } from '../../lib/errors'
import { replyModel } from '../threads/access'

type Found = Awaited<ReturnType<typeof readContext>>

/**
 * What a reply in a chat is made with, read before its model call: the chat (its owner checked),
 * the model (its agent's, if it has one) and the provider's client, the tools offered, the chat's
 * files and the knowledge collections it may search, and whether any budget applies to the member
 * (their spend is read with each reply where one does). `toolContext` is the request's own (its caller).
 */
export type ReplyContext = Omit<Found, 'collectionIds'> & { thread: Thread; toolContext: Omit<ToolContext, 'signal'> }

type Thread = typeof threads.$inferSelect

/**
 * The reply context of a chat for its caller. A process keeps the contexts it read under the
 * database's context version (`context_version`, read before the reading): triggers change it with
 * every write to a table the reading reads, whichever process or statement writes (drizzle/0033).
 * While the version is the same, nothing a kept context was read from has changed, and a request
 * reads the chat with the version (one small statement) instead of the six to eight the whole
 * reading takes (decision 0126); cold between requests, each cost 30–160 µs before the model call.
 * When the version changes, every context kept goes, and each chat's next reply reads its own again.
 *
 * Kept per caller (member, organisation and role), chat and the chat's model and agent (the chat,
 * read with each request, names them): the chat is found only as its owner's, and the model, agent
 * and tools a reply may use depend on who asks. Nothing of the request is kept in it: the caller,
 * the tool context and anything that depends on the time or is counted (a subscription, the
 * budgets' spend, the trial) are the request's. The provider's client and the MCP tools keep the
 * process's configuration as it was read (`deps.config`, fixed for a process).
 */
export async function replyContext(deps: AppDeps, caller: SessionUser, threadId: string): Promise<ReplyContext> {
  const [row] = await threadWithVersion(deps.db)({ id: threadId, userId: caller.id })
  if (!row) fail('THREAD_NOT_FOUND')
  const { contextVersion: version, ...thread } = row
  const n = version ?? undefined
  const kept = keptOf(deps)
  // Another version: every context kept was read under an earlier one.
  if (n === undefined || n !== kept.version) {
    kept.contexts.clear()
    kept.version = n
  }
  const key = `${caller.id} ${caller.organizationId} ${caller.role} ${thread.id} ${thread.modelId} ${thread.agentId}`
  let found = kept.contexts.get(key)
  // Used again, it moves to the back, the last to be forgotten.
  kept.contexts.delete(key)
  if (!found) {
    found = await readContext(deps, caller, thread)
    if (kept.contexts.size >= KEPT_CONTEXTS) kept.contexts.delete(kept.contexts.keys().next().value!)
  }
  // Kept only if read under the version still current (none is kept without one).
  if (n !== undefined && kept.version === n) kept.contexts.set(key, found)
  const { collectionIds, ...context } = found
  const toolContext = { deps, caller, threadId: thread.id, sources: chatSources(deps, thread.id, Promise.resolve(collectionIds), Promise.resolve(context.files)) }
  return { thread, ...context, toolContext }
}

/**
 * How many reply contexts a process keeps: about 10 KB each with their provider's client, more
 * with many MCP tools or an agent's long instructions. All go when the version changes.
 */
const KEPT_CONTEXTS = 500

type Kept = { version: number | undefined; contexts: Map<string, Found> }
const keptByDatabase = new WeakMap<AppDeps['db'], Kept>()
const keptOf = (deps: AppDeps) => {
  let kept = keptByDatabase.get(deps.db)
  if (!kept) keptByDatabase.set(deps.db, (kept = { version: undefined, contexts: new Map() }))
  return kept
}

/**
 * The chat, its owner's (values: id, userId; `ownThreadWhere`, as findOwnThread finds it), with the
 * context version in the same statement: read together, the chat and the version are of one
 * moment, and a request runs one statement instead of two before its model call.
 */
const threadWithVersion = preparedFor((db) =>
  flatRows(
    db
      .select({ ...getTableColumns(threads), contextVersion: sql<number | null>`(SELECT ${contextVersion.n} FROM ${contextVersion})` })
      .from(threads)
      .where(ownThreadWhere())
      .prepare(),
  ),
)

/** Forgets the contexts this process keeps (tests compare with a fresh read). */
export const forgetReplyContexts = (deps: AppDeps) => keptOf(deps).contexts.clear()

/** Reads a chat's reply context but the chat. Every table it reads has the triggers of drizzle/0033 (reply-context.test.ts checks). */
async function readContext(deps: AppDeps, caller: SessionUser, thread: Thread) {
  const collectionIds = searchableCollections(deps, thread)
  const threadFiles = sourcesOfThread(deps, thread.id)
  const toolContext = { deps, caller, threadId: thread.id, sources: chatSources(deps, thread.id, collectionIds, threadFiles) }
  // Independent look-ups: against a database server they overlap instead of queueing.
  const [{ model, agent }, builtIn, mcp, files, collections, ids, budgeted] = await Promise.all([
    replyModel(deps, caller, thread),
    toolsFor(toolContext),
    mcpToolsFor(deps, caller, thread.agentId),
    threadFiles,
    collectionIds.then((ids) => describeCollections(deps, ids)),
    collectionIds,
    budgetsApply(deps, caller),
  ])
  // An agent offers only the built-in tools chosen for it; its MCP tools are chosen by the admin (mcpToolsFor).
  const tools: Tool[] = [...(agent ? builtIn.filter((t) => agent.tools.includes(t.name)) : builtIn), ...mcp]
  // Without source_query the model is not pointed at files it cannot search.
  const searches = !agent || agent.tools.includes('source_query')
  const provider: ChatProvider = await providerClient(deps, caller.organizationId, model.providerId, { userId: caller.id, threadId: thread.id })
  return { model, agent, tools, searches, provider, files, collections, collectionIds: ids, budgeted }
}
