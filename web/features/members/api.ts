import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import type { InviteView, invitePreviewResponse } from '../../../src/api/invites/schema'
import type { Member } from '../../../src/api/members/schema'
import type { ApiClient } from '../../lib/api-client'
import type { Language } from '../../lib/i18n'
import { useApi } from '../../lib/use-api'
import type { Me } from '../../lib/session'

export type { Member }
export type Invite = InviteView
export type Role = Member['role']
export type InvitePreview = z.infer<typeof invitePreviewResponse>
export type CreateInviteInput = { email: string; role: Role; locale: Language }
export type AcceptInviteInput = { token: string; name: string; password: string; passwordConfirmation: string }

export const ROLES: Role[] = ['user', 'admin']

const MEMBERS = ['members', 'list'] as const
const INVITES = ['invites', 'list'] as const

export const memberQueries = {
  list: (api: ApiClient) => queryOptions({ queryKey: MEMBERS, queryFn: () => api.get<Member[]>('/users') }),
}

export const inviteQueries = {
  list: (api: ApiClient) => queryOptions({ queryKey: INVITES, queryFn: () => api.get<Invite[]>('/invites') }),
  // Each visit asks again: the invite may have been revoked or accepted since.
  preview: (api: ApiClient, token: string) =>
    queryOptions({
      queryKey: ['invite-preview', token],
      queryFn: () => api.get<InvitePreview>(`/invites/preview?token=${encodeURIComponent(token)}`),
      staleTime: 0,
      retry: false,
    }),
}

export const membersApi = {
  changeRole: (api: ApiClient, id: string, role: Role) => api.patch<Member>(`/users/${encodeURIComponent(id)}/role`, { role }),
  remove: (api: ApiClient, id: string) => api.delete<void>(`/users/${encodeURIComponent(id)}`),
  endSessions: (api: ApiClient, id: string) => api.delete<{ ended: number }>(`/users/${encodeURIComponent(id)}/sessions`),
  invite: (api: ApiClient, body: CreateInviteInput) => api.post<Invite>('/invites', body),
  resendInvite: (api: ApiClient, id: string) => api.post<Invite>(`/invites/${encodeURIComponent(id)}/resend`),
  revokeInvite: (api: ApiClient, id: string) => api.delete<void>(`/invites/${encodeURIComponent(id)}`),
  acceptInvite: (api: ApiClient, body: AcceptInviteInput) => api.post<Me>('/invites/accept', body),
}

/** A mutation that refreshes the given lists once it succeeds. */
function useListMutation<T, R>(fn: (api: ApiClient, input: T) => Promise<R>, lists: ReadonlyArray<readonly string[]>) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: T) => fn(api, input),
    onSuccess: () => Promise.all(lists.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  })
}

export const useChangeRole = () =>
  useListMutation((api, v: { id: string; role: Role }) => membersApi.changeRole(api, v.id, v.role), [MEMBERS])
export const useRemoveMember = () => useListMutation((api, id: string) => membersApi.remove(api, id), [MEMBERS])
export const useEndMemberSessions = () => useListMutation(membersApi.endSessions, [])
export const useCreateInvite = () => useListMutation(membersApi.invite, [INVITES])
export const useResendInvite = () => useListMutation(membersApi.resendInvite, [INVITES])
export const useRevokeInvite = () => useListMutation(membersApi.revokeInvite, [INVITES])
