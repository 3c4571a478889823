import { recordAudit, type AuditFrom } from '../audit/access'
import { and, desc, eq, sql } from 'drizzle-orm'
import { invites, organizations, users } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { requireAdmin } from '../../lib/guards'
import { renderMail } from '../../mail/templates'
import type { createInviteBody, InviteView } from './schema'
import { inviteExpiresAt, inviteStatus, seatAvailable } from './access'
import { hashInviteToken, newInviteToken } from './token'
import type { z } from 'zod'

type InviteRow = typeof invites.$inferSelect


export const toInviteView = (invite: InviteRow, now = Date.now()): InviteView => ({
  id: invite.id,
  email: invite.email,
  role: invite.role,
  status: inviteStatus(invite, now),
  sentAt: invite.sentAt.toISOString(),
  expiresAt: inviteExpiresAt(invite).toISOString(),
})

export const acceptUrl = (deps: AppDeps, token: string) => `${deps.config.baseUrl}/accept-invite?token=${encodeURIComponent(token)}`

async function findInvite(deps: AppDeps, caller: SessionUser, id: string) {
  const invite = await deps.db.query.invites.findFirst({
    where: and(eq(invites.id, id), eq(invites.organizationId, caller.organizationId)),
  })
  return invite ?? fail('INVITE_NOT_FOUND')
}

/**
 * Mails the invitation. When there is no SMTP, or delivery fails, the admin gets the link to
 * pass on instead: the invite itself stands either way.
 */
async function deliver(deps: AppDeps, caller: SessionUser, invite: InviteRow, token: string, audit: InviteAudit): Promise<InviteView> {
  const url = acceptUrl(deps, token)
  await recordAudit(deps, caller, audit.from, {
    action: audit.action,
    target: { type: 'invite', id: invite.id, label: invite.email },
    details: { role: invite.role },
  })
  const view = toInviteView(invite)
  const organization = await orgName(deps, caller)
  try {
    await deps.mailer.send(renderMail('invite', invite.locale, { to: invite.email, url, inviter: caller.name, organization }))
  } catch {
    return { ...view, acceptUrl: url, mailSent: false }
  }
  return deps.mailer.delivers ? { ...view, mailSent: true } : { ...view, acceptUrl: url, mailSent: false }
}

const orgName = async (deps: AppDeps, caller: SessionUser) =>
  (await deps.db.query.organizations.findFirst({ where: eq(organizations.id, caller.organizationId) }))?.name ?? ''

/**
 * Invites an address to the caller's organisation. Inviting an address that already has a
 * pending invitation sends it again with a new token (the old link stops working).
 */
/** Which entry a sent invitation leaves in the audit log. */
type InviteAudit = { from: AuditFrom; action: 'invite.sent' | 'invite.resent' }

export async function createInvite(deps: AppDeps, caller: SessionUser, input: z.infer<typeof createInviteBody>, from: AuditFrom) {
  requireAdmin(caller)
  const member = await deps.db.query.users.findFirst({
    where: and(eq(users.email, input.email), eq(users.organizationId, caller.organizationId)),
    columns: { id: true },
  })
  if (member) fail('USER_EXISTS')

  const open = await deps.db.query.invites.findMany({
    where: and(eq(invites.email, input.email), eq(invites.organizationId, caller.organizationId)),
  })
  const pending = open.find((i) => inviteStatus(i) === 'pending')
  if (pending) return reissue(deps, caller, pending, { from, action: 'invite.resent' }, { role: input.role, locale: input.locale ?? pending.locale })

  const token = newInviteToken()
  const now = new Date()
  const id = crypto.randomUUID()
  // Insert only while a seat is free: the check and the insert are one statement.
  const inserted = await deps.db.run(sql`
    INSERT INTO ${invites} (id, organization_id, email, role, locale, token_hash, invited_by_id, created_at, sent_at)
    SELECT ${id}, ${caller.organizationId}, ${input.email}, ${input.role}, ${input.locale ?? caller.locale},
           ${await hashInviteToken(token)}, ${caller.id}, ${now.getTime()}, ${now.getTime()}
    WHERE ${seatAvailable(deps.config, caller.organizationId, now.getTime())}`)
  if (inserted.rowsAffected === 0) fail('INVITE_NOT_POSSIBLE')
  const invite = (await deps.db.query.invites.findFirst({ where: eq(invites.id, id) }))!
  return deliver(deps, caller, invite, token, { from, action: 'invite.sent' })
}

async function reissue(deps: AppDeps, caller: SessionUser, invite: InviteRow, audit: InviteAudit, changes: Partial<Pick<InviteRow, 'role' | 'locale'>> = {}) {
  const token = newInviteToken()
  const [updated] = await deps.db
    .update(invites)
    .set({ ...changes, tokenHash: await hashInviteToken(token), sentAt: new Date(), invitedById: caller.id })
    .where(eq(invites.id, invite.id))
    .returning()
  return deliver(deps, caller, updated!, token, audit)
}

/** Sends a pending or expired invitation again with a new token; the old link stops working. */
export async function resendInvite(deps: AppDeps, caller: SessionUser, id: string, from: AuditFrom) {
  requireAdmin(caller)
  const invite = await findInvite(deps, caller, id)
  const status = inviteStatus(invite)
  if (status === 'accepted' || status === 'rejected') fail('INVITE_NOT_PENDING')
  if (status === 'expired') {
    // An expired invite holds no seat; renewing it takes one.
    const [free] = await deps.db.all<{ ok: number }>(sql`SELECT ${seatAvailable(deps.config, caller.organizationId)} AS ok`)
    if (!free?.ok) fail('INVITE_NOT_POSSIBLE')
  }
  return reissue(deps, caller, invite, { from, action: 'invite.resent' })
}

/** Invitations of the caller's organisation, newest first, with their derived status. */
export async function listInvites(deps: AppDeps, caller: SessionUser) {
  requireAdmin(caller)
  const rows = await deps.db
    .select()
    .from(invites)
    .where(eq(invites.organizationId, caller.organizationId))
    .orderBy(desc(invites.sentAt))
  const now = Date.now()
  return rows.map((r) => toInviteView(r, now))
}

export async function getInvite(deps: AppDeps, caller: SessionUser, id: string) {
  requireAdmin(caller)
  return toInviteView(await findInvite(deps, caller, id))
}

/** Revokes an invitation (status rejected); its link stops working. */
export async function revokeInvite(deps: AppDeps, caller: SessionUser, id: string, from: AuditFrom) {
  requireAdmin(caller)
  const invite = await findInvite(deps, caller, id)
  if (invite.acceptedAt) fail('INVITE_NOT_PENDING')
  if (invite.revokedAt) return
  await deps.db.update(invites).set({ revokedAt: new Date() }).where(eq(invites.id, id))
  await recordAudit(deps, caller, from, { action: 'invite.revoked', target: { type: 'invite', id, label: invite.email } })
}
