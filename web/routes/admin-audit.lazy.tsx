import { createLazyRoute } from '@tanstack/react-router'
import { AuditLogPage, AuditLogPageSkeleton } from '../features/audit/components/audit-log-page'

export const Route = createLazyRoute('/app/admin-settings/audit-log')({
  pendingComponent: AuditLogPageSkeleton,
  component: AuditLogPage,
})
