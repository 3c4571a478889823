import type { Database } from '../../../db/client'
import { addressBlock } from '../../lib/address-block'
import { clearRateLimit, hitRateLimit, peekRateLimit, type RateLimitRule } from '../../lib/rate-limit'

/**
 * Failed sign-ins are counted, never successful ones, so a user who knows the password is not
 * held back by an attacker guessing elsewhere (docs/decisions/0037-sign-in-limits.md).
 */
export const SIGN_IN_LIMITS = {
  /** From one address, whatever the account: one client trying many accounts. */
  address: { limit: 30, windowMs: 15 * 60_000 },
  /** One account from one address: guessing, while the owner elsewhere still signs in. */
  accountAddress: { limit: 5, windowMs: 15 * 60_000 },
  /** One account from everywhere: guessing spread over many addresses. It locks the owner out too, so it is looser and longer. */
  account: { limit: 30, windowMs: 60 * 60_000 },
} satisfies Record<string, RateLimitRule>

export type SignInLimit = keyof typeof SIGN_IN_LIMITS
const LIMITS = Object.keys(SIGN_IN_LIMITS) as SignInLimit[]

type Attempt = { email: string; ip: string }

function keysOf({ email, ip }: Attempt): Record<SignInLimit, string> {
  const block = addressBlock(ip)
  return {
    address: `sign-in-failures:address:${block}`,
    accountAddress: `sign-in-failures:account-address:${email}|${block}`,
    account: `sign-in-failures:account:${email}`,
  }
}

/** The limit that holds an attempt back, looked at before the password is checked; null when it may go ahead. */
export async function signInHeldBack(db: Database, attempt: Attempt): Promise<{ limit: SignInLimit; retryAfterSeconds: number } | null> {
  const keys = keysOf(attempt)
  const results = await Promise.all(LIMITS.map((limit) => peekRateLimit(db, keys[limit], SIGN_IN_LIMITS[limit])))
  let held: { limit: SignInLimit; retryAfterSeconds: number } | null = null
  for (const [i, result] of results.entries()) {
    // When several hold it back, the caller is told the longest wait.
    if (!result.allowed && result.retryAfterSeconds > (held?.retryAfterSeconds ?? 0)) held = { limit: LIMITS[i]!, retryAfterSeconds: result.retryAfterSeconds }
  }
  return held
}

/** Counts a wrong password (or unknown address) against every limit. */
export async function countSignInFailure(db: Database, attempt: Attempt) {
  const keys = keysOf(attempt)
  await Promise.all(LIMITS.map((limit) => hitRateLimit(db, keys[limit], SIGN_IN_LIMITS[limit])))
}

/**
 * After a successful sign-in the owner's own typos from this address are forgotten. The address
 * count stays (one's own account must not reset the guesses at others), and so does the
 * account's count from everywhere (signing in must not reset a spread-out attack).
 */
export async function clearOwnSignInFailures(db: Database, attempt: Attempt) {
  await clearRateLimit(db, keysOf(attempt).accountAddress)
}
