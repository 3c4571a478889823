import type { Database } from '../../db/client'
import type { Logger } from './logger'
import { hitRateLimit } from './rate-limit'

const HOUR_MS = 60 * 60 * 1000
const DAY_MS = 24 * HOUR_MS
const lastAsked = new Map<string, WeakMap<object, number>>()

/**
 * Runs `work` at most once a day across every server process: the background work asks every few
 * seconds, this process asks the database at most hourly, and a day-long window in the shared
 * rate-limit table (`key`) lets the first asker of the day through. A failure is logged, not thrown.
 */
export async function runDaily(deps: { db: Database; logger: Logger }, key: string, now: number, work: () => Promise<void>) {
  const asked = lastAsked.get(key) ?? new WeakMap<object, number>()
  lastAsked.set(key, asked)
  const last = asked.get(deps.db)
  if (last !== undefined && now - last < HOUR_MS && now >= last) return
  asked.set(deps.db, now)
  try {
    if (!(await hitRateLimit(deps.db, key, { limit: 1, windowMs: DAY_MS }, now)).allowed) return
    await work()
  } catch (error) {
    deps.logger.warn('daily run failed', { key, error })
  }
}
