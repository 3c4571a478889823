import { createLazyRoute, Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { AuthCard } from '../features/auth/components/auth-card'
import { LoginForm } from '../features/auth/components/login-form'

export const Route = createLazyRoute('/login')({
  component: LoginPage,
})

function LoginPage() {
  const { t } = useTranslation('auth')
  const search = Route.useSearch()
  return (
    <AuthCard
      title={t('loginTitle')}
      description={t('loginDescription')}
      footer={
        <>
          {t('noAccount')}{' '}
          <Link to="/register" className="font-medium text-foreground underline-offset-4 hover:underline">
            {t('register')}
          </Link>
        </>
      }
    >
      {search.emailVerified && (
        <p role="status" className="mb-4 rounded-md border border-emerald-600/30 bg-emerald-600/10 px-3 py-2 text-sm">
          {t('emailVerifiedNotice')}
        </p>
      )}
      <LoginForm redirect={search.redirect} ssoError={search.error} />
    </AuthCard>
  )
}
