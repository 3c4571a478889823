import { and, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm'
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core'
import { auditEntries } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { csvDocument } from '../../lib/csv'
import { requireAdmin } from '../../lib/guards'
import { runDaily } from '../../lib/daily-run'
import type { AuditEntryView, AuditListQuery } from './schema'

const DAY_MS = 24 * 60 * 60 * 1000
/** The most rows one CSV export carries; narrower filters get the rest. */
export const CSV_MAX_ROWS = 100_000

type Filters = Omit<AuditListQuery, 'cursor' | 'limit'>

const contains = (text: string) => `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`
const likeEscaped = (column: AnySQLiteColumn, text: string) => sql`${column} LIKE ${contains(text)} ESCAPE '\\'`

function whereOf(caller: SessionUser, q: Filters, cursor?: { at: number; id: string }) {
  const conditions: (SQL | undefined)[] = [eq(auditEntries.organizationId, caller.organizationId)]
  if (q.action) conditions.push(eq(auditEntries.action, q.action))
  if (q.actor) conditions.push(or(likeEscaped(auditEntries.actorName, q.actor), likeEscaped(auditEntries.actorEmail, q.actor), eq(auditEntries.actorId, q.actor)))
  if (q.target) conditions.push(or(likeEscaped(auditEntries.targetLabel, q.target), eq(auditEntries.targetId, q.target)))
  if (q.from) conditions.push(gte(auditEntries.createdAt, new Date(`${q.from}T00:00:00Z`)))
  if (q.to) conditions.push(lt(auditEntries.createdAt, new Date(Date.parse(`${q.to}T00:00:00Z`) + DAY_MS)))
  if (cursor) {
    const at = new Date(cursor.at)
    conditions.push(or(lt(auditEntries.createdAt, at), and(eq(auditEntries.createdAt, at), lt(auditEntries.id, cursor.id))))
  }
  return and(...conditions)
}

function toView(row: typeof auditEntries.$inferSelect): AuditEntryView {
  let details: Record<string, unknown> = {}
  try {
    details = JSON.parse(row.details)
  } catch {}
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    actor: { id: row.actorId, name: row.actorName, email: row.actorEmail },
    action: row.action,
    target: { type: row.targetType, id: row.targetId, label: row.targetLabel },
    details,
    address: row.address,
    requestId: row.requestId,
  }
}

/** One page of the organisation's audit log, newest first; `nextCursor` continues it. */
export async function listAuditEntries(deps: AppDeps, caller: SessionUser, q: AuditListQuery) {
  requireAdmin(caller)
  const [at, id] = q.cursor ? [Number(q.cursor.slice(0, q.cursor.indexOf('_'))), q.cursor.slice(q.cursor.indexOf('_') + 1)] : []
  const rows = await deps.db
    .select()
    .from(auditEntries)
    .where(whereOf(caller, q, q.cursor ? { at: at as number, id: id as string } : undefined))
    .orderBy(desc(auditEntries.createdAt), desc(auditEntries.id))
    .limit(q.limit + 1)
  const page = rows.slice(0, q.limit)
  const last = page.at(-1)
  return { entries: page.map(toView), nextCursor: rows.length > q.limit && last ? `${last.createdAt.getTime()}_${last.id}` : null }
}

const CSV_COLUMNS = ['time', 'action', 'actor_name', 'actor_email', 'actor_id', 'target_type', 'target_id', 'target_label', 'details', 'address', 'request_id']

/** The filtered log as CSV (newest first), at most CSV_MAX_ROWS rows. */
export async function auditCsv(deps: AppDeps, caller: SessionUser, q: Filters): Promise<string> {
  requireAdmin(caller)
  const rows = await deps.db
    .select()
    .from(auditEntries)
    .where(whereOf(caller, q))
    .orderBy(desc(auditEntries.createdAt), desc(auditEntries.id))
    .limit(CSV_MAX_ROWS)
  return csvDocument([
    CSV_COLUMNS,
    ...rows.map((r) => [r.createdAt.toISOString(), r.action, r.actorName, r.actorEmail, r.actorId, r.targetType, r.targetId, r.targetLabel, r.details, r.address, r.requestId]),
  ])
}

/** Deletes entries older than the retention (KONTOR_AUDIT_RETENTION_DAYS); the number deleted. */
export async function deleteExpiredAuditEntries(deps: Pick<AppDeps, 'db' | 'config'>, now = Date.now()): Promise<number> {
  const cutoff = new Date(now - deps.config.auditRetentionDays * DAY_MS)
  const result = await deps.db.delete(auditEntries).where(lt(auditEntries.createdAt, cutoff))
  return result.rowsAffected
}

/**
 * The daily cleanup, asked for by every run of the background work (the Bun server's timer, the
 * Workers cron trigger); one run a day goes through, whichever process asks first.
 */
export async function auditUpkeep(deps: Pick<AppDeps, 'db' | 'config' | 'logger'>, now = Date.now()) {
  await runDaily(deps, 'audit-log:cleanup', now, async () => {
    const deleted = await deleteExpiredAuditEntries(deps, now)
    if (deleted) deps.logger.info('old audit entries deleted', { deleted, retentionDays: deps.config.auditRetentionDays })
  })
}
