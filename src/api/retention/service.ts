import { eq } from 'drizzle-orm'
import { organizations } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { requireAdmin } from '../../lib/guards'
import { recordAudit, type AuditFrom } from '../audit/access'
import type { RetentionView } from './schema'

/** How long the caller's organisation keeps chats and uploaded files (admins). */
export async function getRetention(deps: AppDeps, caller: SessionUser): Promise<RetentionView> {
  requireAdmin(caller)
  const row = await deps.db
    .select({ chatDays: organizations.chatRetentionDays, fileDays: organizations.fileRetentionDays })
    .from(organizations)
    .where(eq(organizations.id, caller.organizationId))
    .get()
  return row ?? fail('UNAUTHORIZED')
}

/** Sets both retention periods at once; the daily job applies them (src/api/retention/job.ts). */
export async function setRetention(deps: AppDeps, caller: SessionUser, change: RetentionView, from: AuditFrom): Promise<RetentionView> {
  const before = await getRetention(deps, caller)
  await deps.db
    .update(organizations)
    .set({ chatRetentionDays: change.chatDays, fileRetentionDays: change.fileDays })
    .where(eq(organizations.id, caller.organizationId))
  const kept = (days: number | null) => days ?? 'never'
  await recordAudit(deps, caller, from, {
    action: 'retention.changed',
    target: { type: 'organization', id: caller.organizationId },
    details: { chatDays: kept(change.chatDays), fileDays: kept(change.fileDays), previousChatDays: kept(before.chatDays), previousFileDays: kept(before.fileDays) },
  })
  return change
}
