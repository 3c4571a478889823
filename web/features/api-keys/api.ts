import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import type { ApiKeyView, apiSettingsResponse, createdApiKeyResponse } from '../../../src/api/api-keys/schema'
import type { ApiClient } from '../../lib/api-client'
import { useApi } from '../../lib/use-api'

export type ApiKey = ApiKeyView
export type CreatedApiKey = z.infer<typeof createdApiKeyResponse>
export type ApiSettings = z.infer<typeof apiSettingsResponse>
export type CreateApiKeyInput = { name: string; expiresInDays: number | null }

// Own keys, the organisation's keys and the setting hang off one key: a change refreshes them all.
const API_KEYS = ['api-keys'] as const

export const apiKeyQueries = {
  own: (api: ApiClient) => queryOptions({ queryKey: [...API_KEYS, 'own'], queryFn: () => api.get<ApiKey[]>('/api-keys') }),
  organization: (api: ApiClient) =>
    queryOptions({ queryKey: [...API_KEYS, 'organization'], queryFn: () => api.get<ApiKey[]>('/api-keys?scope=organization') }),
  settings: (api: ApiClient) => queryOptions({ queryKey: [...API_KEYS, 'settings'], queryFn: () => api.get<ApiSettings>('/api-keys/settings') }),
}

function useApiKeysMutation<T, R>(fn: (api: ApiClient, input: T) => Promise<R>) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: T) => fn(api, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: API_KEYS }),
  })
}

export const useCreateApiKey = () => useApiKeysMutation((api, body: CreateApiKeyInput) => api.post<CreatedApiKey>('/api-keys', body))
export const useRevokeApiKey = () => useApiKeysMutation((api, id: string) => api.delete<void>(`/api-keys/${encodeURIComponent(id)}`))
export const useUpdateApiSettings = () => useApiKeysMutation((api, body: ApiSettings) => api.put<ApiSettings>('/api-keys/settings', body))
