import { createRoute } from '@tanstack/react-router'
import { inviteQueries } from '../features/members/api'
import { ApiError, isApiError } from '../lib/api-client'
import { Route as rootRoute } from './__root'

type AcceptInviteSearch = { token: string }

/**
 * Loads the invitation by its token. Failures are returned as data (not thrown), so the error
 * screen renders the same on the server and in the browser.
 */
export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: '/accept-invite',
  // A missing token still renders the page, as the invalid-invitation screen.
  validateSearch: (search: Record<string, unknown>): AcceptInviteSearch => ({
    token: typeof search.token === 'string' ? search.token : '',
  }),
  loaderDeps: ({ search }) => ({ token: search.token }),
  loader: async ({ context, deps }) => {
    try {
      if (!deps.token) throw new ApiError('INVITE_INVALID', 'missing token', 404)
      return { invite: await context.queryClient.ensureQueryData(inviteQueries.preview(context.api, deps.token)) }
    } catch (error) {
      if (!isApiError(error)) throw error
      return { failure: { code: error.code, status: error.status } }
    }
  },
}).lazy(() => import('./accept-invite.lazy').then((m) => m.Route))
