import { inviteQueries } from '../features/members/api'
import { ApiError, isApiError } from '../lib/api-client'
import type { RouterContext } from '../router-context'

/**
 * Loads the invitation by its token. Failures are returned as data (not thrown), so the error
 * screen renders the same on the server and in the browser.
 */
export async function loader({ context, deps }: { context: RouterContext; deps: { token: string } }) {
  try {
    if (!deps.token) throw new ApiError('INVITE_INVALID', 'missing token', 404)
    return { invite: await context.queryClient.ensureQueryData(inviteQueries.preview(context.api, deps.token)) }
  } catch (error) {
    if (!isApiError(error)) throw error
    return { failure: { code: error.code, status: error.status } }
  }
}
