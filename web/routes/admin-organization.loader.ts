import { organizationQueries } from '../features/settings/organization'
import { retentionQueries } from '../features/settings/retention'
import type { RouterContext } from '../router-context'

export const loader = ({ context }: { context: RouterContext }) =>
  Promise.all([context.queryClient.ensureQueryData(organizationQueries.get(context.api)), context.queryClient.ensureQueryData(retentionQueries.get(context.api))])
