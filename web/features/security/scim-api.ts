import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import type { createdScimTokenResponse, ScimTokenView } from '../../../src/api/scim/schema'
import type { ApiClient } from '../../lib/api-client'
import { useApi } from '../../lib/use-api'

export type ScimToken = ScimTokenView
export type CreatedScimToken = z.infer<typeof createdScimTokenResponse>

const SCIM_TOKENS = ['scim-tokens'] as const

export const scimQueries = {
  tokens: (api: ApiClient) => queryOptions({ queryKey: SCIM_TOKENS, queryFn: () => api.get<ScimToken[]>('/scim-tokens') }),
}

function useScimMutation<T, R>(fn: (api: ApiClient, input: T) => Promise<R>) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: T) => fn(api, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SCIM_TOKENS }),
  })
}

export const useCreateScimToken = () => useScimMutation((api, name: string) => api.post<CreatedScimToken>('/scim-tokens', { name }))
export const useRevokeScimToken = () => useScimMutation((api, id: string) => api.delete<void>(`/scim-tokens/${encodeURIComponent(id)}`))
