import type { ChatMessage } from '../../ai'
import type { AppDeps, SessionUser } from '../../lib/context'
import { usableAgentByIdOrName } from '../agents/access'
import { languageModels, providerClient, resolveDefaultModel } from '../models/access'
import { listPrompts } from '../prompts/access'
import { searchChats } from '../search/access'
import { MAX_SEARCH_RESULTS } from '../search/schema'
import { hasActiveSubscription } from '../subscriptions/access'
import { admitModelCall } from '../usage/access'

/** A tool call that cannot be answered: the client (and its model) reads the message; nothing else happened. */
export class ToolRefusal extends Error {}

/** What the caller's chats say about the words, best match first, as lines a model reads well. */
export async function searchOwnChats(deps: AppDeps, caller: SessionUser, query: string, limit: number) {
  const { results } = await searchChats(deps, caller, { q: query, limit: Math.min(limit, MAX_SEARCH_RESULTS) })
  if (!results.length) return `No chat matches “${query}”.`
  return results
    .map((r, i) => {
      const passage = r.snippet.map((p) => (p.match ? `**${p.text}**` : p.text)).join('')
      const where = r.messageId ? `${r.role === 'user' ? 'message' : 'reply'} ${r.messageId}` : 'title'
      return `${i + 1}. ${r.title ?? 'Untitled chat'} (chat ${r.threadId}, ${where}, ${r.at})\n   ${passage}`
    })
    .join('\n')
}

/** The model ids and agent names `ask_kontor` accepts for this caller. */
export async function askChoices(deps: AppDeps, caller: SessionUser) {
  const models = await languageModels(deps, caller)
  return { models: models.map((m) => m.modelId) }
}

/**
 * One question to a model the caller may use, or to one of their agents (its instructions and
 * model): the same gateway, budgets and usage as the chat and /v1. The answer's text comes back.
 */
export async function askKontor(deps: AppDeps, caller: SessionUser, input: { message: string; model?: string; agent?: string }, signal?: AbortSignal) {
  if (!(await hasActiveSubscription(deps, caller.organizationId))) throw new ToolRefusal('Your organisation needs an active subscription to use models through the API.')
  const models = await languageModels(deps, caller)
  const messages: ChatMessage[] = []
  let model
  if (input.agent) {
    const agent = await usableAgentByIdOrName(deps, caller, input.agent)
    if (!agent) throw new ToolRefusal(`You have no agent named “${input.agent}”.`)
    model = models.find((m) => m.id === agent.modelId)
    if (!model) throw new ToolRefusal(`The model of the agent “${agent.name}” is not available to you any more.`)
    messages.push({ role: 'system', content: agent.instructions })
  } else if (input.model) {
    model = models.find((m) => m.modelId === input.model)
    if (!model) throw new ToolRefusal(`The model “${input.model}” does not exist or you do not have access to it.`)
  } else {
    model = models.length ? await resolveDefaultModel(deps, caller) : undefined
    if (!model) throw new ToolRefusal('No model is available to you. Please ask an admin to permit one.')
  }
  messages.push({ role: 'user', content: input.message })
  const provider = await providerClient(deps, caller.organizationId, model.providerId, { userId: caller.id, threadId: null })
  const admission = await admitModelCall(deps, caller)
  try {
    const completion = await provider.complete({ model: model.model, messages, signal })
    return { text: completion.text, model: model.modelId }
  } finally {
    await admission.release()
  }
}

/** The caller's saved prompts, last edited first. */
export const ownPrompts = (deps: AppDeps, caller: SessionUser) => listPrompts(deps, caller)
