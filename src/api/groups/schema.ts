import { z } from 'zod'

export const groupName = z.string().trim().min(1, 'Name is required').max(60, 'At most 60 characters')
export const groupBody = z.object({ name: groupName })
export const groupIdParams = z.object({ id: z.string().min(1).max(64) })
export const groupMemberParams = z.object({ id: z.string().min(1).max(64), userId: z.string().min(1).max(64) })
export const addMembersBody = z.object({
  userIds: z.array(z.string().min(1).max(64)).min(1, 'Choose at least one member').max(1000),
})

export const groupMemberResponse = z.object({ id: z.string(), name: z.string(), email: z.string() })
export const groupResponse = z.object({
  id: z.string(),
  name: z.string(),
  members: z.array(groupMemberResponse),
  createdAt: z.string(),
})
export const groupListResponse = z.array(groupResponse)

export type Group = z.infer<typeof groupResponse>

export const READ_ONLY_SHARE_GROUPS_MAX = 50

/**
 * Who a prompt or an agent is shared with (read-only for them), replacing what was: the whole
 * organisation and/or groups of it. Nothing shared: private.
 */
export const readOnlySharingBody = z.object({
  organization: z.boolean({ error: 'Say whether the whole organisation may use it' }),
  groupIds: z
    .array(z.string().min(1).max(64))
    .max(READ_ONLY_SHARE_GROUPS_MAX, `At most ${READ_ONLY_SHARE_GROUPS_MAX} groups`)
    .refine((list) => new Set(list).size === list.length, 'Each group once'),
})

/** How a prompt or agent is shared, as its answers carry it. */
export const readOnlySharingFields = {
  /** True for the caller's own; others are shared with the caller and read-only. */
  mine: z.boolean(),
  owner: z.object({ id: z.string(), name: z.string() }),
  sharedWithOrganization: z.boolean(),
  /** The groups it is shared with (shown to its owner only; empty for others). */
  groups: z.array(z.object({ id: z.string(), name: z.string() })),
}
