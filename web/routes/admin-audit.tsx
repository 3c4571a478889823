import { createRoute } from '@tanstack/react-router'
import { auditQueries } from '../features/audit/api'
import { Route as adminRoute } from './admin-settings'

/** The organisation's audit log: who changed what, when and from where. */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/audit-log',
  loader: ({ context }) => context.queryClient.ensureInfiniteQueryData(auditQueries.list(context.api, {})),
}).lazy(() => import('./admin-audit.lazy').then((m) => m.Route))
