import { eq, sql } from 'drizzle-orm'
import { invites, subscriptions, users } from '../../../db/schema'
import type { AppDeps } from '../../lib/context'
import { INVITE_TTL_MS } from '../invites/access'
import { nextAnniversary } from './dates'

type SubscriptionRow = typeof subscriptions.$inferSelect

/**
 * Where a subscription stands at `now`: active (renewing itself every year), cancelled but still
 * usable until its end date, or lapsed (treated as no subscription at all).
 */
export function subscriptionState(row: SubscriptionRow | undefined, now = new Date()) {
  if (!row) return { kind: 'none' as const }
  if (row.cancelledAt) {
    return row.nextRenewalAt > now ? { kind: 'cancelled' as const, endsAt: row.nextRenewalAt } : { kind: 'none' as const }
  }
  return { kind: 'active' as const, renewsAt: nextAnniversary(row.startedAt, now) }
}

export async function findSubscription(deps: AppDeps, organizationId: string) {
  return deps.db.query.subscriptions.findFirst({ where: eq(subscriptions.organizationId, organizationId) })
}

/** Self-hosted instances need no subscription; cloud organisations need an active or still-running cancelled one. */
export async function hasActiveSubscription(deps: AppDeps, organizationId: string) {
  if (!deps.config.isCloud) return true
  return subscriptionState(await findSubscription(deps, organizationId)).kind !== 'none'
}

/** Members (deactivated ones hold no seat) plus pending invitations. */
export async function usedSeats(deps: AppDeps, organizationId: string, now = Date.now()) {
  const [row] = await deps.db.all<{ used: number }>(sql`SELECT
    (SELECT count(*) FROM ${users} WHERE ${users.organizationId} = ${organizationId} AND ${users.deactivatedAt} IS NULL) +
    (SELECT count(*) FROM ${invites} WHERE ${invites.organizationId} = ${organizationId}
      AND ${invites.acceptedAt} IS NULL AND ${invites.revokedAt} IS NULL AND ${invites.sentAt} > ${now - INVITE_TTL_MS}) AS used`)
  return Number(row?.used ?? 0)
}

/**
 * Counts one trial message for a cloud organisation without a subscription, or refuses when the
 * trial is used up. One conditional upsert: concurrent sends cannot overrun the limit.
 */
export async function takeTrialMessage(deps: AppDeps, organizationId: string): Promise<boolean> {
  const limit = deps.config.billing.trialMessages
  if (limit <= 0) return false
  const rows = await deps.db.all<{ messages: number }>(sql`
    INSERT INTO trial_usage (organization_id, messages) VALUES (${organizationId}, 1)
    ON CONFLICT (organization_id) DO UPDATE SET messages = messages + 1 WHERE messages < ${limit}
    RETURNING messages`)
  return rows.length > 0
}

/** How many trial messages a cloud organisation without a subscription has left; null when it needs none. */
export async function trialMessagesLeft(deps: AppDeps, organizationId: string): Promise<number | null> {
  if (await hasActiveSubscription(deps, organizationId)) return null
  const [row] = await deps.db.all<{ messages: number }>(sql`SELECT messages FROM trial_usage WHERE organization_id = ${organizationId}`)
  return Math.max(deps.config.billing.trialMessages - Number(row?.messages ?? 0), 0)
}

export async function returnTrialMessage(deps: AppDeps, organizationId: string) {
  await deps.db.run(sql`UPDATE trial_usage SET messages = max(messages - 1, 0) WHERE organization_id = ${organizationId}`)
}
