import { createRoute } from '@tanstack/react-router'
import { mcpQueries } from '../features/mcp-servers/api'
import { Route as adminRoute } from './admin-settings'

/** The organisation's MCP servers and which of their tools chats may use. */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/mcp-servers',
  loader: ({ context }) => context.queryClient.ensureQueryData(mcpQueries.list(context.api)),
}).lazy(() => import('./admin-mcp.lazy').then((m) => m.Route))
