import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm'
import { preparedFor } from '../../../db/client'
import { budgetAlerts, budgetReservations, budgets, groups, users } from '../../../db/schema'
import type { AppDeps } from '../../lib/context'
import { AppError } from '../../lib/errors'
import { renderBudgetAlert } from '../../mail/templates'

/** A reservation older than this (a process that died mid-reply) no longer counts. */
const RESERVATION_TTL_MS = 60 * 60 * 1000
/** The share of a budget at which the member sees a notice and the admins get an e-mail (organisation). */
export const BUDGET_NOTICE_RATIO = 0.8

type Member = { id: string; organizationId: string }

/** The UTC calendar month of a time: its first day, the next month's first day, YYYY-MM. */
export function monthOf(at: Date) {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1))
  const next = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1))
  return { from: start.toISOString().slice(0, 10), next: next.toISOString().slice(0, 10), key: start.toISOString().slice(0, 7) }
}

/** The budgets that apply to a member: the organisation's, their groups' (as they are now) and their own. */
const appliesTo = (m: { id: string | Placeholder; organizationId: string | Placeholder }) => sql`${budgets.organizationId} = ${m.organizationId} AND (
  ${budgets.scope} = 'organization'
  OR (${budgets.scope} = 'user' AND ${budgets.targetId} = ${m.id})
  OR (${budgets.scope} = 'group' AND ${budgets.targetId} IN (SELECT group_id FROM group_members WHERE user_id = ${m.id})))`

/** Whose usage a budget counts, for a table with `user_id` aliased as `t`. */
const countedBy = (t: string) =>
  sql.raw(`(budgets.scope = 'organization' OR (budgets.scope = 'user' AND ${t}.user_id = budgets.target_id)
    OR (budgets.scope = 'group' AND ${t}.user_id IN (SELECT user_id FROM group_members WHERE group_id = budgets.target_id)))`)

/** A budget's spend this month (from the daily roll-ups) and what running calls have reserved. */
export const spentOf = (month: { from: string | Placeholder; next: string | Placeholder }) => sql<number>`(SELECT coalesce(sum(CASE WHEN budgets.metric = 'cost' THEN d.cost ELSE d.input_tokens + d.output_tokens END), 0)
  FROM usage_daily d WHERE d.organization_id = budgets.organization_id AND d.day >= ${month.from} AND d.day < ${month.next} AND ${countedBy('d')})`
const reservedSince = (since: number | Placeholder) => sql<number>`(SELECT coalesce(sum(CASE WHEN budgets.metric = 'cost' THEN r.cost ELSE r.tokens END), 0)
  FROM budget_reservations r WHERE r.organization_id = budgets.organization_id AND r.created_at > ${since} AND ${countedBy('r')})`
const reservedOf = (now: number) => reservedSince(now - RESERVATION_TTL_MS)

export type BudgetState = {
  id: string
  scope: 'organization' | 'group' | 'user'
  targetId: string
  /** The group's name; null for the organisation and a member. */
  label: string | null
  metric: 'cost' | 'tokens'
  limit: number
  spent: number
  reserved: number
}

/** The budgets that apply to a member with this month's spend, tightest (highest share used) first. */
export async function budgetStates(deps: Pick<AppDeps, 'db'>, member: Member, now = new Date()): Promise<BudgetState[]> {
  const month = monthOf(now)
  const rows = await budgetRows(deps.db).all({
    organizationId: member.organizationId,
    userId: member.id,
    monthFrom: month.from,
    monthNext: month.next,
    reservedSince: now.getTime() - RESERVATION_TTL_MS,
  })
  return rows.sort((a, b) => ratio(b) - ratio(a))
}

/** Read before every model call: prepared once. */
const budgetRows = preparedFor((db) =>
  db
    .select({
      id: budgets.id,
      scope: budgets.scope,
      targetId: budgets.targetId,
      label: groups.name,
      metric: budgets.metric,
      limit: budgets.monthlyLimit,
      spent: spentOf({ from: sql.placeholder('monthFrom'), next: sql.placeholder('monthNext') }).mapWith(Number),
      reserved: reservedSince(sql.placeholder('reservedSince')).mapWith(Number),
    })
    .from(budgets)
    .leftJoin(groups, and(eq(budgets.scope, 'group'), eq(groups.id, budgets.targetId)))
    .where(appliesTo({ id: sql.placeholder('userId'), organizationId: sql.placeholder('organizationId') }))
    .prepare(),
)

const ratio = (b: Pick<BudgetState, 'spent' | 'limit'>) => (b.limit > 0 ? b.spent / b.limit : Number.POSITIVE_INFINITY)

/**
 * Whether any budget applies to a member now (their spend aside): a chat's reply context keeps it
 * while nothing it was read from changed (src/api/chat/reply-context.ts), so that a reply where
 * none applies runs no statement for budgets.
 */
export async function budgetsApply(deps: Pick<AppDeps, 'db'>, member: Member) {
  return (await anyBudget(deps.db).all({ organizationId: member.organizationId, userId: member.id })).length > 0
}

const anyBudget = preparedFor((db) =>
  db
    .select({ id: budgets.id })
    .from(budgets)
    .where(appliesTo({ id: sql.placeholder('userId'), organizationId: sql.placeholder('organizationId') }))
    .limit(1)
    .prepare(),
)

export type Admission = {
  /** Ends the call's reservation; call when the reply or API call has ended (recorded its usage). */
  release: () => Promise<void>
  /** The tightest budget once 80% of it is spent: the member is told. */
  notice: BudgetState | null
}

/** The admission of a call no budget applies to: nothing reserved, nothing to tell. */
export const NOTHING_RESERVED: Admission = Object.freeze({ release: async () => {}, notice: null })

/**
 * Lets a model call through the member's budgets, or refuses it with BUDGET_EXCEEDED. The
 * database decides, in one statement: the call's reservation is inserted only while every
 * budget that applies has room (this month's spend plus what running calls reserved below the
 * limit), so concurrent sends at the edge do not all pass, whichever process they reach. The
 * reservation is an average call of the organisation this month.
 */
export async function admitModelCall(deps: Pick<AppDeps, 'db' | 'logger' | 'mailer' | 'config'>, member: Member, now = new Date()): Promise<Admission> {
  const states = await budgetStates(deps, member, now)
  if (!states.length) return NOTHING_RESERVED
  const month = monthOf(now)
  const id = crypto.randomUUID()
  const average = sql`(SELECT coalesce(sum(cost) / nullif(sum(calls), 0), 0) AS cost, coalesce((sum(input_tokens) + sum(output_tokens)) / nullif(sum(calls), 0), 0) AS tokens
    FROM usage_daily WHERE organization_id = ${member.organizationId} AND day >= ${month.from} AND day < ${month.next})`
  const full: SQL = sql`EXISTS (SELECT 1 FROM budgets WHERE ${appliesTo(member)} AND ${spentOf(month)} + ${reservedOf(now.getTime())} >= budgets.monthly_limit)`
  const inserted = await deps.db.run(sql`INSERT INTO budget_reservations (id, organization_id, user_id, cost, tokens, created_at)
    SELECT ${id}, ${member.organizationId}, ${member.id}, a.cost, a.tokens, ${now.getTime()} FROM ${average} a WHERE NOT ${full}`)
  const organization = states.find((s) => s.scope === 'organization')
  if (organization) await alertAdmins(deps, member.organizationId, organization, month.key)
  if (inserted.rowsAffected === 0) {
    const fresh = await budgetStates(deps, member, now)
    const over = fresh.find((s) => s.spent + s.reserved >= s.limit) ?? fresh[0]!
    throw budgetExceeded(over, month.next)
  }
  const tightest = states[0]!
  return {
    release: () => deps.db.delete(budgetReservations).where(eq(budgetReservations.id, id)).then(() => undefined, (error) => deps.logger.error('could not end a budget reservation', { error })),
    notice: ratio(tightest) >= BUDGET_NOTICE_RATIO ? tightest : null,
  }
}

/** How a limit reads: US dollars with cents, or tokens. */
export const limitText = (b: Pick<BudgetState, 'metric' | 'limit'>) =>
  b.metric === 'cost' ? `$${b.limit.toFixed(2)}` : `${new Intl.NumberFormat('en').format(b.limit)} tokens`

function budgetExceeded(b: BudgetState, resetsOn: string) {
  const whose = b.scope === 'organization' ? "Your organisation's monthly budget" : b.scope === 'group' ? `The monthly budget of the group “${b.label ?? ''}”` : 'Your monthly budget'
  return new AppError('BUDGET_EXCEEDED', {
    message: `${whose} (${limitText(b)}) is used up. It resets on ${resetsOn} (UTC).`,
    details: { scope: b.scope, group: b.label ?? '', metric: b.metric, limit: b.limit, limitText: limitText(b), resetsOn },
  })
}

/**
 * The admins' e-mails at 80% and 100% of the organisation's budget: each once a month, the
 * alert's row inserted first (whoever inserts it sends; a conflict means it went already).
 */
async function alertAdmins(deps: Pick<AppDeps, 'db' | 'logger' | 'mailer' | 'config'>, organizationId: string, b: BudgetState, month: string) {
  const share = ratio(b)
  const threshold = share >= 1 ? 100 : share >= BUDGET_NOTICE_RATIO ? 80 : null
  if (!threshold) return
  const taken = await deps.db.insert(budgetAlerts).values({ organizationId, month, threshold, sentAt: new Date() }).onConflictDoNothing().returning()
  if (!taken.length) return
  const admins = await deps.db.select({ email: users.email, name: users.name, locale: users.locale }).from(users).where(and(eq(users.organizationId, organizationId), eq(users.role, 'admin')))
  const url = `${deps.config.baseUrl}/admin-settings/usage`
  for (const admin of admins) {
    const mail = renderBudgetAlert(admin.locale === 'en' ? 'en' : 'de', { to: admin.email, name: admin.name, url, threshold, limit: limitText(b), month })
    await deps.mailer.send(mail).catch((error) => deps.logger.error('could not send a budget e-mail', { error }))
  }
}
