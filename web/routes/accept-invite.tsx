import { createRoute, Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { AuthCard } from '../features/auth/components/auth-card'
import { authLinkClass, FormError } from '../features/auth/components/form-message'
import { inviteQueries } from '../features/members/api'
import { AcceptInviteForm } from '../features/members/components/accept-invite-form'
import { ApiError, isApiError } from '../lib/api-client'
import { errorMessage } from '../lib/error-message'
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
  component: AcceptInvitePage,
})

function AcceptInvitePage() {
  const { t } = useTranslation('members')
  const data = Route.useLoaderData()
  const { token } = Route.useSearch()
  const footer = (
    <>
      {t('accept.alreadyMember')}{' '}
      <Link to="/login" className={authLinkClass}>
        {t('accept.signIn')}
      </Link>
    </>
  )

  if (!data.invite) {
    const failure = data.failure ?? { code: 'INVITE_INVALID', status: 404 }
    return (
      <AuthCard title={t('accept.unavailableTitle')} footer={footer}>
        <FormError>{errorMessage(t, new ApiError(failure.code, '', failure.status))}</FormError>
        <p className="mt-3 text-sm text-muted-foreground">
          {t(failure.code === 'INVITE_ALREADY_ACCEPTED' ? 'accept.acceptedHint' : 'accept.unavailableHint')}
        </p>
      </AuthCard>
    )
  }
  return (
    <AuthCard
      title={t('accept.title', { organization: data.invite.organizationName })}
      description={t('accept.description')}
      footer={footer}
    >
      <AcceptInviteForm token={token} invite={data.invite} />
    </AuthCard>
  )
}
