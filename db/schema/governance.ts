import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { users } from './auth'
import { permittedModels } from './models'
import { organizations } from './organizations'

/** A group (team) of an organisation's members; a member may be in several. */
export const groups = sqliteTable(
  'groups',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The identity provider's id for this group (SCIM `externalId`), when provisioned by SCIM. */
    scimExternalId: text('scim_external_id'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
  },
  (t) => [uniqueIndex('groups_name_unique').on(t.organizationId, t.name)],
)

/** Who is in a group. Both sides belong to the same organisation (checked when added). */
export const groupMembers = sqliteTable(
  'group_members',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_members_user_idx').on(t.userId)],
)

/**
 * The groups a restricted permitted model is open to (`permitted_models.restricted`). A model
 * whose groups are all deleted stays restricted: open to nobody rather than to everyone.
 */
export const modelGroupAccess = sqliteTable(
  'model_group_access',
  {
    modelId: text('model_id')
      .notNull()
      .references(() => permittedModels.id, { onDelete: 'cascade' }),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.groupId] }), index('model_group_access_group_idx').on(t.groupId)],
)

/**
 * One model call's usage (a reply turn, a title, an embedding request). `userId` and `threadId`
 * are kept without foreign keys: what was spent stays counted after a member or chat is gone.
 */
export const usageEvents = sqliteTable(
  'usage_events',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    threadId: text('thread_id'),
    /** `provider/model`, as the permitted model names it. */
    modelRef: text('model_ref').notNull(),
    kind: text('kind', { enum: ['chat', 'completion', 'embedding'] }).notNull(),
    inputTokens: integer('input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    /** The provider sent no usage: the tokens were estimated from the text. */
    estimated: integer('estimated', { mode: 'boolean' }).notNull(),
    /** US dollars, from the model's price when the call was made. */
    cost: real('cost').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('usage_events_organization_idx').on(t.organizationId, t.createdAt)],
)

/** Daily roll-up of `usage_events` per member and model (UTC days), written with each event. */
export const usageDaily = sqliteTable(
  'usage_daily',
  {
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** YYYY-MM-DD (UTC). */
    day: text('day').notNull(),
    userId: text('user_id').notNull(),
    modelRef: text('model_ref').notNull(),
    calls: integer('calls').notNull(),
    estimatedCalls: integer('estimated_calls').notNull(),
    inputTokens: integer('input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    cost: real('cost').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day, t.userId, t.modelRef] })],
)

/**
 * A monthly limit (UTC calendar month) in US dollars or tokens (input and output together) for
 * the whole organisation, a group or a member; every limit that applies to a member counts and
 * the tightest decides. `targetId` is the organisation's, the group's or the member's id.
 */
export const budgets = sqliteTable(
  'budgets',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    scope: text('scope', { enum: ['organization', 'group', 'user'] }).notNull(),
    targetId: text('target_id').notNull(),
    metric: text('metric', { enum: ['cost', 'tokens'] }).notNull(),
    monthlyLimit: real('monthly_limit').notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [uniqueIndex('budgets_target_idx').on(t.organizationId, t.scope, t.targetId)],
)

/**
 * A model call that was let through the budgets and has not been recorded yet (a running reply
 * or API call): what it may still spend counts against the budgets, so concurrent sends at the
 * edge of a budget do not all pass. Deleted when the call ends; older than an hour, ignored.
 */
export const budgetReservations = sqliteTable(
  'budget_reservations',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    cost: real('cost').notNull(),
    tokens: integer('tokens').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('budget_reservations_organization_idx').on(t.organizationId, t.createdAt)],
)

/** The organisation-budget e-mails sent to the admins: one row per month and threshold (80, 100), so each goes once. */
export const budgetAlerts = sqliteTable(
  'budget_alerts',
  {
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** YYYY-MM (UTC). */
    month: text('month').notNull(),
    threshold: integer('threshold').notNull(),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.month, t.threshold] })],
)
