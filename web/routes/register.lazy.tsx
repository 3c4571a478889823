import { useSuspenseQuery } from '@tanstack/react-query'
import { createLazyRoute, Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { AuthCard } from '../features/auth/components/auth-card'
import { authLinkClass } from '../components/form-message'
import { RegisterForm } from '../features/auth/components/register-form'
import { systemQueries } from '../lib/system'
import { useApi } from '../lib/use-api'

export const Route = createLazyRoute('/register')({
  component: RegisterPage,
})

function RegisterPage() {
  const { t } = useTranslation('auth')
  const { data: system } = useSuspenseQuery(systemQueries.info(useApi()))
  const footer = (
    <>
      {t('registration.haveAccount')}{' '}
      <Link to="/login" className={authLinkClass}>
        {t('signIn')}
      </Link>
    </>
  )

  if (system.registrationDisabled) {
    return (
      <AuthCard title={t('registration.closedTitle')} footer={footer}>
        <p className="text-sm">{t('REGISTRATION_DISABLED', { ns: 'errors' })}</p>
        <p className="mt-2 text-sm text-muted-foreground">{t('registration.closedHint')}</p>
      </AuthCard>
    )
  }
  return (
    <AuthCard title={t('registration.title')} description={t('registration.description')} footer={footer}>
      <RegisterForm isCloud={system.isCloud} />
    </AuthCard>
  )
}
