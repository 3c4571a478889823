import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { PromptView } from '../../../src/api/prompts/schema'
import type { ApiClient } from '../../lib/api-client'
import { useApi } from '../../lib/use-api'

export type Prompt = PromptView
export type PromptInput = { title: string; content: string }
/** Who a prompt is shared with (read-only): the whole organisation and/or groups of it. */
export type PromptSharing = { organization: boolean; groupIds: string[] }

// Lists (one per search) and details hang off one key: a change to any prompt refreshes them all.
const PROMPTS = ['prompts'] as const

export const promptQueries = {
  /** The caller's prompts and those shared with them (`mine` tells), last edited first; `search` matches title or content. */
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
  share: (api: ApiClient, id: string, body: PromptSharing) => api.put<Prompt>(`/prompts/${encodeURIComponent(id)}/sharing`, body),
  copy: (api: ApiClient, id: string) => api.post<Prompt>(`/prompts/${encodeURIComponent(id)}/copy`, {}),
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
export const useSharePrompt = () => usePromptsMutation((api, v: { id: string } & PromptSharing) => promptsApi.share(api, v.id, v))
export const useCopyPrompt = () => usePromptsMutation(promptsApi.copy)
