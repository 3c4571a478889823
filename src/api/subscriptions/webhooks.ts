import { and, asc, eq, isNull, lt, lte, or } from 'drizzle-orm'
import { webhookDeliveries } from '../../../db/schema'
import type { Database } from '../../../db/client'
import type { AppDeps } from '../../lib/context'
import type { Config } from '../../lib/config'
import { outboundFetch, serverPolicy } from '../../lib/outbound'

export type BillingEvent = 'created' | 'cancelled' | 'uncancelled' | 'seats_updated' | 'billing_info_updated'

type Tx = Pick<Database, 'insert'>

/** Longest wait between two attempts; a receiver that is down for days still gets every event. */
const MAX_BACKOFF_MS = 60 * 60_000
const DELIVERY_TIMEOUT_MS = 5000
const LOCK_MS = 30_000

/** Records an event in the outbox, in the transaction of the change it reports. */
export async function enqueueWebhook(tx: Tx, config: Config, organizationId: string, event: BillingEvent, data: unknown) {
  if (!config.billing.webhook) return
  const now = new Date()
  const id = crypto.randomUUID()
  const payload = JSON.stringify({ id, event, organizationId, occurredAt: now.toISOString(), data })
  await tx.insert(webhookDeliveries).values({ id, organizationId, event, payload, status: 'pending', nextAttemptAt: now, createdAt: now })
}

/** `sha256=<hex>` of HMAC-SHA256 over `<timestamp>.<body>`: the receiver checks both, so a replay is visible. */
export async function signWebhook(secret: string, timestamp: number, body: string) {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${timestamp}.${body}`))
  return `sha256=${[...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, '0')).join('')}`
}

export const backoffMs = (attempts: number) => Math.min(MAX_BACKOFF_MS, 2 ** Math.max(0, attempts - 1) * 10_000)

/**
 * Sends every due event. Each row is claimed with a conditional update first, so several server
 * processes running this at once never send the same event twice at the same time.
 */
export async function deliverDueWebhooks(
  deps: Pick<AppDeps, 'db' | 'config' | 'logger'>,
  { now = new Date(), timeoutMs = DELIVERY_TIMEOUT_MS }: { now?: Date; timeoutMs?: number } = {},
) {
  const webhook = deps.config.billing.webhook
  if (!webhook) return 0
  const due = await deps.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, now)))
    .orderBy(asc(webhookDeliveries.createdAt))
    .limit(50)
  let delivered = 0
  for (const row of due) {
    // Locks use the real clock, whatever `now` says about which rows are due.
    const clock = new Date()
    const claimed = await deps.db
      .update(webhookDeliveries)
      .set({ lockedUntil: new Date(clock.getTime() + LOCK_MS) })
      .where(and(eq(webhookDeliveries.id, row.id), eq(webhookDeliveries.status, 'pending'), or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, clock))))
      .returning({ id: webhookDeliveries.id })
    if (!claimed.length) continue
    const attempts = row.attempts + 1
    const timestamp = Math.floor(Date.now() / 1000)
    let status: number | null = null
    let error: string | null = null
    try {
      // The operator's own address: allowed by its host, still without following redirects.
      const res = await outboundFetch(serverPolicy(deps, webhook.url), { maxBytes: 64 * 1024 })(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-kontor-event': row.event,
          'x-kontor-delivery': row.id,
          'x-kontor-timestamp': String(timestamp),
          'x-kontor-signature': await signWebhook(webhook.secret, timestamp, row.payload),
        },
        body: row.payload,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      })
      status = res.status
      await res.body?.cancel()
      if (!res.ok) error = `HTTP ${res.status}`
    } catch (e) {
      error = e instanceof Error ? e.message : String(e)
    }
    if (!error) {
      delivered++
      await deps.db
        .update(webhookDeliveries)
        .set({ status: 'delivered', attempts, lastStatus: status, lastError: null, deliveredAt: new Date(), lockedUntil: null })
        .where(eq(webhookDeliveries.id, row.id))
    } else {
      deps.logger.warn('billing webhook delivery failed', { deliveryId: row.id, event: row.event, attempts, error })
      await deps.db
        .update(webhookDeliveries)
        .set({ attempts, lastStatus: status, lastError: error, nextAttemptAt: new Date(Date.now() + backoffMs(attempts)), lockedUntil: null })
        .where(eq(webhookDeliveries.id, row.id))
    }
  }
  return delivered
}
