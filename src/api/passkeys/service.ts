// better-auth's errors extend better-call's: checked without loading better-auth.
import { APIError } from 'better-call/error'
import { and, asc, eq } from 'drizzle-orm'
import type { z } from 'zod'
import { passkeys } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail, type ErrorCode } from '../../lib/errors'
import { recordAudit, type AuditFrom } from '../audit/access'
import type { addPasskeyBody, PasskeyView } from './schema'

/** better-auth's refusals, as Kontor's codes; anything else goes on. */
function translated(error: unknown): never {
  const code = error instanceof APIError ? String(error.body?.code ?? '') : ''
  if (code === 'SESSION_NOT_FRESH') fail('RECENT_SIGN_IN_REQUIRED')
  if (code === 'PASSKEY_NOT_FOUND' || code === 'YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY' || code === 'UNAUTHORIZED') fail('PASSKEY_NOT_FOUND')
  if (code === 'CHALLENGE_NOT_FOUND' || code === 'FAILED_TO_VERIFY_REGISTRATION') fail('PASSKEY_FAILED' satisfies ErrorCode)
  throw error
}

export async function listPasskeys(deps: AppDeps, user: SessionUser): Promise<PasskeyView[]> {
  const rows = await deps.db.select().from(passkeys).where(eq(passkeys.userId, user.id)).orderBy(asc(passkeys.createdAt))
  return rows.map((p) => ({ id: p.id, name: p.name, deviceType: p.deviceType, backedUp: p.backedUp, createdAt: p.createdAt?.toISOString() ?? null }))
}

/** A new challenge for the browser to create a passkey with; better-auth keeps it behind a short-lived signed cookie. */
export async function registrationOptions(deps: AppDeps, headers: Headers) {
  const result = await deps.auth.api.generatePasskeyRegistrationOptions({ headers, query: {}, returnHeaders: true }).catch(translated)
  return { body: result.response as unknown as Record<string, unknown>, headers: result.headers }
}

/** The browser's answer to that challenge: checked (origin, relying party, challenge) and kept as the member's passkey. */
export async function addPasskey(deps: AppDeps, user: SessionUser, headers: Headers, input: z.infer<typeof addPasskeyBody>, from: AuditFrom) {
  const added = await deps.auth.api.verifyPasskeyRegistration({ body: { name: input.name, response: input.response }, headers }).catch(translated)
  await recordAudit(deps, user, from, { action: 'passkey.added', target: { type: 'passkey', id: added.id, label: input.name } })
  return (await listPasskeys(deps, user)).find((p) => p.id === added.id)!
}

export async function renamePasskey(deps: AppDeps, user: SessionUser, headers: Headers, id: string, name: string) {
  await deps.auth.api.updatePasskey({ body: { id, name }, headers }).catch(translated)
  return (await listPasskeys(deps, user)).find((p) => p.id === id) ?? fail('PASSKEY_NOT_FOUND')
}

export async function removePasskey(deps: AppDeps, user: SessionUser, headers: Headers, id: string, from: AuditFrom) {
  const row = await deps.db.query.passkeys.findFirst({ where: and(eq(passkeys.id, id), eq(passkeys.userId, user.id)) })
  if (!row) fail('PASSKEY_NOT_FOUND')
  await deps.auth.api.deletePasskey({ body: { id }, headers }).catch(translated)
  await recordAudit(deps, user, from, { action: 'passkey.removed', target: { type: 'passkey', id, label: row.name } })
}
