import { createRoute, redirect } from '@tanstack/react-router'
import { authApi } from '../features/auth/api'
import { sessionQueries } from '../lib/session'
import { ApiError, isApiError } from '../lib/api-client'
import { Route as rootRoute } from './__root'

type ConfirmEmailSearch = { token: string }

/**
 * Confirms in the loader, so that on a first visit the server answers with the redirect itself.
 * Failures are returned as data (not thrown) so the error screen renders the same on both sides.
 */
export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: '/confirm-email',
  validateSearch: (search: Record<string, unknown>): ConfirmEmailSearch => ({
    token: typeof search.token === 'string' ? search.token : '',
  }),
  loaderDeps: ({ search }) => ({ token: search.token }),
  loader: async ({ context, deps }) => {
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
  },
}).lazy(() => import('./confirm-email.lazy').then((m) => m.Route))
