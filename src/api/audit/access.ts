import type { Context } from 'hono'
import { auditEntries } from '../../../db/schema'
import type { AppDeps, AppEnv, SessionUser } from '../../lib/context'
import { clientIp } from '../../lib/respond'
import type { AuditAction } from './schema'

export { AUDIT_ACTIONS, type AuditAction } from './schema'

/** Where an action came from: the request's id (X-Request-Id) and the client's address. */
export type AuditFrom = { requestId: string; address: string }

/**
 * Who acted: a signed-in member (or one who just signed in). Nobody known for failed or refused
 * sign-ins: anyone may type a member's address, so those entries name the account as the target only.
 */
export type AuditActor = Pick<SessionUser, 'organizationId'> & Partial<Pick<SessionUser, 'id' | 'name' | 'email'>>

export type AuditEvent = {
  action: AuditAction
  target?: { type: string; id?: string | null; label?: string | null }
  details?: Record<string, unknown>
}

/** The request's id and the caller's address, as routes hand them to the services they call. */
export function auditFrom(c: Context<AppEnv>): AuditFrom {
  return { requestId: c.get('requestId'), address: clientIp(c, c.get('deps').config.trustProxy) }
}

/**
 * Appends one entry to the organisation's audit log, right after the action succeeded. A failed
 * write is logged and swallowed: the action has happened, and the caller must hear so.
 */
export async function recordAudit(deps: Pick<AppDeps, 'db' | 'logger'>, actor: AuditActor, from: AuditFrom, event: AuditEvent): Promise<void> {
  try {
    await deps.db.insert(auditEntries).values({
      id: crypto.randomUUID(),
      organizationId: actor.organizationId,
      createdAt: new Date(),
      actorId: actor.id ?? null,
      actorName: actor.name ?? null,
      actorEmail: actor.email ?? null,
      action: event.action,
      targetType: event.target?.type ?? null,
      targetId: event.target?.id ?? null,
      targetLabel: event.target?.label ?? null,
      details: JSON.stringify(event.details ?? {}),
      address: from.address,
      requestId: from.requestId,
    })
  } catch (error) {
    deps.logger.error('audit entry not written', { error, action: event.action, organizationId: actor.organizationId, requestId: from.requestId })
  }
}
