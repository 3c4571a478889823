import { useSuspenseQuery } from '@tanstack/react-query'
import { createLazyRoute, useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Button } from '../components/ui/button'
import { SignOutLink } from '../features/auth/components/email-confirm-panel'
import { TwoFactorSetting } from '../features/settings/components/two-factor-setting'
import { sessionQueries } from '../lib/session'
import { useApi } from '../lib/use-api'

export const Route = createLazyRoute('/two-factor/setup')({
  component: TwoFactorSetupPage,
})

function TwoFactorSetupPage() {
  const { t } = useTranslation('settings')
  const api = useApi()
  const navigate = useNavigate()
  const me = useSuspenseQuery(sessionQueries.me(api)).data
  return (
    <main className="flex min-h-screen justify-center bg-muted/40 p-4 sm:py-12">
      <div className="grid w-full max-w-2xl content-start gap-6">
        <div className="grid gap-1">
          <h1 className="text-xl font-semibold">{t('twoFactor.setupTitle')}</h1>
          <p className="text-sm text-muted-foreground">{t('twoFactor.setupDescription')}</p>
        </div>
        <TwoFactorSetting />
        <div className="flex flex-wrap items-center justify-between gap-3">
          <SignOutLink />
          <Button disabled={me.twoFactorSetupRequired} onClick={() => navigate({ to: '/chat' })}>
            {t('twoFactor.continue')}
          </Button>
        </div>
      </div>
    </main>
  )
}
