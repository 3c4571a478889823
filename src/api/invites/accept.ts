import { withClientAddress } from '../../auth/client-address'
import { recordAudit, type AuditFrom } from '../audit/access'
import { and, eq, isNull } from 'drizzle-orm'
import type { z } from 'zod'
import { accounts, invites, organizations, users } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { AppError, fail } from '../../lib/errors'
import { getMe } from '../auth/access'
import type { acceptInviteBody } from './schema'
import { inviteExpiresAt, inviteStatus } from './access'
import { hashInviteToken } from './token'

async function findByToken(deps: AppDeps, token: string) {
  const invite = await deps.db.query.invites.findFirst({ where: eq(invites.tokenHash, await hashInviteToken(token)) })
  if (!invite) fail('INVITE_INVALID')
  const status = inviteStatus(invite)
  if (status === 'accepted') fail('INVITE_ALREADY_ACCEPTED')
  if (status !== 'pending') fail('INVITE_INVALID')
  return invite
}

/** What /accept-invite shows before the form: the organisation, the address and the role. */
export async function previewInvite(deps: AppDeps, token: string) {
  const invite = await findByToken(deps, token)
  const org = await deps.db.query.organizations.findFirst({ where: eq(organizations.id, invite.organizationId) })
  return {
    email: invite.email,
    role: invite.role,
    organizationName: org?.name ?? '',
    expiresAt: inviteExpiresAt(invite).toISOString(),
  }
}

/**
 * Accepts an invitation: creates the invited, already confirmed user with the invited role in
 * the inviting organisation, and signs them in. Marking the invite accepted and creating the user
 * happen in one transaction, guarded so that of two concurrent accepts exactly one succeeds.
 */
export async function acceptInvite(
  deps: AppDeps,
  caller: SessionUser | null,
  input: z.infer<typeof acceptInviteBody>,
  headers: Headers,
  from: AuditFrom,
) {
  const invite = await findByToken(deps, input.token)
  if (caller) fail(caller.email === invite.email ? 'INVITE_ALREADY_ACCEPTED' : 'SIGNED_IN_AS_OTHER_USER')
  const existing = await deps.db.query.users.findFirst({ where: eq(users.email, invite.email), columns: { id: true } })
  if (existing) fail('USER_EXISTS')

  const ctx = await deps.auth.$context
  const passwordHash = await ctx.password.hash(input.password)
  const userId = crypto.randomUUID()
  try {
    await deps.db.transaction(async (tx) => {
      await tx.insert(users).values({
        id: userId,
        name: input.name,
        email: invite.email,
        emailVerified: true,
        organizationId: invite.organizationId,
        role: invite.role,
        locale: invite.locale,
      })
      await tx.insert(accounts).values({
        id: crypto.randomUUID(),
        accountId: userId,
        providerId: 'credential',
        userId,
        password: passwordHash,
      })
      const claimed = await tx
        .update(invites)
        .set({ acceptedAt: new Date(), acceptedUserId: userId })
        .where(and(eq(invites.id, invite.id), isNull(invites.acceptedAt), isNull(invites.revokedAt)))
        .returning({ id: invites.id })
      // Of two concurrent accepts only one finds the invite unclaimed; the other rolls back.
      if (!claimed.length) throw new AppError('INVITE_ALREADY_ACCEPTED')
    })
  } catch (error) {
    if (error instanceof AppError) throw error
    if (String((error as { cause?: unknown }).cause ?? error).includes('UNIQUE')) fail('USER_EXISTS')
    throw error
  }

  await recordAudit(deps, { id: userId, name: input.name, email: invite.email, organizationId: invite.organizationId }, from, {
    action: 'invite.accepted',
    target: { type: 'invite', id: invite.id, label: invite.email },
    details: { role: invite.role },
  })
  const signIn = await deps.auth.api.signInEmail({
    body: { email: invite.email, password: input.password, rememberMe: true },
    headers: withClientAddress(headers, from.address),
    returnHeaders: true,
  })
  return { body: await getMe(deps, userId), headers: signIn.headers }
}
