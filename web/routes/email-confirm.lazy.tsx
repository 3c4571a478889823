import { createLazyRoute } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { AuthCard } from '../features/auth/components/auth-card'
import { EmailConfirmPanel, SignOutLink } from '../features/auth/components/email-confirm-panel'

export const Route = createLazyRoute('/email-confirm')({
  component: EmailConfirmPage,
})

function EmailConfirmPage() {
  const { t } = useTranslation('auth')
  const { email } = Route.useSearch()
  return (
    <AuthCard
      title={t('emailConfirm.title')}
      footer={<SignOutLink />}
    >
      <EmailConfirmPanel email={email} />
    </AuthCard>
  )
}
