import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { PromptView } from '../../../src/api/prompts/schema'
import type { ApiClient } from '../../lib/api-client'
import { useApi } from '../../lib/use-api'

export type Prompt = PromptView
export type PromptInput = { title: string; content: string }

// Lists (one per search) and details hang off one key: a change to any prompt refreshes them all.
const PROMPTS = ['prompts'] as const

export const promptQueries = {
  /** The caller's prompts, last edited first; `search` matches title or content. */
  list: (api: ApiClient, search = '') => {
    const term = search.trim()
    return queryOptions({
      queryKey: [...PROMPTS, 'list', term],
      queryFn: () => api.get<Prompt[]>(term ? `/prompts?search=${encodeURIComponent(term)}` : '/prompts'),
    })
  },
  detail: (api: ApiClient, id: string) =>
    queryOptions({ queryKey: [...PROMPTS, 'detail', id], queryFn: () => api.get<Prompt>(`/prompts/${encodeURIComponent(id)}`) }),
}

export const promptsApi = {
  create: (api: ApiClient, body: PromptInput) => api.post<Prompt>('/prompts', body),
  update: (api: ApiClient, id: string, body: PromptInput) => api.put<Prompt>(`/prompts/${encodeURIComponent(id)}`, body),
  remove: (api: ApiClient, id: string) => api.delete<void>(`/prompts/${encodeURIComponent(id)}`),
}

/** A mutation that refreshes every prompt query once it succeeds (and before it counts as done). */
function usePromptsMutation<T, R>(fn: (api: ApiClient, input: T) => Promise<R>) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: T) => fn(api, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PROMPTS }),
  })
}

export const useCreatePrompt = () => usePromptsMutation(promptsApi.create)
export const useUpdatePrompt = () => usePromptsMutation((api, v: { id: string } & PromptInput) => promptsApi.update(api, v.id, v))
export const useDeletePrompt = () => usePromptsMutation(promptsApi.remove)
