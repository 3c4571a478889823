import { createRoute, Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { AuthCard } from '../features/auth/components/auth-card'
import { authLinkClass } from '../features/auth/components/form-message'
import { PasswordResetForm } from '../features/auth/components/password-reset-form'
import { Route as rootRoute } from './__root'

type PasswordResetSearch = { token: string }

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: '/password/reset',
  // A missing token still renders the page, as the invalid-link screen.
  validateSearch: (search: Record<string, unknown>): PasswordResetSearch => ({
    token: typeof search.token === 'string' ? search.token : '',
  }),
  component: PasswordResetPage,
})

function PasswordResetPage() {
  const { t } = useTranslation('auth')
  const { token } = Route.useSearch()
  return (
    <AuthCard
      title={t('passwordReset.title')}
      footer={
        <Link to="/login" className={authLinkClass}>
          {t('backToSignIn')}
        </Link>
      }
    >
      <PasswordResetForm token={token} />
    </AuthCard>
  )
}
