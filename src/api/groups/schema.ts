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
