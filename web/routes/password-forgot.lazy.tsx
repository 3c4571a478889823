import { createLazyRoute, Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { AuthCard } from '../features/auth/components/auth-card'
import { authLinkClass } from '../components/form-message'
import { PasswordForgotForm } from '../features/auth/components/password-forgot-form'

export const Route = createLazyRoute('/password/forgot')({
  component: PasswordForgotPage,
})

function PasswordForgotPage() {
  const { t } = useTranslation('auth')
  return (
    <AuthCard
      title={t('passwordForgot.title')}
      description={t('passwordForgot.description')}
      footer={
        <Link to="/login" className={authLinkClass}>
          {t('backToSignIn')}
        </Link>
      }
    >
      <PasswordForgotForm />
    </AuthCard>
  )
}
