import { infiniteQueryOptions, queryOptions, replaceEqualDeep, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import type { MessageView, ThreadSummary, olderMessagesResponse, threadDetailResponse, threadListResponse } from '../../../src/api/threads/schema'
import type { ApiClient } from '../../lib/api-client'
import { useApi } from '../../lib/use-api'

export type { MessageView as Message, ThreadSummary }
export type ThreadDetail = z.infer<typeof threadDetailResponse>
export type ThreadPage = z.infer<typeof threadListResponse>
export type OlderMessages = z.infer<typeof olderMessagesResponse>

export const THREAD_PAGE_SIZE = 30
/** The newest messages a chat opens with; older ones load as the user scrolls up. */
export const MESSAGE_PAGE_SIZE = 50

/** A rename, a pin or an unpin. */
export type ThreadChange = { title?: string; pinned?: boolean }

const THREADS = ['threads'] as const
export const threadListKey = [...THREADS, 'list'] as const
export const threadDetailKey = (id: string) => [...THREADS, 'detail', id] as const

export const threadQueries = {
  list: (api: ApiClient) =>
    infiniteQueryOptions({
      queryKey: threadListKey,
      queryFn: ({ pageParam }) =>
        api.get<ThreadPage>(`/threads?limit=${THREAD_PAGE_SIZE}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.nextCursor,
    }),
  detail: (api: ApiClient, id: string) =>
    queryOptions({
      queryKey: threadDetailKey(id),
      queryFn: () => api.get<ThreadDetail>(`/threads/${encodeURIComponent(id)}?last=${MESSAGE_PAGE_SIZE}`),
      structuralSharing: (previous: unknown, next: unknown) =>
        replaceEqualDeep(previous, keepOlderMessages(previous as ThreadDetail | undefined, next as ThreadDetail)),
    }),
}

/**
 * A chat whose cached messages hold `messageId` (a search result opened): when the newest page
 * does not reach back to it, the chat is read again down to it (`through`), so that the list can
 * scroll to it. A message that is not in the chat (deleted since) leaves the chat as it is.
 */
export async function loadThreadThrough(queryClient: QueryClient, api: ApiClient, id: string, messageId: string) {
  const options = threadQueries.detail(api, id)
  const cached = queryClient.getQueryData(options.queryKey)
  if (cached && (cached.olderCursor === null || cached.messages.some((m) => m.id === messageId))) return cached
  return queryClient.fetchQuery({
    ...options,
    queryFn: () => api.get<ThreadDetail>(`/threads/${encodeURIComponent(id)}?last=${MESSAGE_PAGE_SIZE}&through=${encodeURIComponent(messageId)}`),
    staleTime: 0,
  })
}

/**
 * A re-read of a chat (after a reply, while another tab's reply streams) answers its newest page
 * only: the older messages the user had loaded stay in front of it, with their cursor.
 */
export function keepOlderMessages(previous: ThreadDetail | undefined, next: ThreadDetail): ThreadDetail {
  if (!previous || next.olderCursor === null) return next
  const first = next.messages[0]
  const at = first ? previous.messages.findIndex((m) => m.id === first.id) : -1
  if (at <= 0) return next
  return { ...next, messages: [...previous.messages.slice(0, at), ...next.messages], olderCursor: previous.olderCursor }
}

export const threadsApi = {
  create: (api: ApiClient, body: { modelId?: string; agentId?: string }) => api.post<ThreadSummary>('/threads', body),
  older: (api: ApiClient, id: string, before: number) =>
    api.get<OlderMessages>(`/threads/${encodeURIComponent(id)}/messages?before=${before}&limit=${MESSAGE_PAGE_SIZE * 2}`),
  remove: (api: ApiClient, id: string) => api.delete<void>(`/threads/${encodeURIComponent(id)}`),
  removeMany: (api: ApiClient, ids: string[]) => api.delete<void>('/threads', { ids }),
  update: (api: ApiClient, id: string, change: ThreadChange) => api.patch<ThreadSummary>(`/threads/${encodeURIComponent(id)}`, change),
  setModel: (api: ApiClient, id: string, modelId: string) =>
    api.patch<ThreadDetail>(`/threads/${encodeURIComponent(id)}/model`, { modelId }),
  showVersion: (api: ApiClient, id: string, messageId: string) => api.put<void>(`/threads/${encodeURIComponent(id)}/branch`, { messageId }),
  setAgent: (api: ApiClient, id: string, agentId: string | null) =>
    api.patch<ThreadDetail>(`/threads/${encodeURIComponent(id)}/agent`, { agentId }),
}


/** Puts a thread at the top of the sidebar list (new chat, or new activity), or updates it in place. */
export function upsertThreadInList(queryClient: QueryClient, thread: ThreadSummary, moveToTop: boolean) {
  queryClient.setQueryData<{ pages: ThreadPage[]; pageParams: unknown[] }>(threadListKey, (data) => {
    if (!data) return data
    const found = data.pages.some((p) => p.threads.some((t) => t.id === thread.id))
    if (!moveToTop && found) {
      return { ...data, pages: data.pages.map((p) => ({ ...p, threads: p.threads.map((t) => (t.id === thread.id ? { ...t, ...thread } : t)) })) }
    }
    const pages = data.pages.map((p) => ({ ...p, threads: p.threads.filter((t) => t.id !== thread.id) }))
    const [first, ...rest] = pages
    if (!first) return data
    return { ...data, pages: [{ ...first, threads: [thread, ...first.threads] }, ...rest] }
  })
}

export function patchThreadInList(queryClient: QueryClient, id: string, patch: Partial<ThreadSummary>) {
  queryClient.setQueryData<{ pages: ThreadPage[]; pageParams: unknown[] }>(threadListKey, (data) =>
    data && { ...data, pages: data.pages.map((p) => ({ ...p, threads: p.threads.map((t) => (t.id === id ? { ...t, ...patch } : t)) })) },
  )
}

const dropFromList = (queryClient: QueryClient, ids: string[]) =>
  queryClient.setQueryData<{ pages: ThreadPage[]; pageParams: unknown[] }>(threadListKey, (data) =>
    data && { ...data, pages: data.pages.map((p) => ({ ...p, threads: p.threads.filter((t) => !ids.includes(t.id)) })) },
  )

export function useDeleteThread() {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => threadsApi.remove(api, id),
    // The chat's own query is left to the caller, which may first have to leave the chat's page.
    onSuccess: (_data, id) => dropFromList(queryClient, [id]),
  })
}

/** Deletes several chats at once: all of them or, when one is gone already, none (the list is read again). */
export function useDeleteThreads() {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (ids: string[]) => threadsApi.removeMany(api, ids),
    onSuccess: (_data, ids) => dropFromList(queryClient, ids),
    onError: () => void queryClient.invalidateQueries({ queryKey: threadListKey }),
  })
}

/** Renames, pins or unpins a chat; the list and the chat's page show it at once. */
export function useUpdateThread() {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: ThreadChange }) => threadsApi.update(api, id, change),
    onSuccess: (thread) => {
      const { title, pinnedAt } = thread
      queryClient.setQueryData<ThreadDetail>(threadDetailKey(thread.id), (detail) => detail && { ...detail, title, pinnedAt })
      patchThreadInList(queryClient, thread.id, { title, pinnedAt })
    },
  })
}

export function useSetThreadModel(threadId: string) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (modelId: string) => threadsApi.setModel(api, threadId, modelId),
    onSuccess: (thread) => {
      queryClient.setQueryData<ThreadDetail>(threadDetailKey(threadId), thread)
      patchThreadInList(queryClient, threadId, { modelId: thread.modelId })
    },
  })
}

/** Sets or removes a chat's agent; while one is set, its model answers. */
export function useSetThreadAgent(threadId: string) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (agentId: string | null) => threadsApi.setAgent(api, threadId, agentId),
    onSuccess: (thread) => {
      queryClient.setQueryData<ThreadDetail>(threadDetailKey(threadId), thread)
      patchThreadInList(queryClient, threadId, { agentId: thread.agentId, modelId: thread.modelId })
    },
  })
}

/** Shows another version of a message; the chat is read again along the branch now shown. */
export function useShowVersion(threadId: string) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (messageId: string) => threadsApi.showVersion(api, threadId, messageId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: threadDetailKey(threadId) }),
  })
}
