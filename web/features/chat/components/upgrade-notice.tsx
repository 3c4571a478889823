import { Link } from '@tanstack/react-router'
import { Sparkles } from 'lucide-react'
import { useTranslation } from 'react-i18next'

/** Shown once sending was refused for want of a paid plan: admins get the way to Billing. */
export function UpgradeNotice(props: { isAdmin: boolean }) {
  const { t } = useTranslation('chat')
  return (
    <div role="status" className="mx-auto mb-2 flex w-full max-w-3xl items-start gap-2 px-4 text-sm text-muted-foreground sm:px-5">
      <Sparkles aria-hidden className="mt-0.5 size-4 shrink-0 text-foreground" />
      <p>
        <span className="font-medium text-foreground">{t('errors:SUBSCRIPTION_REQUIRED')}</span>{' '}
        {props.isAdmin ? (
          <Link to="/admin-settings/billing" className="font-medium text-foreground underline underline-offset-4">
            {t('common:nav.upgrade')}
          </Link>
        ) : (
          t('common:nav.upgradeAskAdmin')
        )}
      </p>
    </div>
  )
}
