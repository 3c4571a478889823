import { sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { rateLimits } from '../../db/schema'

export type RateLimitRule = { limit: number; windowMs: number }
export type RateLimitResult = { allowed: boolean; retryAfterSeconds: number }

/**
 * Counts a hit in a fixed window stored in the database, so that the limit holds across every
 * server process. One upsert statement: concurrent hits cannot both see the old count.
 */
export async function hitRateLimit(db: Database, key: string, rule: RateLimitRule, now = Date.now()): Promise<RateLimitResult> {
  const resetAt = now + rule.windowMs
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, resetAt })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${rateLimits.resetAt} <= ${now} THEN 1 ELSE ${rateLimits.count} + 1 END`,
        resetAt: sql`CASE WHEN ${rateLimits.resetAt} <= ${now} THEN ${resetAt} ELSE ${rateLimits.resetAt} END`,
      },
    })
    .returning()
  return { allowed: row!.count <= rule.limit, retryAfterSeconds: Math.max(1, Math.ceil((row!.resetAt - now) / 1000)) }
}

/** Looks at a window without counting a hit. */
export async function peekRateLimit(db: Database, key: string, rule: RateLimitRule, now = Date.now()): Promise<RateLimitResult> {
  const row = await db.query.rateLimits.findFirst({ where: (t, { eq }) => eq(t.key, key) })
  if (!row || row.resetAt <= now) return { allowed: true, retryAfterSeconds: 0 }
  return { allowed: row.count < rule.limit, retryAfterSeconds: Math.max(1, Math.ceil((row.resetAt - now) / 1000)) }
}

export async function clearRateLimit(db: Database, key: string) {
  await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`)
}
