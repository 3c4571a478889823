import { createLazyRoute, Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { AuthCard } from '../features/auth/components/auth-card'
import { authLinkClass } from '../components/form-message'
import { PasswordResetForm } from '../features/auth/components/password-reset-form'

export const Route = createLazyRoute('/password/reset')({
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
