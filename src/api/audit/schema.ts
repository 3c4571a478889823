import { z } from 'zod'

/** Every action the audit log records; the filter of GET /api/audit-log accepts these only. */
export const AUDIT_ACTIONS = [
  'sign_in.succeeded',
  'sign_in.failed',
  'sign_in.rate_limited',
  'sign_out',
  'member.role_changed',
  'member.removed',
  'invite.sent',
  'invite.resent',
  'invite.revoked',
  'invite.accepted',
  'provider.permitted',
  'provider.unpermitted',
  'model.permitted',
  'model.unpermitted',
  'model.default_changed',
  'model.embedding_changed',
  'model.access_changed',
  'model.price_changed',
  'endpoint.created',
  'endpoint.removed',
  'subscription.created',
  'subscription.cancelled',
  'subscription.resumed',
  'subscription.seats_changed',
  'subscription.billing_changed',
  'organization.renamed',
  'api_key.created',
  'api_key.revoked',
  'api_access.changed',
  'chats.deleted',
  'chat.exported',
  'data.exported',
  'group.created',
  'group.renamed',
  'group.deleted',
  'group.members_added',
  'group.member_removed',
  'mcp_server.added',
  'mcp_server.removed',
  'mcp_tool.enabled',
  'mcp_tool.disabled',
] as const

export type AuditAction = (typeof AUDIT_ACTIONS)[number]

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-01-31')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'Not a date')

/** Filters of the list and the CSV export; `from` and `to` are whole days in UTC, both included. */
export const auditListQuery = z
  .object({
    action: z.enum(AUDIT_ACTIONS, { error: 'Unknown action' }).optional(),
    /** Part of the actor's name or e-mail. */
    actor: z.string().trim().max(200).optional(),
    /** Part of the target's label or id. */
    target: z.string().trim().max(200).optional(),
    from: day.optional(),
    to: day.optional(),
    cursor: z
      .string()
      .regex(/^\d{1,15}_[0-9a-f-]{36}$/, 'Not a cursor of this list')
      .optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'Must not be before the start date' })

export const auditEntryResponse = z.object({
  id: z.string(),
  createdAt: z.string(),
  actor: z.object({ id: z.string().nullable(), name: z.string().nullable(), email: z.string().nullable() }),
  action: z.string(),
  target: z.object({ type: z.string().nullable(), id: z.string().nullable(), label: z.string().nullable() }),
  details: z.record(z.string(), z.unknown()),
  address: z.string().nullable(),
  requestId: z.string().nullable(),
})

export const auditListResponse = z.object({ entries: z.array(auditEntryResponse), nextCursor: z.string().nullable() })

export type AuditEntryView = z.infer<typeof auditEntryResponse>
export type AuditListQuery = z.infer<typeof auditListQuery>
