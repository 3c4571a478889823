import { and, asc, between, eq, sql, type SQL } from 'drizzle-orm'
import type { z } from 'zod'
import { groupMembers, groups, usageDaily, users } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { csvDocument } from '../../lib/csv'
import { requireAdmin } from '../../lib/guards'
import type { ownUsageQuery, UsageReport, usageQuery } from './schema'

type Totals = UsageReport['total']

const sums = {
  calls: sql<number>`sum(${usageDaily.calls})`.mapWith(Number),
  estimatedCalls: sql<number>`sum(${usageDaily.estimatedCalls})`.mapWith(Number),
  inputTokens: sql<number>`sum(${usageDaily.inputTokens})`.mapWith(Number),
  outputTokens: sql<number>`sum(${usageDaily.outputTokens})`.mapWith(Number),
  cost: sql<number>`sum(${usageDaily.cost})`.mapWith(Number),
}

const zero = (): Totals => ({ calls: 0, estimatedCalls: 0, inputTokens: 0, outputTokens: 0, cost: 0 })
function add(into: Totals, row: Totals) {
  into.calls += row.calls
  into.estimatedCalls += row.estimatedCalls
  into.inputTokens += row.inputTokens
  into.outputTokens += row.outputTokens
  into.cost += row.cost
  return into
}

/**
 * The organisation's usage over a range of UTC days, by day, member, group or model: one pass
 * over the daily roll-ups (one row per day, member and model), the total added up from the rows.
 * Groups are joined as they are now, after the usage is summed per member.
 */
export async function usageReport(deps: AppDeps, caller: SessionUser, q: z.infer<typeof usageQuery>): Promise<UsageReport> {
  requireAdmin(caller)
  const inRange = and(eq(usageDaily.organizationId, caller.organizationId), between(usageDaily.day, q.from, q.to))!
  if (q.by === 'day' || q.by === 'model') return byDayOrModel(deps, { ...q, by: q.by }, inRange)
  // Summed per member first, then named: one lookup per member, not one per roll-up row.
  const summed = deps.db
    .select({
      userId: usageDaily.userId,
      calls: sums.calls.as('calls'),
      estimatedCalls: sums.estimatedCalls.as('estimated_calls'),
      inputTokens: sums.inputTokens.as('input_tokens'),
      outputTokens: sums.outputTokens.as('output_tokens'),
      cost: sums.cost.as('cost'),
    })
    .from(usageDaily)
    .where(inRange)
    .groupBy(usageDaily.userId)
    .as('per_user')
  const perUser = await deps.db
    .select({
      key: summed.userId,
      label: users.name,
      calls: sql<number>`${summed.calls}`.mapWith(Number),
      estimatedCalls: sql<number>`${summed.estimatedCalls}`.mapWith(Number),
      inputTokens: sql<number>`${summed.inputTokens}`.mapWith(Number),
      outputTokens: sql<number>`${summed.outputTokens}`.mapWith(Number),
      cost: sql<number>`${summed.cost}`.mapWith(Number),
    })
    .from(summed)
    .leftJoin(users, and(eq(users.id, summed.userId), eq(users.organizationId, caller.organizationId)))
  if (q.by === 'user') return report(q, perUser.sort((a, b) => b.cost - a.cost || a.key.localeCompare(b.key)))

  // A member in several groups counts in each of them (and once in the total); one in none under null.
  const memberships = await deps.db
    .select({ groupId: groups.id, name: groups.name, userId: groupMembers.userId })
    .from(groups)
    .innerJoin(groupMembers, eq(groupMembers.groupId, groups.id))
    .where(eq(groups.organizationId, caller.organizationId))
    .orderBy(asc(groups.name), asc(groups.id))
  const byUser = new Map(perUser.map((u) => [u.key, u]))
  const byGroup = new Map<string | null, UsageReport['rows'][number]>()
  const grouped = new Set<string>()
  for (const m of memberships) {
    const row = byGroup.get(m.groupId) ?? byGroup.set(m.groupId, { key: m.groupId, label: m.name, ...zero() }).get(m.groupId)!
    const used = byUser.get(m.userId)
    if (!used) continue
    add(row, used)
    grouped.add(m.userId)
  }
  const none = perUser.filter((u) => !grouped.has(u.key)).reduce(add, zero())
  const rows = [...byGroup.values()].filter((r) => r.calls > 0)
  if (none.calls > 0) rows.push({ key: null, label: null, ...none })
  return { ...report(q, rows), total: perUser.reduce(add, zero()) }
}

/** The caller's own usage over a range of UTC days, by day or by model. */
export async function ownUsageReport(deps: AppDeps, caller: SessionUser, q: z.infer<typeof ownUsageQuery>): Promise<UsageReport> {
  const mine = and(eq(usageDaily.organizationId, caller.organizationId), eq(usageDaily.userId, caller.id), between(usageDaily.day, q.from, q.to))!
  return byDayOrModel(deps, q, mine)
}

async function byDayOrModel(deps: AppDeps, q: { from: string; to: string; by: 'day' | 'model' }, where: SQL) {
  const key = q.by === 'day' ? usageDaily.day : usageDaily.modelRef
  const found = await deps.db.select({ key, ...sums }).from(usageDaily).where(where).groupBy(key).orderBy(key)
  return report(q, found.map((r) => ({ ...r, label: null })))
}

const CSV_KEY = { day: 'day', user: 'user_id', group: 'group_id', model: 'model' } as const

/** The report as CSV: one line per row, then the total (a member in several groups counts once there). */
export async function usageCsv(deps: AppDeps, caller: SessionUser, q: z.infer<typeof usageQuery>): Promise<string> {
  const found = await usageReport(deps, caller, q)
  const line = (key: string | null, label: string | null, r: Totals) => [key, label, r.calls, r.estimatedCalls, r.inputTokens, r.outputTokens, r.cost]
  return csvDocument([
    [CSV_KEY[q.by], 'name', 'calls', 'estimated_calls', 'input_tokens', 'output_tokens', 'cost_usd'],
    ...found.rows.map((r) => line(r.key, r.label, r)),
    line('total', null, found.total),
  ])
}

function report(q: { from: string; to: string; by: UsageReport['by'] }, rows: UsageReport['rows']): UsageReport {
  return { from: q.from, to: q.to, by: q.by, rows, total: rows.reduce(add, zero()) }
}
