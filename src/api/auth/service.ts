import { APIError } from 'better-auth/api'
import { eq } from 'drizzle-orm'
import { accounts, organizations, users } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { AppError, fail } from '../../lib/errors'
import { clearRateLimit, hitRateLimit, peekRateLimit } from '../../lib/rate-limit'
import { sendConfirmationMail } from '../../auth/confirmation'
import { getMe } from './access'
import { isFreeMailAddress } from './free-mail'
import type { MeResponse, registerBody, loginBody } from './schema'
import type { z } from 'zod'

const LOGIN_PER_IP = { limit: 30, windowMs: 15 * 60_000 }
const LOGIN_FAILURES_PER_ACCOUNT = { limit: 5, windowMs: 15 * 60_000 }

type RequestInfo = { headers: Headers; ip: string }

/** Creates an organisation and its first admin in one transaction; signs in when no confirmation is needed. */
export async function register(deps: AppDeps, input: z.infer<typeof registerBody>, req: RequestInfo) {
  const { db, config, auth, mailer } = deps
  if (config.registrationDisabled) fail('REGISTRATION_DISABLED')
  if (config.isCloud && isFreeMailAddress(input.email, config.freeMailExtra)) fail('EMAIL_PROVIDER_BLACKLISTED')

  const existing = await db.query.users.findFirst({ where: eq(users.email, input.email), columns: { id: true } })
  if (existing) fail('EMAIL_EXISTS')

  const ctx = await auth.$context
  const passwordHash = await ctx.password.hash(input.password)
  const organizationId = crypto.randomUUID()
  const userId = crypto.randomUUID()
  // Without SMTP nobody could ever confirm, so the address counts as confirmed (reference.md "Modes").
  const verified = !mailer.delivers
  try {
    await db.transaction(async (tx) => {
      await tx.insert(organizations).values({ id: organizationId, name: input.organizationName })
      await tx.insert(users).values({
        id: userId,
        name: input.name,
        email: input.email,
        emailVerified: verified,
        organizationId,
        role: 'admin',
        locale: input.locale ?? 'de',
      })
      await tx.insert(accounts).values({
        id: crypto.randomUUID(),
        accountId: userId,
        providerId: 'credential',
        userId,
        password: passwordHash,
      })
    })
  } catch (error) {
    // Two registrations racing for one address: the unique index decides.
    if (/UNIQUE.*users\.email/.test(String((error as { cause?: unknown }).cause ?? error))) fail('EMAIL_EXISTS')
    throw error
  }

  if (!verified) {
    await sendConfirmationMail(deps, { id: userId, email: input.email, name: input.name, locale: input.locale ?? 'de' })
  }
  const signIn = await auth.api.signInEmail({
    body: { email: input.email, password: input.password, rememberMe: true },
    headers: req.headers,
    returnHeaders: true,
  })
  const me = await getMe(deps, userId)
  return { body: { user: me, signedIn: true }, headers: signIn.headers }
}

/** Signs in with e-mail and password; limits attempts per IP and failed attempts per account. */
export async function login(deps: AppDeps, input: z.infer<typeof loginBody>, req: RequestInfo) {
  const { db, auth } = deps
  const accountKey = `login:account:${input.email}`
  const ipHit = await hitRateLimit(db, `login:ip:${req.ip}`, LOGIN_PER_IP)
  if (!ipHit.allowed) throw new AppError('TOO_MANY_LOGIN_ATTEMPTS', { retryAfter: ipHit.retryAfterSeconds })
  const account = await peekRateLimit(db, accountKey, LOGIN_FAILURES_PER_ACCOUNT)
  if (!account.allowed) throw new AppError('TOO_MANY_LOGIN_ATTEMPTS', { retryAfter: account.retryAfterSeconds })

  try {
    const result = await auth.api.signInEmail({
      body: { email: input.email, password: input.password, rememberMe: true },
      headers: req.headers,
      returnHeaders: true,
    })
    await clearRateLimit(db, accountKey)
    return { body: await getMe(deps, result.response.user.id), headers: result.headers }
  } catch (error) {
    if (error instanceof APIError && (error.statusCode === 401 || error.statusCode === 400)) {
      await hitRateLimit(db, accountKey, LOGIN_FAILURES_PER_ACCOUNT)
      fail('INVALID_CREDENTIALS')
    }
    throw error
  }
}

export async function me(deps: AppDeps, user: SessionUser): Promise<MeResponse> {
  if (!user.emailVerified) fail('EMAIL_NOT_VERIFIED')
  // The session read has it all in the common case (src/auth/session.ts); else one query.
  if (user.organizationName === undefined) return getMe(deps, user.id)
  const { id, name, email, emailVerified, role, locale, organizationId, organizationName } = user
  return { id, name, email, emailVerified, role, locale, organization: { id: organizationId, name: organizationName } }
}

export async function logout(deps: AppDeps, headers: Headers) {
  const result = await deps.auth.api.signOut({ headers, returnHeaders: true })
  return result.headers
}
