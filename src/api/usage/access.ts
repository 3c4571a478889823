import { sql } from 'drizzle-orm'
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
 * with the other writes of the same turn (the replies that end with it).
 */
export async function recordUsage(deps: AppDeps, u: UsageRecord) {
  const at = u.at ?? new Date()
  const estimatedCalls = u.estimated ? 1 : 0
  await commitTogether(deps, [
    deps.db.insert(usageEvents).values({
      id: crypto.randomUUID(),
      organizationId: u.organizationId,
      userId: u.userId,
      threadId: u.threadId,
      modelRef: u.modelRef,
      kind: u.kind,
      inputTokens: u.inputTokens,
      outputTokens: u.outputTokens,
      estimated: u.estimated,
      cost: u.cost,
      createdAt: at,
    }),
    deps.db
      .insert(usageDaily)
      .values({
        organizationId: u.organizationId,
        day: usageDay(at),
        userId: u.userId,
        modelRef: u.modelRef,
        calls: 1,
        estimatedCalls,
        inputTokens: u.inputTokens,
        outputTokens: u.outputTokens,
        cost: u.cost,
      })
      .onConflictDoUpdate({
        target: [usageDaily.organizationId, usageDaily.day, usageDaily.userId, usageDaily.modelRef],
        set: {
          calls: sql`${usageDaily.calls} + 1`,
          estimatedCalls: sql`${usageDaily.estimatedCalls} + ${estimatedCalls}`,
          inputTokens: sql`${usageDaily.inputTokens} + ${u.inputTokens}`,
          outputTokens: sql`${usageDaily.outputTokens} + ${u.outputTokens}`,
          cost: sql`${usageDaily.cost} + ${u.cost}`,
        },
      }),
  ])
}

export { admitModelCall, budgetStates, type Admission, type BudgetState } from './budget-check'
