import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { SourceView } from '../../../src/api/sources/schema'
import type { ApiClient } from '../../lib/api-client'
import { collectionQueries, type Collection } from '../../lib/collection-queries'
import { postFormWithProgress, type UploadOptions } from '../../lib/upload'
import { useApi } from '../../lib/use-api'

export type CollectionRole = 'reader' | 'editor'
export type Sharing = { organizationRole: CollectionRole | null; groups: Array<{ groupId: string; role: CollectionRole }> }
const path = (id: string) => `/collections/${encodeURIComponent(id)}`

export const knowledgeApi = {
  create: (api: ApiClient, body: { name: string; description: string | null }) => api.post<Collection>('/collections', body),
  update: (api: ApiClient, id: string, body: { name?: string; description?: string | null }) => api.patch<Collection>(path(id), body),
  share: (api: ApiClient, id: string, body: Sharing) => api.put<Collection>(`${path(id)}/sharing`, body),
  remove: (api: ApiClient, id: string) => api.delete<void>(path(id)),
  removeFile: (api: ApiClient, id: string, fileId: string) => api.delete<void>(`${path(id)}/files/${encodeURIComponent(fileId)}`),
  retryFile: (api: ApiClient, id: string, fileId: string) => api.post<SourceView>(`${path(id)}/files/${encodeURIComponent(fileId)}/retry`),
  /** Uploads one file with its progress (browser only); the answer comes at once, with status `processing`. */
  upload: (id: string, file: File, options: UploadOptions = {}) => {
    const form = new FormData()
    form.append('file', file, file.name)
    return postFormWithProgress<SourceView>(`${path(id)}/files`, form, options)
  },
}

/** A mutation that refreshes every collection query once it succeeds. */
export function useCollectionsMutation<T, R>(fn: (api: ApiClient, input: T) => Promise<R>) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: T) => fn(api, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: collectionQueries.all }),
  })
}
