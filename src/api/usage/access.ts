import { sql } from 'drizzle-orm'
import { bound, preparedFor } from '../../../db/client'
import { usageDaily, usageEvents } from '../../../db/schema'
import { commitTogether } from '../../lib/commit-together'
import type { AppDeps } from '../../lib/context'

/** The usage lookups other domains need (models: recording each call). */

export type UsageRecord = {
  organizationId: string
  userId: string
  threadId: string | null
  modelRef: string
  kind: 'chat' | 'completion' | 'embedding'
  inputTokens: number
  outputTokens: number
  estimated: boolean
  /** US dollars. */
  cost: number
  at?: Date
}

/** The UTC day of a time, as the roll-ups key it. */
export const usageDay = (at: Date) => at.toISOString().slice(0, 10)

/**
 * Records one call: its row and its day's roll-up in one batch (both or neither), the roll-up
 * added to in the statement itself so that concurrent calls of the same day all count. Committed
 * with the other writes of the same turn (the replies that end with it). Its statements are
 * prepared once (`bound`): every reply's end records one.
 */
export async function recordUsage(deps: AppDeps, u: UsageRecord) {
  const at = u.at ?? new Date()
  const statements = usageStatements(deps.db)
  const values = { ...u, id: crypto.randomUUID(), at, day: usageDay(at), estimatedCalls: u.estimated ? 1 : 0 }
  await commitTogether(deps, [bound(statements.event, values), bound(statements.daily, values)])
}

const usageStatements = preparedFor((db) => {
  const p = sql.placeholder
  const [inputTokens, outputTokens, cost, estimatedCalls] = [p('inputTokens'), p('outputTokens'), p('cost'), p('estimatedCalls')]
  return {
    event: db
      .insert(usageEvents)
      .values({
        id: p('id'),
        organizationId: p('organizationId'),
        userId: p('userId'),
        // Null when the call is not for a chat: through `sql`, as `bound` asks of a value that may be null.
        threadId: sql`${p('threadId')}`,
        modelRef: p('modelRef'),
        kind: p('kind'),
        inputTokens,
        outputTokens,
        estimated: p('estimated'),
        cost,
        createdAt: p('at'),
      })
      .prepare(),
    daily: db
      .insert(usageDaily)
      .values({ organizationId: p('organizationId'), day: p('day'), userId: p('userId'), modelRef: p('modelRef'), calls: 1, estimatedCalls, inputTokens, outputTokens, cost })
      .onConflictDoUpdate({
        target: [usageDaily.organizationId, usageDaily.day, usageDaily.userId, usageDaily.modelRef],
        set: {
          calls: sql`${usageDaily.calls} + 1`,
          estimatedCalls: sql`${usageDaily.estimatedCalls} + ${estimatedCalls}`,
          inputTokens: sql`${usageDaily.inputTokens} + ${inputTokens}`,
          outputTokens: sql`${usageDaily.outputTokens} + ${outputTokens}`,
          cost: sql`${usageDaily.cost} + ${cost}`,
        },
      })
      .prepare(),
  }
})

export { admitModelCall, budgetStates, budgetsApply, NOTHING_RESERVED, type Admission, type BudgetState } from './budget-check'
