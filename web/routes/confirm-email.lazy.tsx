import { createLazyRoute, Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Button } from '../components/ui/button'
import { AuthCard } from '../features/auth/components/auth-card'
import { authLinkClass } from '../components/form-message'
import { ApiError } from '../lib/api-client'
import { errorMessage } from '../lib/error-message'

export const Route = createLazyRoute('/confirm-email')({
  component: ConfirmEmailFailed,
})

function ConfirmEmailFailed() {
  const { t } = useTranslation('auth')
  const failure = Route.useLoaderData()
  return (
    <AuthCard
      title={t('confirmEmail.failedTitle')}
      footer={
        <Link to="/login" className={authLinkClass}>
          {t('backToSignIn')}
        </Link>
      }
    >
      <p role="alert" className="text-sm">
        {errorMessage(t, new ApiError(failure.code, '', failure.status))}
      </p>
      <p className="mt-2 text-sm text-muted-foreground">{t('confirmEmail.failedHint')}</p>
      <Button asChild variant="outline" className="mt-4 w-full">
        <Link to="/email-confirm">{t('confirmEmail.requestNew')}</Link>
      </Button>
    </AuthCard>
  )
}
