import type { QueryClient } from '@tanstack/react-query'
import type { PermittedModel } from '../../../../src/api/models/schema'
import { isApiError, type ApiClient } from '../../../lib/api-client'
import { agentQueries } from '../../../lib/agent-queries'
import { promptQueries } from '../../prompts/api'
import { modelListQueries } from '../../../lib/model-lists'

export type NewChatSearch = { prompt?: string; modelId?: string; agentId?: string }

export type NewChatData = {
  /** The permitted model the chat starts with, or null ('No model found', or the agent's model is used). */
  modelId: string | null
  /** The agent the chat starts with; its model (null once unpermitted) is the one replies come from. */
  agent: { id: string; name: string; model: PermittedModel | null } | null
  isEmbeddingModelEnabled: boolean
  /** The content of the prompt named by `?prompt=`, to prefill the message field. */
  promptContent: string | null
  /** Its title, heading the form that asks for its variables. */
  promptTitle: string | null
}

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

/** A permitted model by its id or by its reference ('openai/gpt-4.1'). */
export const findModel = (models: PermittedModel[], idOrRef: string) => models.find((m) => m.id === idOrRef || m.modelId === idOrRef)

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
