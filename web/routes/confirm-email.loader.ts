import { redirect } from '@tanstack/react-router'
import { authApi } from '../features/auth/api'
import { ApiError, isApiError } from '../lib/api-client'
import { sessionQueries } from '../lib/session'
import type { RouterContext } from '../router-context'

/**
 * Confirms in the loader, so that on a first visit the server answers with the redirect itself.
 * Failures are returned as data (not thrown) so the error screen renders the same on both sides.
 */
export async function loader({ context, deps }: { context: RouterContext; deps: { token: string } }) {
  try {
    if (!deps.token) throw new ApiError('INVALID_CONFIRMATION_LINK', 'missing token', 400)
    await authApi.confirmEmail(context.api, deps.token)
  } catch (error) {
    if (!isApiError(error)) throw error
    if (error.code === 'EMAIL_NOT_VERIFIED') throw redirect({ to: '/email-confirm' })
    return { code: error.code, status: error.status }
  }
  context.queryClient.removeQueries({ queryKey: sessionQueries.me(context.api).queryKey })
  throw redirect({ to: '/login', search: { emailVerified: true } })
}
