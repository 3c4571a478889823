import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { Sparkles } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { subscriptionQueries } from '../../../lib/subscription'
import { systemQueries } from '../../../lib/system'
import { useApi } from '../../../lib/use-api'

/**
 * Above the composer of a cloud organisation without a subscription: the trial messages left,
 * counting down after every send, and once they are used up (or sending was refused for want of a
 * paid plan) that an upgrade is needed. Admins get the way to Billing. Nothing when self-hosted or
 * subscribed.
 */
export function UpgradeNotice(props: { isAdmin: boolean; refused?: boolean }) {
  const { t } = useTranslation('chat')
  const api = useApi()
  const isCloud = useQuery(systemQueries.info(api)).data?.isCloud ?? false
  const left = useQuery({ ...subscriptionQueries.active(api), enabled: isCloud }).data?.trialMessagesLeft
  const usedUp = props.refused || left === 0
  if (!usedUp && (left === undefined || left === null)) return null
  const upgrade = props.isAdmin ? (
    <Link to="/admin-settings/billing" className="font-medium text-foreground underline underline-offset-4">
      {t('common:nav.upgrade')}
    </Link>
  ) : (
    t('common:nav.upgradeAskAdmin')
  )
  return (
    <div role="status" data-testid="trial-notice" className="mx-auto mb-2 flex w-full max-w-3xl items-start gap-2 px-4 text-sm text-muted-foreground sm:px-5">
      <Sparkles aria-hidden className="mt-0.5 size-4 shrink-0 text-foreground" />
      {usedUp ? (
        <p>
          <span className="font-medium text-foreground">{t('errors:SUBSCRIPTION_REQUIRED')}</span> {upgrade}
        </p>
      ) : (
        <p>
          <span className="font-medium text-foreground">{t('trialMessagesLeft', { count: left ?? 0 })}</span>
          {props.isAdmin && <> {upgrade}</>}
        </p>
      )}
    </div>
  )
}
