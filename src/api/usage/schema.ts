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
