import type { PermittedModel } from '../../../../src/api/models/schema'

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

/** A permitted model by its id or by its reference ('openai/gpt-4.1'). */
export const findModel = (models: PermittedModel[], idOrRef: string) => models.find((m) => m.id === idOrRef || m.modelId === idOrRef)
