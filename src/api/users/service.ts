// better-auth's errors extend better-call's: checked without loading better-auth.
import { APIError } from 'better-call/error'
import { eq } from 'drizzle-orm'
import type { z } from 'zod'
import { users } from '../../../db/schema'
import type { AppDeps, SessionUser, Theme } from '../../lib/context'
import { fail } from '../../lib/errors'
import { hitRateLimit } from '../../lib/rate-limit'
import { getMe } from '../auth/access'
import { sendConfirmationMail } from '../../auth/confirmation'
import type { changePasswordBody, resetPasswordBody } from './schema'

const decodeTokenEmail = (token: string): string | undefined => {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')))
    return typeof payload.email === 'string' ? payload.email : undefined
  } catch {
    return undefined
  }
}

/** Confirms an address with the token from the mail. A token works once: a confirmed address refuses it. */
export async function confirmEmail(deps: AppDeps, token: string) {
  const email = decodeTokenEmail(token)
  if (!email) fail('INVALID_CONFIRMATION_LINK')
  const user = await deps.db.query.users.findFirst({ where: eq(users.email, email), columns: { emailVerified: true } })
  if (!user || user.emailVerified) fail('INVALID_CONFIRMATION_LINK')
  try {
    await deps.auth.api.verifyEmail({ query: { token } })
  } catch (error) {
    if (error instanceof APIError) fail('INVALID_CONFIRMATION_LINK')
    throw error
  }
  return { ok: true as const }
}

/** Sends a new confirmation mail. Answers the same whether or not the address is known. */
export async function resendConfirmation(deps: AppDeps, email: string) {
  const user = await deps.db.query.users.findFirst({ where: eq(users.email, email) })
  if (user && !user.emailVerified) await sendConfirmationMail(deps, user)
  return { ok: true as const }
}

const RESET_REQUESTS_PER_ADDRESS = { limit: 3, windowMs: 15 * 60_000 }

/**
 * Mails a single-use reset link. Answers the same whether or not the address is known, and
 * past 3 requests per address in 15 minutes it quietly sends nothing: nobody can flood a
 * mailbox, and the links already sent stay valid for an hour.
 */
export async function forgotPassword(deps: AppDeps, email: string) {
  const hit = await hitRateLimit(deps.db, `reset-mail:${email}`, RESET_REQUESTS_PER_ADDRESS)
  if (hit.allowed) await deps.auth.api.requestPasswordReset({ body: { email } })
  return { ok: true as const }
}

export async function resetPassword(deps: AppDeps, input: z.infer<typeof resetPasswordBody>) {
  try {
    await deps.auth.api.resetPassword({ body: { token: input.token, newPassword: input.password } })
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) fail('INVALID_TOKEN')
    fail('PASSWORD_RESET_FAILED')
  }
  return { ok: true as const }
}

export async function changeName(deps: AppDeps, user: SessionUser, name: string) {
  if (!name.trim()) fail('INVALID_NAME')
  await deps.db.update(users).set({ name, updatedAt: new Date() }).where(eq(users.id, user.id))
  return getMe(deps, user.id)
}

export async function changeLocale(deps: AppDeps, user: SessionUser, locale: 'en' | 'de') {
  await deps.db.update(users).set({ locale, updatedAt: new Date() }).where(eq(users.id, user.id))
  return getMe(deps, user.id)
}

export async function changeTheme(deps: AppDeps, user: SessionUser, theme: Theme) {
  await deps.db.update(users).set({ theme, updatedAt: new Date() }).where(eq(users.id, user.id))
  return getMe(deps, user.id)
}

/** Changes the password and signs out every other session of the user. */
export async function changePassword(deps: AppDeps, headers: Headers, input: z.infer<typeof changePasswordBody>) {
  try {
    const result = await deps.auth.api.changePassword({
      body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
      headers,
      returnHeaders: true,
    })
    return result.headers
  } catch (error) {
    if (error instanceof APIError && error.body?.code === 'INVALID_PASSWORD') fail('CURRENT_PASSWORD_INCORRECT')
    // The session can be revoked between our check and better-auth's (a reset or change elsewhere).
    if (error instanceof APIError && error.statusCode === 401) fail('UNAUTHORIZED')
    throw error
  }
}
