import { sessionListQuery } from '../features/settings/api'
import { twoFactorQueries } from '../features/settings/two-factor'
import { sessionQueries } from '../lib/session'
import type { RouterContext } from '../router-context'

export const loader = ({ context }: { context: RouterContext }) =>
  Promise.all([
    context.queryClient.ensureQueryData(sessionQueries.me(context.api)),
    context.queryClient.ensureQueryData(sessionListQuery(context.api)),
    context.queryClient.ensureQueryData(twoFactorQueries.status(context.api)),
    context.queryClient.ensureQueryData(twoFactorQueries.passkeys(context.api)),
  ])
