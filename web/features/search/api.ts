import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import type { z } from 'zod'
import type { SearchResult, SnippetPart, searchResponse } from '../../../src/api/search/schema'
import type { ApiClient } from '../../lib/api-client'

export type { SearchResult, SnippetPart }
type SearchResponse = z.infer<typeof searchResponse>

export const searchQueries = {
  /** The caller's chats matching `q`; the previous answer stays shown while the next one loads. */
  results: (api: ApiClient, q: string) =>
    queryOptions({
      queryKey: ['search', q] as const,
      queryFn: () => api.get<SearchResponse>(`/search?q=${encodeURIComponent(q)}&limit=20`).then((r) => r.results),
      enabled: q.trim().length > 0,
      placeholderData: keepPreviousData,
      staleTime: 10_000,
    }),
}
