import { recordAudit, type AuditAction, type AuditFrom } from '../audit/access'
import { desc, eq } from 'drizzle-orm'
import type { z } from 'zod'
import { subscriptions, webhookDeliveries } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { AppError, fail } from '../../lib/errors'
import { addYears } from './dates'
import type { billingInfoBody, createSubscriptionBody, SubscriptionView } from './schema'
import { findSubscription, subscriptionState, usedSeats } from './access'
import { deliverDueWebhooks, enqueueWebhook, type BillingEvent } from './webhooks'

type SubscriptionRow = typeof subscriptions.$inferSelect

/** Subscriptions exist in cloud mode only, and only admins manage them. */
function requireBillingAdmin(deps: AppDeps, caller: SessionUser) {
  if (caller.role !== 'admin') fail('FORBIDDEN')
  if (!deps.config.isCloud) fail('SUBSCRIPTIONS_NOT_USED')
}

export function price(deps: AppDeps) {
  return {
    pricePerSeatMonthlyCents: deps.config.billing.pricePerSeatMonthlyCents,
    currency: deps.config.billing.currency,
    billingInterval: 'yearly' as const,
    paymentMethod: 'invoice' as const,
  }
}

async function toView(deps: AppDeps, row: SubscriptionRow): Promise<SubscriptionView> {
  const state = subscriptionState(row)
  const used = await usedSeats(deps, row.organizationId)
  const { pricePerSeatMonthlyCents, currency } = price(deps)
  return {
    status: state.kind === 'cancelled' ? 'cancelled' : 'active',
    startedAt: row.startedAt.toISOString(),
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    nextRenewalAt: (state.kind === 'active' ? state.renewsAt : row.nextRenewalAt).toISOString(),
    seats: row.seats,
    usedSeats: used,
    availableSeats: Math.max(0, row.seats - used),
    pricePerSeatMonthlyCents,
    yearlyTotalCents: row.seats * pricePerSeatMonthlyCents * 12,
    currency,
    billingInfo: {
      companyName: row.companyName,
      subText: row.subText,
      street: row.street,
      houseNumber: row.houseNumber,
      postalCode: row.postalCode,
      city: row.city,
      country: row.country,
      vatNumber: row.vatNumber,
    },
  }
}

/** The organisation's subscription while it runs (a lapsed one counts as none). */
async function current(deps: AppDeps, caller: SessionUser) {
  const row = await findSubscription(deps, caller.organizationId)
  if (subscriptionState(row).kind === 'none') fail('SUBSCRIPTION_NOT_FOUND')
  return row!
}

/** Applies a change and records its webhook in one transaction, then tries to deliver at once. */
async function change(deps: AppDeps, caller: SessionUser, from: AuditFrom, event: BillingEvent, write: (tx: Parameters<Parameters<AppDeps['db']['transaction']>[0]>[0]) => Promise<unknown>) {
  await deps.db.transaction(async (tx) => {
    await write(tx)
    const row = await tx.query.subscriptions.findFirst({ where: eq(subscriptions.organizationId, caller.organizationId) })
    await enqueueWebhook(tx, deps.config, caller.organizationId, event, { ...row, changedBy: caller.email })
  })
  void deliverDueWebhooks(deps).catch((error) => deps.logger.warn('webhook delivery run failed', { error }))
  const view = await toView(deps, (await findSubscription(deps, caller.organizationId))!)
  await recordAudit(deps, caller, from, {
    action: AUDIT_ACTION_OF[event],
    target: { type: 'subscription', id: caller.organizationId },
    details: { seats: view.seats, status: view.status },
  })
  return view
}

const AUDIT_ACTION_OF: Record<BillingEvent, AuditAction> = {
  created: 'subscription.created',
  cancelled: 'subscription.cancelled',
  uncancelled: 'subscription.resumed',
  seats_updated: 'subscription.seats_changed',
  billing_info_updated: 'subscription.billing_changed',
}

export async function getSubscription(deps: AppDeps, caller: SessionUser) {
  requireBillingAdmin(deps, caller)
  return toView(deps, await current(deps, caller))
}

/** Subscribes with billing details and seats; active at once, renewing yearly. Never twice. */
export async function createSubscription(deps: AppDeps, caller: SessionUser, input: z.infer<typeof createSubscriptionBody>, from: AuditFrom) {
  requireBillingAdmin(deps, caller)
  const { noOfSeats, ...billing } = input
  if (noOfSeats < (await usedSeats(deps, caller.organizationId))) fail('TOO_MANY_USED_SEATS')
  const existing = await findSubscription(deps, caller.organizationId)
  if (subscriptionState(existing).kind !== 'none') fail('SUBSCRIPTION_EXISTS')
  const now = new Date()
  try {
    return await change(deps, caller, from, 'created', async (tx) => {
      // A lapsed subscription makes way for the new one.
      if (existing) await tx.delete(subscriptions).where(eq(subscriptions.organizationId, caller.organizationId))
      await tx.insert(subscriptions).values({
        organizationId: caller.organizationId,
        seats: noOfSeats,
        startedAt: now,
        nextRenewalAt: addYears(now, 1),
        ...billing,
      })
    })
  } catch (error) {
    if (error instanceof AppError) throw error
    if (String((error as { cause?: unknown }).cause ?? error).includes('UNIQUE')) fail('SUBSCRIPTION_EXISTS')
    throw error
  }
}

/** Cancels: the subscription stays usable until its next renewal date, then lapses. */
export async function cancelSubscription(deps: AppDeps, caller: SessionUser, from: AuditFrom) {
  requireBillingAdmin(deps, caller)
  const row = await current(deps, caller)
  const state = subscriptionState(row)
  if (state.kind !== 'active') fail('SUBSCRIPTION_ALREADY_CANCELLED')
  return change(deps, caller, from, 'cancelled', (tx) =>
    tx
      .update(subscriptions)
      .set({ cancelledAt: new Date(), nextRenewalAt: state.kind === 'active' ? state.renewsAt : row.nextRenewalAt, updatedAt: new Date() })
      .where(eq(subscriptions.organizationId, caller.organizationId)),
  )
}

/** Takes a cancellation back before the subscription ends. */
export async function uncancelSubscription(deps: AppDeps, caller: SessionUser, from: AuditFrom) {
  requireBillingAdmin(deps, caller)
  const row = await findSubscription(deps, caller.organizationId)
  if (!row) fail('SUBSCRIPTION_NOT_FOUND')
  const state = subscriptionState(row)
  if (state.kind === 'none') fail('SUBSCRIPTION_LAPSED')
  if (state.kind === 'active') fail('SUBSCRIPTION_NOT_CANCELLED')
  return change(deps, caller, from, 'uncancelled', (tx) =>
    tx.update(subscriptions).set({ cancelledAt: null, updatedAt: new Date() }).where(eq(subscriptions.organizationId, caller.organizationId)),
  )
}

/** Changes the number of seats, never below the seats in use; only while active. */
export async function updateSeats(deps: AppDeps, caller: SessionUser, seats: number, from: AuditFrom) {
  requireBillingAdmin(deps, caller)
  const row = await current(deps, caller)
  if (subscriptionState(row).kind !== 'active') fail('SUBSCRIPTION_NOT_ACTIVE')
  if (seats < (await usedSeats(deps, caller.organizationId))) fail('TOO_MANY_USED_SEATS')
  return change(deps, caller, from, 'seats_updated', (tx) =>
    tx.update(subscriptions).set({ seats, updatedAt: new Date() }).where(eq(subscriptions.organizationId, caller.organizationId)),
  )
}

export async function updateBillingInfo(deps: AppDeps, caller: SessionUser, billing: z.infer<typeof billingInfoBody>, from: AuditFrom) {
  requireBillingAdmin(deps, caller)
  const row = await current(deps, caller)
  if (subscriptionState(row).kind !== 'active') fail('SUBSCRIPTION_NOT_ACTIVE')
  return change(deps, caller, from, 'billing_info_updated', (tx) =>
    tx.update(subscriptions).set({ ...billing, updatedAt: new Date() }).where(eq(subscriptions.organizationId, caller.organizationId)),
  )
}

/** The organisation's billing webhook deliveries, newest first: what was sent and whether it arrived. */
export async function webhookLog(deps: AppDeps, caller: SessionUser) {
  requireBillingAdmin(deps, caller)
  const rows = await deps.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.organizationId, caller.organizationId))
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(100)
  return rows.map((r) => ({
    id: r.id,
    event: r.event,
    status: r.status,
    attempts: r.attempts,
    lastStatus: r.lastStatus,
    lastError: r.lastError,
    createdAt: r.createdAt.toISOString(),
    deliveredAt: r.deliveredAt?.toISOString() ?? null,
    nextAttemptAt: r.nextAttemptAt.toISOString(),
  }))
}
