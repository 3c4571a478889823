import { createRoute, lazyFn } from '@tanstack/react-router'
import { Route as adminRoute } from './admin-settings'

/** The organisation's MCP servers and which of their tools chats may use. */
export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/mcp-servers',
  loader: lazyFn(() => import('./admin-mcp.loader'), 'loader'),
}).lazy(() => import('./admin-mcp.lazy').then((m) => m.Route))
