import type { ChatMessage } from '../../ai'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { toolsFor } from '../../ai/tools'
import { hasActiveSubscription, returnTrialMessage, takeTrialMessage } from '../subscriptions/access'
import { mcpToolsFor } from '../mcp-servers/access'
import { providerClient } from '../models/access'
import { admitModelCall } from '../usage/access'
import { describeCollections, searchableCollections } from '../knowledge/access'
import { chatSources, findOwnThread, sourcesOfThread } from '../sources/access'
import { replyModel } from '../threads/access'
import { beginReply, plannedHistory, sameTurns, turnsOf, type BeginMode } from './begin-reply'
import { streamReply } from './stream-reply'
import { startModelCall } from './tool-loop'
import { systemPrompt } from './system-prompt'

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
}

/**
 * Sends a message (or regenerates the last reply) and answers with the reply as a stream of
 * SSE frames (the reply runs on when the client leaves: stream-reply.ts). Reads as: authorize → model, tools, files, collections → quota (cloud trial) → store user message → stream → store reply.
 */
export async function sendMessage(deps: AppDeps, caller: SessionUser, threadId: string, mode: BeginMode) {
  const thread = await findOwnThread(deps, caller, threadId)
  const collectionIds = searchableCollections(deps, thread)
  const toolContext = { deps, caller, threadId: thread.id, sources: chatSources(deps, thread.id, collectionIds) }
  // Independent look-ups: against a database server they overlap instead of queueing.
  const [{ model, agent }, builtIn, mcp, subscribed, files, collections] = await Promise.all([
    replyModel(deps, caller, thread),
    toolsFor(toolContext),
    mcpToolsFor(deps, caller, thread.agentId),
    hasActiveSubscription(deps, caller.organizationId),
    sourcesOfThread(deps, thread.id),
    collectionIds.then((ids) => describeCollections(deps, ids)),
  ])
  // An agent offers only the built-in tools chosen for it; its MCP tools are chosen by the admin (mcpToolsFor).
  const tools = [...(agent ? builtIn.filter((t) => agent.tools.includes(t.name)) : builtIn), ...mcp]
  // Without source_query the model is not pointed at files it cannot search.
  const searches = !agent || agent.tools.includes('source_query')
  const provider = await providerClient(deps, caller.organizationId, model.providerId, { userId: caller.id, threadId: thread.id })
  const onTrial = !subscribed
  // The budgets first: a refused send uses up no trial message.
  const admission = await admitModelCall(deps, caller)
  if (onTrial && !(await takeTrialMessage(deps, caller.organizationId))) {
    await admission.release()
    fail('SUBSCRIPTION_REQUIRED')
  }

  // The model call starts as soon as its messages are known; the reply's rows are written meanwhile.
  // Nothing reaches the client before they are: a refused write (a reply streaming after all)
  // cancels the call, and history the writes found changed starts it again with theirs.
  const system: ChatMessage = { role: 'system', content: systemPrompt({ now: new Date(), locale: caller.locale, agentInstructions: agent?.instructions, ...(searches && { files, collections }) }) }
  const abort = new AbortController()
  const assistantMessageId = crypto.randomUUID()
  // A failed read only means the call waits: the writes below meet (and report) the same failure.
  const planned = await plannedHistory(deps, thread.id, mode).catch(() => null)
  const early = planned && startModelCall(provider, { model: model.model, messages: [system, ...planned], tools, signal: abort.signal })
  const begun = await beginReply(deps, thread.id, mode, model.modelId, assistantMessageId).catch(async (error) => {
    early?.cancel()
    // Refused before anything was sent: the trial message is not used up.
    if (onTrial) await returnTrialMessage(deps, caller.organizationId)
    await admission.release()
    throw error
  })
  const turns = turnsOf(begun.history)
  const firstCall = early && sameTurns(planned, turns) ? early : (early?.cancel(), undefined)
  const history: ChatMessage[] = [system, ...turns]
  const firstUser = begun.history.find((m) => m.role === 'user')
  const body = streamReply({
    deps,
    provider,
    threadId: thread.id,
    assistantMessageId,
    userMessageId: begun.userMessage?.id ?? null,
    model: { ref: model.modelId, name: model.model },
    messages: history,
    tools,
    toolContext,
    titleFrom: thread.title === null && firstUser ? firstUser.content : undefined,
    budgetNotice: admission.notice && { scope: admission.notice.scope, group: admission.notice.label, metric: admission.notice.metric, limit: admission.notice.limit, spent: admission.notice.spent },
    onEnd: admission.release,
    abort,
    firstCall,
  })
  return new Response(body, { headers: SSE_HEADERS })
}
