import { securityQueries } from '../features/security/api'
import { scimQueries } from '../features/security/scim-api'
import type { RouterContext } from '../router-context'

export const loader = ({ context }: { context: RouterContext }) =>
  Promise.all([
    context.queryClient.ensureQueryData(securityQueries.sso(context.api)),
    context.queryClient.ensureQueryData(securityQueries.twoFactorRequirement(context.api)),
    context.queryClient.ensureQueryData(scimQueries.tokens(context.api)),
  ])
