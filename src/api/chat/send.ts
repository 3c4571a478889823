import type { ChatMessage } from '../../ai'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { hasActiveSubscription, returnTrialMessage, takeTrialMessage } from '../subscriptions/access'
import { admitModelCall, NOTHING_RESERVED } from '../usage/access'
import { beginWithEarlyCall, type BeginMode } from './begin-reply'
import { replyContext } from './reply-context'
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
 * SSE frames (the reply runs on when the client leaves: stream-reply.ts). Reads as: authorize → model, tools, files, collections (kept while unchanged: reply-context.ts) → budgets and quota (cloud trial) → history read, model called, user message and reply stored meanwhile → stream → store reply.
 */
export async function sendMessage(deps: AppDeps, caller: SessionUser, threadId: string, mode: BeginMode) {
  const [{ thread, model, agent, tools, searches, provider, files, collections, budgeted, toolContext }, subscribed] = await Promise.all([
    replyContext(deps, caller, threadId),
    hasActiveSubscription(deps, caller.organizationId),
  ])
  const onTrial = !subscribed
  // The budgets first: a refused send uses up no trial message. Where none applies, there is nothing to reserve.
  const admission = budgeted ? await admitModelCall(deps, caller) : NOTHING_RESERVED
  if (onTrial && !(await takeTrialMessage(deps, caller.organizationId))) {
    await admission.release()
    fail('SUBSCRIPTION_REQUIRED')
  }

  // The model call starts as soon as the history is read, while the reply's rows are written;
  // nothing reaches the client before they are (begin-reply.ts, decision 0085).
  const abort = new AbortController()
  let system: ChatMessage
  let begun: Awaited<ReturnType<typeof beginWithEarlyCall>>
  try {
    system = { role: 'system', content: systemPrompt({ now: new Date(), locale: caller.locale, agentInstructions: agent?.instructions, ...(searches && { files, collections }) }) }
    const messages = [system]
    begun = await beginWithEarlyCall(deps, thread.id, mode, model.modelId, (turns) => startModelCall(provider, { model: model.model, messages: [...messages, ...turns], tools, signal: abort.signal }))
  } catch (error) {
    // Refused before anything was sent: the trial message is not used up.
    if (onTrial) await returnTrialMessage(deps, caller.organizationId)
    await admission.release()
    throw error
  }
  const history: ChatMessage[] = [system, ...begun.turns]
  const firstUser = begun.turns.find((m) => m.role === 'user')
  const body = streamReply({
    deps,
    provider,
    threadId: thread.id,
    assistantMessageId: begun.assistantMessageId,
    userMessageId: begun.userMessageId,
    model: { ref: model.modelId, name: model.model },
    messages: history,
    tools,
    toolContext,
    titleFrom: thread.title === null && firstUser ? firstUser.content : undefined,
    budgetNotice: admission.notice && { scope: admission.notice.scope, group: admission.notice.label, metric: admission.notice.metric, limit: admission.notice.limit, spent: admission.notice.spent },
    onEnd: admission.release,
    abort,
    firstCall: begun.firstCall,
  })
  return new Response(body, { headers: SSE_HEADERS })
}
