import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { organizations } from './organizations'

/**
 * A cloud organisation's subscription: seats, billed yearly by invoice. Cancelling sets
 * `cancelledAt`; it stays usable until `nextRenewalAt`, then lapses. One per organisation.
 */
export const subscriptions = sqliteTable('subscriptions', {
  organizationId: text('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  seats: integer('seats').notNull(),
  startedAt: integer('started_at', { mode: 'timestamp_ms' }).notNull(),
  /** The next anniversary of `startedAt`; moved on by a year at each renewal. */
  nextRenewalAt: integer('next_renewal_at', { mode: 'timestamp_ms' }).notNull(),
  cancelledAt: integer('cancelled_at', { mode: 'timestamp_ms' }),
  companyName: text('company_name').notNull(),
  subText: text('sub_text'),
  street: text('street').notNull(),
  houseNumber: text('house_number').notNull(),
  postalCode: text('postal_code').notNull(),
  city: text('city').notNull(),
  country: text('country').notNull(),
  vatNumber: text('vat_number'),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
})

/** Chat messages a cloud organisation has sent without a subscription (its trial). */
export const trialUsage = sqliteTable('trial_usage', {
  organizationId: text('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  messages: integer('messages').notNull(),
})

/** Billing webhooks: written with the change they report, delivered and retried until they arrive. */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id').notNull(),
    event: text('event').notNull(),
    payload: text('payload').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at', { mode: 'timestamp_ms' }).notNull(),
    /** A process delivering this row holds it until then, so two processes never send it twice at once. */
    lockedUntil: integer('locked_until', { mode: 'timestamp_ms' }),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    deliveredAt: integer('delivered_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt), index('webhook_deliveries_org_idx').on(t.organizationId, t.createdAt)],
)
