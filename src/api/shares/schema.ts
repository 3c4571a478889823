import { z } from 'zod'
import { messageResponse } from '../threads/schema'

export const shareIdParams = z.object({ id: z.string().min(1).max(64) })

/** At most this many groups a chat is shared with. */
export const MAX_SHARE_GROUPS = 50

/** Share a chat: with the whole organisation (no groups), or with the members of the chosen groups only. */
export const createShareBody = z.object({
  groupIds: z.array(z.string().min(1).max(64)).max(MAX_SHARE_GROUPS, `At most ${MAX_SHARE_GROUPS} groups`).default([]),
})

/** A share as its owner sees it (the chat's shares). */
export const shareResponse = z.object({
  id: z.string(),
  threadId: z.string(),
  title: z.string(),
  /** The groups it is limited to (empty: the whole organisation). */
  groups: z.array(z.object({ id: z.string(), name: z.string() })),
  messageCount: z.number().int(),
  createdAt: z.string(),
})

export const shareListResponse = z.object({ shares: z.array(shareResponse) })

/** A shared chat as a member of the organisation reads it: the messages as they were when it was shared. */
export const sharedChatResponse = z.object({
  id: z.string(),
  title: z.string(),
  sharedBy: z.object({ name: z.string() }),
  createdAt: z.string(),
  /** The caller shared it (and may revoke it). */
  own: z.boolean(),
  messages: z.array(messageResponse),
})

export type ShareView = z.infer<typeof shareResponse>
export type SharedChat = z.infer<typeof sharedChatResponse>
