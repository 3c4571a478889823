import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import type { SourceView } from '../../../src/api/sources/schema'
import type { ApiClient } from '../../lib/api-client'
import { postFormWithProgress, type UploadOptions } from '../../lib/upload'
import { useApi } from '../../lib/use-api'

export type Source = SourceView

/** How often a chat's files are re-read while one of them is still being processed. */
export const PROCESSING_POLL_MS = 1500

// Under the chat's own key: whatever refreshes or drops the chat refreshes or drops its files too.
export const sourcesKey = (threadId: string) => ['threads', 'detail', threadId, 'sources'] as const

export const isProcessing = (sources: Source[] | undefined) => Boolean(sources?.some((s) => s.status === 'processing'))

export const sourceQueries = {
  /** The chat's files, oldest first; re-read every few seconds while one is processing. */
  list: (api: ApiClient, threadId: string) =>
    queryOptions({
      queryKey: sourcesKey(threadId),
      queryFn: () => api.get<Source[]>(`/threads/${encodeURIComponent(threadId)}/sources`),
      refetchInterval: (query) => (isProcessing(query.state.data) ? PROCESSING_POLL_MS : false),
    }),
}

export const sourcesApi = {
  /** Uploads one file with its progress (browser only); the answer comes at once, with status `processing`. */
  upload: (threadId: string, file: File, options: UploadOptions = {}) => {
    const form = new FormData()
    form.append('file', file, file.name)
    return postFormWithProgress<Source>(`/threads/${encodeURIComponent(threadId)}/sources/file`, form, options)
  },
  remove: (api: ApiClient, threadId: string, sourceId: string) =>
    api.delete<void>(`/threads/${encodeURIComponent(threadId)}/sources/${encodeURIComponent(sourceId)}`),
}

/** Adds a just uploaded file to the chat's list (or replaces it), keeping the server's order. */
export async function addSourceToCache(queryClient: QueryClient, threadId: string, source: Source) {
  // A list read before the upload ended would otherwise land afterwards and drop the new file.
  await queryClient.cancelQueries({ queryKey: sourcesKey(threadId) })
  queryClient.setQueryData<Source[]>(sourcesKey(threadId), (list = []) => [...list.filter((s) => s.id !== source.id), source])
}

/** Renames a file or changes its description; the chat's list shows it at once. */
export function useUpdateSource(threadId: string) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ sourceId, ...change }: { sourceId: string; name: string; description: string | null }) =>
      api.patch<Source>(`/threads/${encodeURIComponent(threadId)}/sources/${encodeURIComponent(sourceId)}`, change),
    onSuccess: (source) => queryClient.setQueryData<Source[]>(sourcesKey(threadId), (list) => list?.map((s) => (s.id === source.id ? source : s))),
  })
}

/** Processes a failed file again; the chat's list shows it processing (and polls) at once. */
export function useRetrySource(threadId: string) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (sourceId: string) => api.post<Source>(`/threads/${encodeURIComponent(threadId)}/sources/${encodeURIComponent(sourceId)}/retry`),
    onSuccess: (source) => addSourceToCache(queryClient, threadId, source),
  })
}

export function useDeleteSource(threadId: string) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (sourceId: string) => sourcesApi.remove(api, threadId, sourceId),
    onSuccess: (_data, sourceId) =>
      queryClient.setQueryData<Source[]>(sourcesKey(threadId), (list) => list?.filter((s) => s.id !== sourceId)),
  })
}
