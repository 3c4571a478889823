// better-auth's errors extend better-call's: checked without loading better-auth.
import { APIError } from 'better-call/error'
import { and, count, eq } from 'drizzle-orm'
import { accounts, organizations, passkeys, users } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail, type ErrorCode } from '../../lib/errors'
import { recordAudit, type AuditFrom } from '../audit/access'

/** better-auth's refusals, as Kontor's codes; anything else is not the caller's mistake and goes on. */
function translated(error: unknown, codes: Record<string, ErrorCode>): never {
  const code = error instanceof APIError ? String(error.body?.code ?? '') : ''
  if (codes[code]) fail(codes[code])
  throw error
}
const PASSWORD_CODES: Record<string, ErrorCode> = { INVALID_PASSWORD: 'CURRENT_PASSWORD_INCORRECT' }
const audit = (deps: AppDeps, user: SessionUser, from: AuditFrom, action: 'two_factor.enabled' | 'two_factor.disabled' | 'two_factor.recovery_codes_renewed') =>
  recordAudit(deps, user, from, { action, target: { type: 'user', id: user.id, label: user.email } })

export async function status(deps: AppDeps, user: SessionUser) {
  const [row] = await deps.db
    .select({ totp: users.twoFactorEnabled, required: organizations.requireTwoFactor })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(eq(users.id, user.id))
  const [keys] = await deps.db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, user.id))
  const password = await deps.db.query.accounts.findFirst({ where: and(eq(accounts.userId, user.id), eq(accounts.providerId, 'credential')), columns: { id: true } })
  const totp = row?.totp ?? false
  const codes = totp ? await deps.auth.api.viewBackupCodes({ body: { userId: user.id } }).catch(() => null) : null
  return {
    totp,
    recoveryCodesLeft: codes ? codes.backupCodes.length : null,
    passkeys: keys?.n ?? 0,
    hasPassword: !!password,
    required: row?.required ?? false,
  }
}

/**
 * Starts setting up an authenticator app (the password confirms it is the member): a new secret
 * and recovery codes. The app counts as set up once its first code is entered (`confirmTotp`).
 */
export async function startTotp(deps: AppDeps, headers: Headers, password: string) {
  const result = await deps.auth.api
    .enableTwoFactor({ body: { password }, headers })
    .catch((error) => translated(error, { ...PASSWORD_CODES, TOTP_ALREADY_ENABLED: 'TWO_FACTOR_ALREADY_ENABLED' }))
  if (!('totpURI' in result) || !result.totpURI) fail('TWO_FACTOR_NOT_ENABLED')
  return { totpUri: result.totpURI, secret: new URL(result.totpURI).searchParams.get('secret') ?? '', recoveryCodes: result.backupCodes ?? [] }
}

/** The first code from the app finishes the setup; better-auth renews the session (its cookie comes back). */
export async function confirmTotp(deps: AppDeps, user: SessionUser, headers: Headers, code: string, from: AuditFrom) {
  // An app already in use needs no second first code (nor a second audit entry).
  if ((await status(deps, user)).totp) fail('TWO_FACTOR_ALREADY_ENABLED')
  const result = await deps.auth.api
    .verifyTOTP({ body: { code }, headers, returnHeaders: true })
    .catch((error) => translated(error, { INVALID_CODE: 'INVALID_TWO_FACTOR_CODE', TOTP_NOT_ENABLED: 'TWO_FACTOR_NOT_ENABLED' }))
  await audit(deps, user, from, 'two_factor.enabled')
  return { body: await status(deps, user), headers: result.headers }
}

export async function disableTotp(deps: AppDeps, user: SessionUser, headers: Headers, password: string, from: AuditFrom) {
  if (!(await status(deps, user)).totp) fail('TWO_FACTOR_NOT_ENABLED')
  const result = await deps.auth.api.disableTwoFactor({ body: { password }, headers, returnHeaders: true }).catch((error) => translated(error, PASSWORD_CODES))
  await audit(deps, user, from, 'two_factor.disabled')
  return { body: await status(deps, user), headers: result.headers }
}

/** New recovery codes replace the old ones (all of them, used or not). */
export async function renewRecoveryCodes(deps: AppDeps, user: SessionUser, headers: Headers, password: string, from: AuditFrom) {
  if (!(await status(deps, user)).totp) fail('TWO_FACTOR_NOT_ENABLED')
  const result = await deps.auth.api.generateBackupCodes({ body: { password }, headers }).catch((error) => translated(error, PASSWORD_CODES))
  await audit(deps, user, from, 'two_factor.recovery_codes_renewed')
  return { recoveryCodes: result.backupCodes }
}

export async function getRequirement(deps: AppDeps, admin: SessionUser) {
  const row = await deps.db.query.organizations.findFirst({ where: eq(organizations.id, admin.organizationId), columns: { requireTwoFactor: true } })
  return { required: row?.requireTwoFactor ?? false }
}

export async function setRequirement(deps: AppDeps, admin: SessionUser, required: boolean, from: AuditFrom) {
  const before = await getRequirement(deps, admin)
  if (before.required === required) return before
  await deps.db.update(organizations).set({ requireTwoFactor: required }).where(eq(organizations.id, admin.organizationId))
  await recordAudit(deps, admin, from, { action: 'two_factor.requirement_changed', target: { type: 'organization', id: admin.organizationId }, details: { required } })
  return { required }
}
