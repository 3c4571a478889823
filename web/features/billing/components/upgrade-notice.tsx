import { Link } from '@tanstack/react-router'
import { Sparkles } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { cn } from '../../../lib/cn'

/**
 * The paid-plan message for a feature the organisation may not use without a subscription
 * (answer code SUBSCRIPTION_REQUIRED): admins get the way to Billing, members are asked to turn
 * to an admin.
 */
export function UpgradeNotice(props: { isAdmin: boolean; className?: string }) {
  const { t } = useTranslation('billing')
  return (
    <div
      role="status"
      data-testid="upgrade-notice"
      className={cn(
        'flex items-start gap-2.5 rounded-lg border border-amber-600/30 bg-amber-500/10 px-3 py-2.5 text-sm text-foreground',
        props.className,
      )}
    >
      <Sparkles aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" />
      <p className="min-w-0">
        <span className="font-medium">{t('errors:SUBSCRIPTION_REQUIRED')}</span>{' '}
        {props.isAdmin ? (
          <Link to="/admin-settings/billing" className="font-medium underline underline-offset-4 hover:no-underline">
            {t('upgrade.toBilling')}
          </Link>
        ) : (
          <span className="text-muted-foreground">{t('upgrade.askAdmin')}</span>
        )}
      </p>
    </div>
  )
}
