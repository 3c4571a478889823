import type { invites } from '../../../db/schema'

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000

type InviteRow = typeof invites.$inferSelect
export type InviteStatus = 'pending' | 'accepted' | 'rejected' | 'expired'

/** Status is derived, never stored: accepted wins, then revoked (rejected), then age. */
export function inviteStatus(invite: Pick<InviteRow, 'acceptedAt' | 'revokedAt' | 'sentAt'>, now = Date.now()): InviteStatus {
  if (invite.acceptedAt) return 'accepted'
  if (invite.revokedAt) return 'rejected'
  if (invite.sentAt.getTime() + INVITE_TTL_MS <= now) return 'expired'
  return 'pending'
}

export const inviteExpiresAt = (invite: Pick<InviteRow, 'sentAt'>) => new Date(invite.sentAt.getTime() + INVITE_TTL_MS)
