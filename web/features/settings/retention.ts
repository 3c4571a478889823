import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { RetentionView } from '../../../src/api/retention/schema'
import type { ApiClient } from '../../lib/api-client'
import { useApi } from '../../lib/use-api'

export type Retention = RetentionView

export const retentionQueries = {
  get: (api: ApiClient) => queryOptions({ queryKey: ['organization', 'retention'], queryFn: () => api.get<Retention>('/organization/retention') }),
}

/** Sets how long the organisation keeps chats and uploaded files. */
export function useSaveRetention() {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (retention: Retention) => api.put<Retention>('/organization/retention', retention),
    onSuccess: (saved) => queryClient.setQueryData(retentionQueries.get(api).queryKey, saved),
  })
}

/** Deletes all of the caller's chats; the chat list (and any chat or search read before) is fetched afresh. */
export function useDeleteAllChats() {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => api.delete<void>('/threads', { all: true }),
    onSettled: () => queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'threads' || q.queryKey[0] === 'search' }),
  })
}
