import { redirect } from '@tanstack/react-router'
import { twoFactorQueries } from '../features/settings/two-factor'
import { isApiError } from '../lib/api-client'
import type { RouterContext } from '../router-context'

/** The member's second factors, which the set-up shows; an API error sends them to sign in, as the guard does. */
export async function loader({ context }: { context: RouterContext }) {
  try {
    await Promise.all([
      context.queryClient.ensureQueryData(twoFactorQueries.status(context.api)),
      context.queryClient.ensureQueryData(twoFactorQueries.passkeys(context.api)),
    ])
  } catch (error) {
    if (!isApiError(error)) throw error
    throw redirect({ to: '/login' })
  }
}
