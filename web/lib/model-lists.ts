import { queryOptions } from '@tanstack/react-query'
import type { PermittedModel } from '../../src/api/models/schema'
import { isApiError, type ApiClient } from './api-client'

export type { PermittedModel }

/**
 * The model lists several features read (chat, agents, settings, sources). They hang off the
 * `models` key like every models query, so that any change an admin makes refreshes them all.
 */
export const modelListQueries = {
  languageModels: (api: ApiClient) =>
    queryOptions({
      queryKey: ['models', 'language-models'],
      queryFn: () => api.get<PermittedModel[]>('/models/permitted/language-models'),
    }),
  /** The caller's default model for new chats, or null when no model is usable. */
  defaultModel: (api: ApiClient) =>
    queryOptions({
      queryKey: ['models', 'default'],
      queryFn: async () => {
        try {
          return await api.get<PermittedModel>('/models/default')
        } catch (error) {
          if (isApiError(error) && error.code === 'NO_MODEL_FOUND') return null
          throw error
        }
      },
    }),
  embeddingEnabled: (api: ApiClient) =>
    queryOptions({
      queryKey: ['models', 'embedding-enabled'],
      queryFn: () => api.get<{ isEmbeddingModelEnabled: boolean }>('/models/embedding/enabled'),
    }),
}
