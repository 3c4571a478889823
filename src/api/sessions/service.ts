import Bowser from 'bowser'
import { and, desc, eq, gt, ne } from 'drizzle-orm'
import { sessions, users } from '../../../db/schema'
import { sessionTokenHashOf } from '../../auth/session'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { requireAdmin } from '../../lib/guards'
import { recordAudit, type AuditFrom } from '../audit/access'
import type { SessionView } from './schema'

const DEVICES = new Set(['desktop', 'mobile', 'tablet'])

/** Browser, system and kind of device, read from a user agent (bowser); nothing made up when it names none. */
function describeAgent(userAgent: string | null): Pick<SessionView, 'browser' | 'os' | 'device'> {
  if (!userAgent) return { browser: null, os: null, device: 'other' }
  const parsed = Bowser.parse(userAgent)
  const version = parsed.browser.version?.split('.')[0]
  return {
    browser: parsed.browser.name ? [parsed.browser.name, version].filter(Boolean).join(' ') : null,
    os: parsed.os.name ?? null,
    device: DEVICES.has(parsed.platform.type ?? '') ? (parsed.platform.type as SessionView['device']) : 'other',
  }
}

/** The caller's sessions that have not expired, the one last seen first; the caller's own is marked. */
export async function listOwnSessions(deps: AppDeps, caller: SessionUser, headers: Headers): Promise<SessionView[]> {
  const currentToken = await sessionTokenHashOf(deps, headers)
  const rows = await deps.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, caller.id), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.updatedAt))
  return rows.map((row) => ({
    id: row.id,
    current: row.token === currentToken,
    ...describeAgent(row.userAgent),
    address: row.ipAddress || null,
    signedInAt: row.createdAt.toISOString(),
    lastSeenAt: row.updatedAt.toISOString(),
  }))
}

/** Ends one of the caller's sessions (the browser holding it is signed out on its next request). */
export async function endOwnSession(deps: AppDeps, caller: SessionUser, id: string, from: AuditFrom) {
  const [ended] = await deps.db
    .delete(sessions)
    .where(and(eq(sessions.id, id), eq(sessions.userId, caller.id)))
    .returning({ userAgent: sessions.userAgent })
  if (!ended) fail('SESSION_NOT_FOUND')
  await recordAudit(deps, caller, from, { action: 'session.ended', target: { type: 'user', id: caller.id, label: caller.email }, details: { count: 1 } })
}

/** Ends every session of the caller but the one asking. */
export async function endOtherSessions(deps: AppDeps, caller: SessionUser, headers: Headers, from: AuditFrom) {
  const currentToken = await sessionTokenHashOf(deps, headers)
  const ended = await deps.db
    .delete(sessions)
    .where(and(eq(sessions.userId, caller.id), ...(currentToken ? [ne(sessions.token, currentToken)] : [])))
    .returning({ id: sessions.id })
  if (ended.length) {
    await recordAudit(deps, caller, from, { action: 'session.ended', target: { type: 'user', id: caller.id, label: caller.email }, details: { count: ended.length } })
  }
  return { ended: ended.length }
}

/** An admin ends every session of a member of their organisation: signed out everywhere at once. */
export async function endMemberSessions(deps: AppDeps, caller: SessionUser, memberId: string, from: AuditFrom) {
  requireAdmin(caller)
  const member = await deps.db.query.users.findFirst({
    where: and(eq(users.id, memberId), eq(users.organizationId, caller.organizationId)),
    columns: { id: true, email: true },
  })
  if (!member) fail('USER_NOT_FOUND')
  const ended = await deps.db.delete(sessions).where(eq(sessions.userId, member.id)).returning({ id: sessions.id })
  await recordAudit(deps, caller, from, {
    action: 'member.sessions_ended',
    target: { type: 'user', id: member.id, label: member.email },
    details: { count: ended.length },
  })
  return { ended: ended.length }
}
