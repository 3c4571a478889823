import { desc, eq, inArray, or } from 'drizzle-orm'
import { invites, outboxEmails, users } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { requireAdmin } from '../../lib/guards'
import { mailPageEnabled } from './access'
import type { OutboxMail } from './schema'

/** The newest mails shown; the page is for following a few flows by hand, not an archive. */
export const OUTBOX_PAGE_SIZE = 50

/**
 * The outbox as far as it concerns the caller's organisation: mails to its members and to the
 * addresses it invited, newest first. Mails to anyone else (another organisation's password
 * reset, a registration elsewhere) stay out of sight, even on a development instance.
 */
export async function listOutbox(deps: AppDeps, caller: SessionUser): Promise<OutboxMail[]> {
  requireAdmin(caller)
  if (!mailPageEnabled(deps.config)) fail('NOT_FOUND')
  const members = deps.db.select({ email: users.email }).from(users).where(eq(users.organizationId, caller.organizationId))
  const invited = deps.db.select({ email: invites.email }).from(invites).where(eq(invites.organizationId, caller.organizationId))
  const rows = await deps.db
    .select()
    .from(outboxEmails)
    .where(or(inArray(outboxEmails.to, members), inArray(outboxEmails.to, invited)))
    .orderBy(desc(outboxEmails.createdAt))
    .limit(OUTBOX_PAGE_SIZE)
  return rows.map((r) => ({ id: r.id, to: r.to, subject: r.subject, text: r.text, html: r.html, status: r.status, createdAt: r.createdAt.toISOString() }))
}
