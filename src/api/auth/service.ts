// better-auth's errors extend better-call's: checked without loading better-auth.
import { APIError } from 'better-call/error'
import { count, eq } from 'drizzle-orm'
import { accounts, organizations, passkeys, users } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { AppError, fail } from '../../lib/errors'
import type { Logger } from '../../lib/logger'
import { clearRateLimit, hitRateLimit } from '../../lib/rate-limit'
import { addressBlock } from '../../lib/address-block'
import { withClientAddress } from '../../auth/client-address'
import { pendingTwoFactorUserId } from '../../auth/session'
import { sendConfirmationMail } from '../../auth/confirmation'
import { recordAudit, type AuditAction, type AuditFrom } from '../audit/access'
import { passwordSignInRefused } from '../sso/access'
import { getMe, registrationClosed } from './access'
import { isFreeMailAddress } from '../../lib/free-mail'
import { clearOwnSignInFailures, countSignInFailure, signInHeldBack } from './sign-in-limits'
import type { MeResponse, registerBody, loginBody, signInCodeBody, TwoFactorChallenge } from './schema'
import type { z } from 'zod'

/** What a service needs of the request: its headers, the client's address, the request's logger (with its id). */
type RequestInfo = { headers: Headers; ip: string; logger: Logger; requestId: string }

/** Creates an organisation and its first admin in one transaction; signs in when no confirmation is needed. */
export async function register(deps: AppDeps, input: z.infer<typeof registerBody>, req: RequestInfo) {
  const { db, config, auth, mailer } = deps
  if (await registrationClosed(deps)) fail('REGISTRATION_DISABLED')
  if (config.isCloud && (await isFreeMailAddress(input.email, config.freeMailExtra))) fail('EMAIL_PROVIDER_BLACKLISTED')

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
      // First-only: of two first registrations at once, the one that commits second finds the other.
      if (config.registration === 'first-only' && (await tx.select({ n: count() }).from(organizations).get())!.n > 1) fail('REGISTRATION_DISABLED')
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
    headers: withClientAddress(req.headers, req.ip),
    returnHeaders: true,
  })
  const me = await getMe(deps, userId)
  return { body: { user: me, signedIn: true }, headers: signIn.headers }
}

/**
 * Signs in with e-mail and password. Only failures count towards the limits, which are looked at
 * before the password is checked; every attempt and every refusal is logged for the audit trail.
 */
export async function login(deps: AppDeps, input: z.infer<typeof loginBody>, req: RequestInfo) {
  const { db, auth } = deps
  const attempt = { email: input.email, ip: req.ip }
  const log = (outcome: 'success' | 'failure' | 'rate-limited', fields: Record<string, unknown> = {}) =>
    req.logger[outcome === 'success' ? 'info' : 'warn']('sign-in', { kind: 'sign-in', email: input.email, ip: req.ip, outcome, ...fields })
  const audit = (action: AuditAction, details: Record<string, unknown> = {}) => auditSignIn(deps, input.email, req, action, details)

  const held = await signInHeldBack(db, attempt)
  if (held) {
    log('rate-limited', { limit: held.limit, retryAfter: held.retryAfterSeconds })
    await audit('sign_in.rate_limited', { limit: held.limit, retryAfterSeconds: held.retryAfterSeconds })
    throw new AppError('TOO_MANY_LOGIN_ATTEMPTS', { retryAfter: held.retryAfterSeconds })
  }
  // The organisation owning the address's domain signs its members in through its identity provider.
  if (await passwordSignInRefused(deps, input.email)) {
    log('failure', { reason: 'password-sign-in-disabled' })
    fail('PASSWORD_SIGN_IN_DISABLED')
  }
  try {
    const result = await auth.api.signInEmail({
      body: { email: input.email, password: input.password, rememberMe: true },
      headers: withClientAddress(req.headers, req.ip),
      returnHeaders: true,
    })
    // The password was right; a member with a second factor completes the sign-in with it (and
    // only then are their failures forgotten: re-entering the password must not reset wrong codes).
    const challenge = await secondFactorChallenge(deps, input.email, result.response)
    if (challenge) {
      log('success', { secondFactor: challenge.body.methods })
      return challenge.body.methods.includes('totp') ? { body: challenge.body, headers: result.headers } : { body: challenge.body, headers: new Headers() }
    }
    const signedIn = result.response as { user: { id: string } }
    await clearOwnSignInFailures(db, attempt)
    log('success', { userId: signedIn.user.id })
    await audit('sign_in.succeeded')
    return { body: await getMe(deps, signedIn.user.id), headers: result.headers }
  } catch (error) {
    if (error instanceof APIError && (error.statusCode === 401 || error.statusCode === 400)) {
      await countSignInFailure(db, attempt)
      log('failure')
      await audit('sign_in.failed')
      fail('INVALID_CREDENTIALS')
    }
    throw error
  }
}

/**
 * What a correct password leads to for a member with a second factor. With an authenticator app,
 * better-auth has held the session back and set its short-lived `two_factor` cookie. With passkeys
 * only, the session it made is deleted here (its cookie never reaches the browser): a passkey
 * sign-in follows.
 */
async function secondFactorChallenge(deps: AppDeps, email: string, response: unknown): Promise<{ body: TwoFactorChallenge } | null> {
  const pending = (response as { twoFactorRedirect?: boolean }).twoFactorRedirect === true
  const user = await deps.db.query.users.findFirst({ where: eq(users.email, email), columns: { id: true } })
  if (!user) return null
  const [keys] = await deps.db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, user.id))
  const hasPasskey = (keys?.n ?? 0) > 0
  if (!pending && !hasPasskey) return null
  if (!pending) await (await deps.auth.$context).internalAdapter.deleteSession((response as { token: string }).token)
  return { body: { twoFactorRequired: true, methods: pending ? (hasPasskey ? ['totp', 'passkey'] : ['totp']) : ['passkey'] } }
}

export async function me(deps: AppDeps, user: SessionUser): Promise<MeResponse> {
  if (!user.emailVerified) fail('EMAIL_NOT_VERIFIED')
  // The session read has it all in the common case (src/auth/session.ts); else one query.
  if (user.organizationName === undefined) return getMe(deps, user.id)
  const { id, name, email, emailVerified, role, locale, theme, organizationId, organizationName } = user
  return { id, name, email, emailVerified, role, locale, theme, organization: { id: organizationId, name: organizationName }, twoFactorSetupRequired: !!user.twoFactorMissing }
}

export async function logout(deps: AppDeps, caller: SessionUser, headers: Headers, from: AuditFrom) {
  const result = await deps.auth.api.signOut({ headers, returnHeaders: true })
  await recordAudit(deps, caller, from, { action: 'sign_out', target: { type: 'user', id: caller.id, label: caller.email } })
  return result.headers
}

/**
 * A sign-in attempt goes to the audit log of the account it named, as its target; only a successful
 * one has the account as its actor (anyone may type a member's address). An address that belongs to
 * no account has no organisation to record it in (the request log keeps it).
 */
async function auditSignIn(deps: AppDeps, email: string, req: RequestInfo, action: AuditAction, details: Record<string, unknown>) {
  const account = await deps.db.query.users
    .findFirst({ where: eq(users.email, email), columns: { id: true, name: true, email: true, organizationId: true } })
    .catch((error) => req.logger.error('audit entry not written', { error, action }))
  if (!account) return
  const actor = action === 'sign_in.succeeded' ? account : { organizationId: account.organizationId }
  await recordAudit(deps, actor, { requestId: req.requestId, address: req.ip }, { action, target: { type: 'user', id: account.id, label: account.email }, details })
}

/** How long better-auth locks the second step after ten wrong codes in a row (its default). */
const LOCKED_SECONDS = 15 * 60
/** Passkey challenges one address block may ask for in a minute. */
const PASSKEY_CHALLENGES = { limit: 30, windowMs: 60_000 }
/** Codes one member's pending sign-ins may try together, right or wrong, in a quarter of an hour. */
const CODE_ATTEMPTS = { limit: 10, windowMs: 15 * 60_000 }

/** The request's headers without session cookies (a pending second step carries its own cookie). */
function withoutSessionCookies(headers: Headers) {
  const cookie = headers.get('cookie')
  if (!cookie) return headers
  const kept = cookie
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => !/^(__Secure-)?[^=]*\.session_(token|data)=/.test(pair))
  const out = new Headers(headers)
  if (kept.length) out.set('cookie', kept.join('; '))
  else out.delete('cookie')
  return out
}

/**
 * The second step of a password sign-in: a code from the authenticator app or a recovery code
 * (each works once). Held back and counted like wrong passwords (src/api/auth/sign-in-limits.ts);
 * better-auth adds its own limits (five codes per sign-in, a lock after ten wrong in a row).
 */
export async function signInWithCode(deps: AppDeps, input: z.infer<typeof signInCodeBody>, req: RequestInfo) {
  const userId = await pendingTwoFactorUserId(deps, req.headers)
  const account = userId ? await deps.db.query.users.findFirst({ where: eq(users.id, userId), columns: { id: true, name: true, email: true, organizationId: true } }) : null
  if (!account) fail('TWO_FACTOR_SIGN_IN_EXPIRED')
  const attempt = { email: account.email, ip: req.ip }
  const from = { requestId: req.requestId, address: req.ip }
  const target = { type: 'user', id: account.id, label: account.email }
  const refused = async (action: 'sign_in.two_factor_failed' | 'sign_in.rate_limited', details: Record<string, unknown>) =>
    recordAudit(deps, { organizationId: account.organizationId }, from, { action, target, details })

  const held = await signInHeldBack(deps.db, attempt)
  if (held) {
    await refused('sign_in.rate_limited', { limit: held.limit, retryAfterSeconds: held.retryAfterSeconds })
    throw new AppError('TOO_MANY_LOGIN_ATTEMPTS', { retryAfter: held.retryAfterSeconds })
  }
  // Every code counts before it is checked, in one statement: codes sent at the same moment cannot
  // all pass the look above before any failure is counted (guessing in parallel).
  const codes = await hitRateLimit(deps.db, `two-factor-codes:${account.id}`, CODE_ATTEMPTS)
  if (!codes.allowed) {
    await refused('sign_in.rate_limited', { limit: 'secondFactor', retryAfterSeconds: codes.retryAfterSeconds })
    throw new AppError('TOO_MANY_LOGIN_ATTEMPTS', { retryAfter: codes.retryAfterSeconds })
  }
  // Only the pending sign-in's cookie goes to better-auth: with a session cookie beside it, better-auth
  // would check the code of that session's member instead.
  const headers = withoutSessionCookies(withClientAddress(req.headers, req.ip))
  try {
    const result =
      input.kind === 'totp'
        ? await deps.auth.api.verifyTOTP({ body: { code: input.code }, headers, returnHeaders: true })
        : await deps.auth.api.verifyBackupCode({ body: { code: input.code }, headers, returnHeaders: true })
    await clearOwnSignInFailures(deps.db, attempt)
    await clearRateLimit(deps.db, `two-factor-codes:${account.id}`)
    await recordAudit(deps, account, from, { action: 'sign_in.succeeded', target, details: { secondFactor: input.kind } })
    return { body: await getMe(deps, account.id), headers: result.headers }
  } catch (error) {
    const code = error instanceof APIError ? String(error.body?.code ?? '') : ''
    if (code === 'INVALID_CODE' || code === 'INVALID_BACKUP_CODE') {
      await countSignInFailure(deps.db, attempt)
      await refused('sign_in.two_factor_failed', { secondFactor: input.kind })
      fail('INVALID_TWO_FACTOR_CODE')
    }
    if (code === 'ACCOUNT_TEMPORARILY_LOCKED') {
      await refused('sign_in.rate_limited', { limit: 'secondFactor', retryAfterSeconds: LOCKED_SECONDS })
      throw new AppError('TOO_MANY_LOGIN_ATTEMPTS', { retryAfter: LOCKED_SECONDS })
    }
    // Too many codes for this sign-in, or it has expired: the password again.
    // (Also: the app was removed meanwhile, the member deactivated, or a recovery code used at the same moment elsewhere.)
    if (
      ['INVALID_TWO_FACTOR_COOKIE', 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE', 'TOTP_NOT_ENABLED', 'BACKUP_CODES_NOT_ENABLED', 'FAILED_TO_CREATE_SESSION'].includes(code) ||
      (error instanceof APIError && error.status === 'CONFLICT')
    ) {
      await refused('sign_in.two_factor_failed', { secondFactor: input.kind, expired: true })
      fail('TWO_FACTOR_SIGN_IN_EXPIRED')
    }
    throw error
  }
}

/** A challenge for signing in with a passkey (any of the member's: the browser offers those it has for Kontor). */
export async function passkeySignInOptions(deps: AppDeps, headers: Headers, ip: string) {
  // Each challenge is a row until it expires: 30 a minute from one address block is plenty for people.
  const hit = await hitRateLimit(deps.db, `passkey-options:${addressBlock(ip)}`, PASSKEY_CHALLENGES)
  if (!hit.allowed) throw new AppError('TOO_MANY_REQUESTS', { retryAfter: hit.retryAfterSeconds })
  const result = await deps.auth.api.generatePasskeyAuthenticationOptions({ headers, returnHeaders: true })
  return { body: result.response as unknown as Record<string, unknown>, headers: result.headers }
}

/**
 * Signs in with a passkey: the authenticator proved both possession and the member's PIN or
 * biometrics (src/auth/second-factor-plugins.ts), so no password and no code follow. A refused
 * answer is said plainly and noted in the request log.
 */
export async function signInWithPasskey(deps: AppDeps, response: Record<string, unknown>, req: RequestInfo) {
  try {
    const result = await deps.auth.api.verifyPasskeyAuthentication({ body: { response: response as never }, headers: withClientAddress(req.headers, req.ip), returnHeaders: true })
    const { user, session } = result.response as { user: { id: string }; session: { token: string } }
    const account = await deps.db.query.users.findFirst({ where: eq(users.id, user.id), columns: { id: true, name: true, email: true, organizationId: true } })
    if (!account) fail('UNAUTHORIZED')
    // An organisation that signs its members in through its identity provider only keeps passkeys to that too.
    if (await passwordSignInRefused(deps, account.email)) {
      await (await deps.auth.$context).internalAdapter.deleteSession(session.token)
      fail('PASSWORD_SIGN_IN_DISABLED')
    }
    req.logger.info('sign-in', { kind: 'sign-in', email: account.email, ip: req.ip, outcome: 'success', method: 'passkey' })
    await recordAudit(deps, account, { requestId: req.requestId, address: req.ip }, { action: 'sign_in.succeeded', target: { type: 'user', id: account.id, label: account.email }, details: { method: 'passkey' } })
    return { body: await getMe(deps, account.id), headers: result.headers }
  } catch (error) {
    const code = error instanceof APIError ? String(error.body?.code ?? '') : ''
    // A deactivated member's passkey gets no session either (src/auth/auth.ts): refused like any other.
    if (error instanceof APIError && (error.statusCode < 500 || code === 'UNABLE_TO_CREATE_SESSION')) {
      req.logger.warn('sign-in', { kind: 'sign-in', ip: req.ip, outcome: 'failure', method: 'passkey', reason: code })
      fail('PASSKEY_FAILED')
    }
    throw error
  }
}
