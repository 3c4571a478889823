import { createLazyRoute, Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { AuthCard } from '../features/auth/components/auth-card'
import { authLinkClass, FormError } from '../components/form-message'
import { AcceptInviteForm } from '../features/members/components/accept-invite-form'
import { ApiError } from '../lib/api-client'
import { errorMessage } from '../lib/error-message'

export const Route = createLazyRoute('/accept-invite')({
  component: AcceptInvitePage,
})

function AcceptInvitePage() {
  const { t } = useTranslation('invitation')
  const data = Route.useLoaderData()
  const { token } = Route.useSearch()
  const footer = (
    <>
      {t('alreadyMember')}{' '}
      <Link to="/login" className={authLinkClass}>
        {t('signIn')}
      </Link>
    </>
  )

  if (!data.invite) {
    const failure = data.failure ?? { code: 'INVITE_INVALID', status: 404 }
    return (
      <AuthCard title={t('unavailableTitle')} footer={footer}>
        <FormError>{errorMessage(t, new ApiError(failure.code, '', failure.status))}</FormError>
        <p className="mt-3 text-sm text-muted-foreground">
          {t(failure.code === 'INVITE_ALREADY_ACCEPTED' ? 'acceptedHint' : 'unavailableHint')}
        </p>
      </AuthCard>
    )
  }
  return (
    <AuthCard
      title={t('title', { organization: data.invite.organizationName })}
      description={t('description')}
      footer={footer}
    >
      <AcceptInviteForm token={token} invite={data.invite} />
    </AuthCard>
  )
}
