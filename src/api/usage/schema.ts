import { z } from 'zod'

/** The longest range one usage request covers: a year, leap day included. */
export const MAX_USAGE_DAYS = 366

const day = z.iso.date('Must be a date (YYYY-MM-DD)')
const DAY_MS = 86_400_000

function checkRange(q: { from: string; to: string }, ctx: z.RefinementCtx) {
  const span = (Date.parse(q.to) - Date.parse(q.from)) / DAY_MS + 1
  if (span < 1) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before the start' })
  else if (span > MAX_USAGE_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: `At most ${MAX_USAGE_DAYS} days` })
}

export const usageQuery = z
  .object({
    from: day,
    to: day,
    by: z.enum(['day', 'user', 'group', 'model'], 'Must be day, user, group or model').default('day'),
  })
  .superRefine(checkRange)

/** A member's own usage: by day or by model. */
export const ownUsageQuery = z
  .object({
    from: day,
    to: day,
    by: z.enum(['day', 'model'], 'Must be day or model').default('day'),
  })
  .superRefine(checkRange)

const totals = {
  calls: z.number(),
  /** Calls whose tokens were estimated because the provider sent no usage. */
  estimatedCalls: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  /** US dollars. */
  cost: z.number(),
}

export const usageRow = z.object({
  /** The day (YYYY-MM-DD), member id, group id or `provider/model`; null: members in no group (by group). */
  key: z.string().nullable(),
  /** The member's or group's name; null for a member who was removed, or with day and model. */
  label: z.string().nullable(),
  ...totals,
})

export const usageResponse = z.object({
  from: z.string(),
  to: z.string(),
  by: z.enum(['day', 'user', 'group', 'model']),
  rows: z.array(usageRow),
  /** Over the range; a member in several groups counts once here and in each of their groups. */
  total: z.object(totals),
})

export type UsageReport = z.infer<typeof usageResponse>

/** The largest monthly limits accepted: a billion US dollars, a thousand billion tokens. */
export const MAX_BUDGET = { cost: 1e9, tokens: 1e12 } as const

export const budgetBody = z
  .object({
    scope: z.enum(['organization', 'group', 'user'], 'Must be organization, group or user'),
    /** The group's or member's id; not for the organisation. */
    targetId: z.string().min(1).max(100).optional(),
    metric: z.enum(['cost', 'tokens'], 'Must be cost or tokens'),
    /** US dollars or tokens per UTC calendar month. */
    limit: z.number('Must be a number').positive('Must be more than 0'),
  })
  .superRefine((b, ctx) => {
    if (b.limit > MAX_BUDGET[b.metric]) ctx.addIssue({ code: 'custom', path: ['limit'], message: `At most ${MAX_BUDGET[b.metric]}` })
    if (b.metric === 'tokens' && !Number.isInteger(b.limit)) ctx.addIssue({ code: 'custom', path: ['limit'], message: 'Must be a whole number of tokens' })
    if (b.scope !== 'organization' && !b.targetId) ctx.addIssue({ code: 'custom', path: ['targetId'], message: 'Choose a group or member' })
  })

export const budgetIdParams = z.object({ id: z.string() })

export const budgetResponse = z.object({
  id: z.string(),
  scope: z.enum(['organization', 'group', 'user']),
  targetId: z.string(),
  /** The group's or member's name; null for the organisation. */
  label: z.string().nullable(),
  metric: z.enum(['cost', 'tokens']),
  limit: z.number(),
  /** This UTC month's spend in the budget's metric. */
  spent: z.number(),
  /** The first day of the next month (YYYY-MM-DD, UTC), when the budget starts again. */
  resetsOn: z.string(),
})

export type BudgetView = z.infer<typeof budgetResponse>
