import { and, eq, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { budgets, groups, users } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { AppError, fail } from '../../lib/errors'
import { requireAdmin } from '../../lib/guards'
import { recordAudit, type AuditFrom } from '../audit/access'
import { budgetStates, monthOf, spentOf } from './budget-check'
import type { budgetBody, BudgetView } from './schema'

const labelOf = sql<string | null>`CASE ${budgets.scope} WHEN 'group' THEN (SELECT name FROM groups WHERE id = ${budgets.targetId})
  WHEN 'user' THEN (SELECT name FROM users WHERE id = ${budgets.targetId}) END`

/** The organisation's budgets with this month's spend: the organisation's first, then groups and members by name. */
export async function listBudgets(deps: AppDeps, caller: SessionUser, now = new Date()): Promise<BudgetView[]> {
  requireAdmin(caller)
  const month = monthOf(now)
  const rows = await deps.db
    .select({ id: budgets.id, scope: budgets.scope, targetId: budgets.targetId, label: labelOf, metric: budgets.metric, limit: budgets.monthlyLimit, spent: spentOf(month).mapWith(Number) })
    .from(budgets)
    .where(eq(budgets.organizationId, caller.organizationId))
  const order = { organization: 0, group: 1, user: 2 }
  return rows
    .map((r) => ({ ...r, resetsOn: month.next }))
    .sort((a, b) => order[a.scope] - order[b.scope] || (a.label ?? '').localeCompare(b.label ?? ''))
}

/** The budgets that apply to the caller (the organisation's, their groups', their own) with this month's spend, tightest first. */
export async function ownBudgets(deps: AppDeps, caller: SessionUser, now = new Date()): Promise<BudgetView[]> {
  const month = monthOf(now)
  const states = await budgetStates(deps, caller, now)
  return states.map((b) => ({ id: b.id, scope: b.scope, targetId: b.targetId, label: b.label, metric: b.metric, limit: b.limit, spent: b.spent, resetsOn: month.next }))
}

/** Sets the monthly limit of the organisation, a group or a member (one per target; a second replaces the first). */
export async function setBudget(deps: AppDeps, caller: SessionUser, body: z.infer<typeof budgetBody>, from: AuditFrom): Promise<BudgetView> {
  requireAdmin(caller)
  const targetId = body.scope === 'organization' ? caller.organizationId : body.targetId!
  const label = await targetLabel(deps, caller, body.scope, targetId)
  const previous = await deps.db.query.budgets.findFirst({ where: and(eq(budgets.organizationId, caller.organizationId), eq(budgets.scope, body.scope), eq(budgets.targetId, targetId)) })
  await deps.db
    .insert(budgets)
    .values({ id: crypto.randomUUID(), organizationId: caller.organizationId, scope: body.scope, targetId, metric: body.metric, monthlyLimit: body.limit, updatedAt: new Date() })
    .onConflictDoUpdate({ target: [budgets.organizationId, budgets.scope, budgets.targetId], set: { metric: body.metric, monthlyLimit: body.limit, updatedAt: new Date() } })
  await recordAudit(deps, caller, from, {
    action: 'budget.set',
    target: { type: body.scope, id: targetId, label },
    details: { metric: body.metric, ...(previous && { from: `${previous.monthlyLimit} ${previous.metric}` }), to: `${body.limit} ${body.metric}` },
  })
  return (await listBudgets(deps, caller)).find((b) => b.scope === body.scope && b.targetId === targetId)!
}

export async function removeBudget(deps: AppDeps, caller: SessionUser, id: string, from: AuditFrom) {
  requireAdmin(caller)
  const [removed] = await deps.db.delete(budgets).where(and(eq(budgets.id, id), eq(budgets.organizationId, caller.organizationId))).returning()
  if (!removed) fail('BUDGET_NOT_FOUND')
  const label = removed.scope === 'organization' ? null : await targetLabel(deps, caller, removed.scope, removed.targetId).catch(() => null)
  await recordAudit(deps, caller, from, {
    action: 'budget.removed',
    target: { type: removed.scope, id: removed.targetId, label },
    details: { from: `${removed.monthlyLimit} ${removed.metric}` },
  })
}

/** The group's or member's name; a target of another organisation (or none) is a validation error on `targetId`. */
async function targetLabel(deps: AppDeps, caller: SessionUser, scope: 'organization' | 'group' | 'user', targetId: string): Promise<string | null> {
  if (scope === 'organization') return null
  const found =
    scope === 'group'
      ? await deps.db.query.groups.findFirst({ where: and(eq(groups.id, targetId), eq(groups.organizationId, caller.organizationId)) })
      : await deps.db.query.users.findFirst({ where: and(eq(users.id, targetId), eq(users.organizationId, caller.organizationId)) })
  if (!found) throw new AppError('VALIDATION_FAILED', { fields: { targetId: scope === 'group' ? 'No such group in your organisation' : 'No such member in your organisation' } })
  return found.name
}
