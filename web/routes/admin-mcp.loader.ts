import { mcpQueries } from '../features/mcp-servers/api'
import type { RouterContext } from '../router-context'

export const loader = ({ context }: { context: RouterContext }) => context.queryClient.ensureQueryData(mcpQueries.list(context.api))
