import { auditQueries } from '../features/audit/api'
import type { RouterContext } from '../router-context'

export const loader = ({ context }: { context: RouterContext }) => context.queryClient.ensureInfiniteQueryData(auditQueries.list(context.api, {}))
