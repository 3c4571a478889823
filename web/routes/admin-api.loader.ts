import { apiKeyQueries } from '../features/api-keys/api'
import type { RouterContext } from '../router-context'

export const loader = ({ context }: { context: RouterContext }) =>
  Promise.all([
    context.queryClient.ensureQueryData(apiKeyQueries.settings(context.api)),
    context.queryClient.ensureQueryData(apiKeyQueries.organization(context.api)),
  ])
