import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { organizations } from './organizations'

/**
 * Who changed what in an organisation, appended by src/api/audit/record.ts and never changed:
 * the actor's name and e-mail are kept as they were, so an entry still reads right after the
 * member is renamed or removed. Entries older than KONTOR_AUDIT_RETENTION_DAYS are deleted daily.
 */
export const auditEntries = sqliteTable(
  'audit_entries',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Milliseconds; with the id it orders the log (newest first) and pages it. */
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    actorId: text('actor_id'),
    actorName: text('actor_name'),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    targetLabel: text('target_label'),
    /** JSON object with what else the action needs to be understood (old and new role, model ids). */
    details: text('details').notNull().default('{}'),
    address: text('address'),
    requestId: text('request_id'),
  },
  (t) => [index('audit_entries_org_time').on(t.organizationId, t.createdAt), index('audit_entries_time').on(t.createdAt)],
)
