import { queryOptions } from '@tanstack/react-query'
import type { AttachedCollection, CollectionView } from '../../src/api/knowledge/schema'
import type { SourceView } from '../../src/api/sources/schema'
import type { ApiClient } from './api-client'

// Read by the Knowledge pages and the chat's collection picker.
const COLLECTIONS = ['collections'] as const
const path = (id: string) => `/collections/${encodeURIComponent(id)}`
const POLL_MS = 1500

export type Collection = CollectionView
export type { AttachedCollection }

export const collectionQueries = {
  all: COLLECTIONS,
  /** The collections the user may read, each with their role (owner: "mine"; editor, reader: "shared with me"). */
  list: (api: ApiClient) => queryOptions({ queryKey: [...COLLECTIONS, 'list'], queryFn: () => api.get<Collection[]>('/collections') }),
  detail: (api: ApiClient, id: string) => queryOptions({ queryKey: [...COLLECTIONS, 'detail', id], queryFn: () => api.get<Collection>(path(id)) }),
  /** A collection's files; re-read every few seconds while one is processing. */
  files: (api: ApiClient, id: string) =>
    queryOptions({
      queryKey: [...COLLECTIONS, 'detail', id, 'files'],
      queryFn: () => api.get<SourceView[]>(`${path(id)}/files`),
      refetchInterval: (query) => (query.state.data?.some((f) => f.status === 'processing') ? POLL_MS : false),
    }),
  shareTargets: (api: ApiClient) =>
    queryOptions({ queryKey: [...COLLECTIONS, 'share-targets'], queryFn: () => api.get<{ groups: Array<{ id: string; name: string }> }>('/collections/share-targets') }),
  /** The collections attached to a chat. */
  ofThread: (api: ApiClient, threadId: string) =>
    queryOptions({ queryKey: ['threads', 'detail', threadId, 'collections'], queryFn: () => api.get<AttachedCollection[]>(`/threads/${encodeURIComponent(threadId)}/collections`) }),
}
