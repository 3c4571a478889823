/**
 * Every action the audit log records; the filter of GET /api/audit-log accepts these only. Kept
 * apart from schema.ts, without zod: the admin page lists them, and the browser's entry must not
 * load zod's full build for a list of strings (decision 0043).
 */
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
] as const

export type AuditAction = (typeof AUDIT_ACTIONS)[number]
