import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { Group } from '../../../src/api/groups/schema'
import type { Member } from '../../../src/api/members/schema'
import type { ApiClient } from '../../lib/api-client'
import { useApi } from '../../lib/use-api'

export type { Group, Member }

const GROUPS = ['groups', 'list'] as const
// The members list the Users page reads too: one cache entry for both.
const MEMBERS = ['members', 'list'] as const

export const groupQueries = {
  list: (api: ApiClient) => queryOptions({ queryKey: GROUPS, queryFn: () => api.get<Group[]>('/groups') }),
  members: (api: ApiClient) => queryOptions({ queryKey: MEMBERS, queryFn: () => api.get<Member[]>('/users') }),
}

const path = (id: string) => `/groups/${encodeURIComponent(id)}`

export const groupsApi = {
  create: (api: ApiClient, name: string) => api.post<Group>('/groups', { name }),
  rename: (api: ApiClient, id: string, name: string) => api.patch<Group>(path(id), { name }),
  remove: (api: ApiClient, id: string) => api.delete<void>(path(id)),
  addMembers: (api: ApiClient, id: string, userIds: string[]) => api.post<Group>(`${path(id)}/members`, { userIds }),
  removeMember: (api: ApiClient, id: string, userId: string) => api.delete<Group>(`${path(id)}/members/${encodeURIComponent(userId)}`),
}

/** A change to the groups: the list (and the models' access, which names groups) is read again. */
function useGroupMutation<T, R>(fn: (api: ApiClient, input: T) => Promise<R>) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: T) => fn(api, input),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: GROUPS }), queryClient.invalidateQueries({ queryKey: ['models'] })]),
  })
}

export const useCreateGroup = () => useGroupMutation(groupsApi.create)
export const useRenameGroup = () => useGroupMutation((api, v: { id: string; name: string }) => groupsApi.rename(api, v.id, v.name))
export const useDeleteGroup = () => useGroupMutation(groupsApi.remove)
export const useAddGroupMember = () => useGroupMutation((api, v: { id: string; userId: string }) => groupsApi.addMembers(api, v.id, [v.userId]))
export const useRemoveGroupMember = () => useGroupMutation((api, v: { id: string; userId: string }) => groupsApi.removeMember(api, v.id, v.userId))
