import { createRoute } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { AuthCard } from '../features/auth/components/auth-card'
import { EmailConfirmPanel, SignOutLink } from '../features/auth/components/email-confirm-panel'
import { Route as rootRoute } from './__root'

type EmailConfirmSearch = { email?: string }

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: '/email-confirm',
  validateSearch: (search: Record<string, unknown>): EmailConfirmSearch => ({
    email: typeof search.email === 'string' && search.email.includes('@') ? search.email : undefined,
  }),
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
