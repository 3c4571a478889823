import { sql, type SQL } from 'drizzle-orm'
import { invites, subscriptions, users } from '../../../db/schema'
import type { Config } from '../../lib/config'

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

/** Seats of a cloud organisation without a subscription (the trial seat of its first admin). */
export const SEATS_WITHOUT_SUBSCRIPTION = 1

/**
 * SQL condition "a seat is free": active members plus pending invites below the organisation's seats.
 * Evaluated inside the insert that uses the seat, so two invites cannot take the last one.
 * Self-hosted instances have no seat limit.
 */
export function seatAvailable(config: Config, organizationId: string, now = Date.now()): SQL {
  if (!config.isCloud) return sql`1`
  return sql`${seatsUsed(organizationId, now)} < ${seatsOf(organizationId, now)}`
}

/**
 * SQL condition "more seats are used than the organisation has": checked after a member was
 * inserted by a path that cannot test and insert in one statement (a first SSO sign-in).
 */
export function seatsOverbooked(config: Config, organizationId: string, now = Date.now()): SQL {
  if (!config.isCloud) return sql`0`
  return sql`${seatsUsed(organizationId, now)} > ${seatsOf(organizationId, now)}`
}

/** A running subscription (active, or cancelled before its end date) brings its seats. */
const seatsOf = (organizationId: string, now: number) => sql`coalesce((SELECT ${subscriptions.seats} FROM ${subscriptions} WHERE ${subscriptions.organizationId} = ${organizationId}
    AND (${subscriptions.cancelledAt} IS NULL OR ${subscriptions.nextRenewalAt} > ${now})), ${SEATS_WITHOUT_SUBSCRIPTION})`

/** Active members plus pending invites. */
const seatsUsed = (organizationId: string, now: number) => sql`(
    (SELECT count(*) FROM ${users} WHERE ${users.organizationId} = ${organizationId} AND ${users.deactivatedAt} IS NULL) +
    (SELECT count(*) FROM ${invites} WHERE ${invites.organizationId} = ${organizationId}
      AND ${invites.acceptedAt} IS NULL AND ${invites.revokedAt} IS NULL AND ${invites.sentAt} > ${now - INVITE_TTL_MS})
  )`
