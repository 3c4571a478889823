import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { SharedChat, ShareView } from '../../../src/api/shares/schema'
import type { ApiClient } from '../../lib/api-client'
import { useApi } from '../../lib/use-api'
import { threadListKey, type ThreadSummary } from './api'

export type { SharedChat, ShareView }

const sharesKey = (threadId: string) => ['threads', 'shares', threadId] as const
export const sharedChatKey = (shareId: string) => ['shares', shareId] as const

/** The address of a shared chat: members of the organisation open it signed in. */
export const shareUrl = (shareId: string) => `${window.location.origin}/shared/${encodeURIComponent(shareId)}`

export const shareQueries = {
  ofThread: (api: ApiClient, threadId: string) =>
    queryOptions({ queryKey: sharesKey(threadId), queryFn: () => api.get<{ shares: ShareView[] }>(`/threads/${encodeURIComponent(threadId)}/shares`) }),
  shared: (api: ApiClient, shareId: string) =>
    queryOptions({ queryKey: sharedChatKey(shareId), queryFn: () => api.get<SharedChat>(`/shares/${encodeURIComponent(shareId)}`) }),
}

/** Shares a snapshot of the chat with the whole organisation (no groups) or with the members of the given groups. */
export function useShareThread(threadId: string) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (groupIds: string[]) => api.post<ShareView>(`/threads/${encodeURIComponent(threadId)}/shares`, { groupIds }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharesKey(threadId) }),
  })
}

/** Stops sharing: the link finds nothing from then on. */
export function useRevokeShare(threadId: string) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (shareId: string) => api.delete<void>(`/shares/${encodeURIComponent(shareId)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharesKey(threadId) }),
  })
}

/** "Continue this chat": a copy of the shared chat becomes one of the caller's. */
export function useContinueShare() {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (shareId: string) => api.post<ThreadSummary>(`/shares/${encodeURIComponent(shareId)}/continue`, {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: threadListKey }),
  })
}
