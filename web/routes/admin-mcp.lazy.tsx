import { createLazyRoute } from '@tanstack/react-router'
import { McpServersPage, McpServersPageSkeleton } from '../features/mcp-servers/components/mcp-servers-page'

export const Route = createLazyRoute('/app/admin-settings/mcp-servers')({
  pendingComponent: McpServersPageSkeleton,
  component: McpServersPage,
})
