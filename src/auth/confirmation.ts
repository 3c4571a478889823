import { CONFIRM_EMAIL_TTL_SECONDS } from './settings'
import type { AppDeps } from '../lib/context'
import { AppError } from '../lib/errors'
import { hitRateLimit } from '../lib/rate-limit'
import { renderMail } from '../mail/templates'

const CONFIRMATION_MAILS_PER_ADDRESS = { limit: 3, windowMs: 15 * 60_000 }

/** Sends the confirmation link (a signed, expiring token); at most 3 mails per address per 15 minutes. */
export async function sendConfirmationMail(
  deps: AppDeps,
  user: { id: string; email: string; name: string; locale: 'en' | 'de' },
) {
  const hit = await hitRateLimit(deps.db, `confirm-mail:${user.email}`, CONFIRMATION_MAILS_PER_ADDRESS)
  if (!hit.allowed) throw new AppError('TOO_MANY_CONFIRMATION_EMAILS', { retryAfter: hit.retryAfterSeconds })
  // better-auth's API module loads with the first mail, not at start (decision 0078).
  const { createEmailVerificationToken } = await import('better-auth/api')
  const token = await createEmailVerificationToken(deps.config.secret, user.email, undefined, CONFIRM_EMAIL_TTL_SECONDS, {
    userId: user.id,
  })
  const url = `${deps.config.baseUrl}/confirm-email?token=${encodeURIComponent(token)}`
  try {
    await deps.mailer.send(renderMail('confirmEmail', user.locale, { to: user.email, name: user.name, url }))
  } catch {
    throw new AppError('EMAIL_CONFIRMATION_FAILED')
  }
}
