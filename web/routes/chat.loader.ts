import type { QueryClient } from '@tanstack/react-query'
import { findModel, type NewChatData, type NewChatSearch } from '../features/chat/lib/new-chat'
import { promptQueries } from '../features/prompts/api'
import { agentQueries } from '../lib/agent-queries'
import { isApiError, type ApiClient } from '../lib/api-client'
import { modelListQueries } from '../lib/model-lists'
import type { RouterContext } from '../router-context'

/** The /chat route's loader (web/routes/chat.tsx loads this module when it runs). */
export const loader = ({ context, deps }: { context: RouterContext; deps: NewChatSearch }) => loadNewChat(context, deps)

/**
 * What /chat needs (spec section 2): the given model, else the given agent, else the default
 * model; whether an embedding model is enabled; the prefilled prompt.
 */
export async function loadNewChat(context: { queryClient: QueryClient; api: ApiClient }, search: NewChatSearch): Promise<NewChatData> {
  const { queryClient, api } = context
  const [models, embedding, prompt, agent] = await Promise.all([
    queryClient.ensureQueryData(modelListQueries.languageModels(api)),
    queryClient.ensureQueryData(modelListQueries.embeddingEnabled(api)),
    search.prompt ? fetchPrompt(context, search.prompt) : null,
    search.agentId ? fetchAgent(context, search.agentId) : null,
  ])
  const given = search.modelId ? findModel(models, search.modelId) : undefined
  const modelId = given ? given.id : agent ? null : ((await queryClient.ensureQueryData(modelListQueries.defaultModel(api)))?.id ?? null)
  return {
    modelId,
    agent: given ? null : agent,
    isEmbeddingModelEnabled: embedding.isEmbeddingModelEnabled,
    promptContent: prompt?.content ?? null,
    promptTitle: prompt?.title ?? null,
  }
}

type LoaderContext = { queryClient: QueryClient; api: ApiClient }

/** The saved prompt; a prompt that is gone (or someone else's) prefills nothing. */
async function fetchPrompt({ queryClient, api }: LoaderContext, promptId: string): Promise<{ title: string; content: string } | null> {
  try {
    const { title, content } = await queryClient.ensureQueryData(promptQueries.detail(api, promptId))
    return { title, content }
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null
    throw error
  }
}

/** The agent to chat with; one that is gone (or someone else's) is left out and the default model used. */
async function fetchAgent({ queryClient, api }: LoaderContext, agentId: string): Promise<NewChatData['agent']> {
  try {
    const agent = await queryClient.ensureQueryData(agentQueries.detail(api, agentId))
    return { id: agent.id, name: agent.name, model: agent.available ? agent.model : null }
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null
    throw error
  }
}
