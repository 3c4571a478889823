import { useTranslation } from 'react-i18next'
import { LocalDate } from '../../../components/local-date'
import { Badge } from '../../../components/ui/badge'
import type { Subscription } from '../api'
import { useCount, useMoney } from '../format'
import { Fact } from './billing-section'
import { SubscriptionActions } from './subscription-actions'
import { SectionCard } from '../../../components/section-card'

/** Where the subscription stands: status, renewal (or end), price per seat and yearly total. */
export function SubscriptionSection(props: { subscription: Subscription }) {
  const { t } = useTranslation('billing')
  const money = useMoney()
  const count = useCount()
  const s = props.subscription
  const cancelled = s.status === 'cancelled'

  return (
    <SectionCard
      id="subscription"
      title={
        <>
          {t('subscription.title')}
          <Badge data-testid="subscription-status" variant={cancelled ? 'warning' : 'success'}>
            {t(`subscription.status.${s.status}`)}
          </Badge>
        </>
      }
      description={cancelled ? t('subscription.cancelledDescription') : t('subscription.activeDescription')}
      footer={<SubscriptionActions subscription={s} />}
    >
      <dl className="grid grid-cols-2 gap-x-6 gap-y-4">
        <Fact label={t('subscription.statusLabel')}>
          <span data-testid="subscription-state">
            {cancelled ? (
              <>
                {t('subscription.status.cancelled')}, {t('subscription.endsOn')} <LocalDate iso={s.nextRenewalAt} />
              </>
            ) : (
              t('subscription.status.active')
            )}
          </span>
        </Fact>
        {cancelled && s.cancelledAt ? (
          <Fact label={t('subscription.cancelledOn')}>
            <LocalDate iso={s.cancelledAt} />
          </Fact>
        ) : (
          <Fact label={t('subscription.renewsLabel')}>
            <span data-testid="subscription-renews">
              <LocalDate iso={s.nextRenewalAt} />
            </span>
          </Fact>
        )}
        <Fact label={t('subscription.pricePerSeat')}>
          {money(s.pricePerSeatMonthlyCents, s.currency)} <span className="font-normal text-muted-foreground">{t('plan.perUserPerMonth')}</span>
        </Fact>
        <Fact label={t('subscription.yearlyTotal')}>
          <span data-testid="subscription-yearly-total">{money(s.yearlyTotalCents, s.currency)}</span>{' '}
          <span className="font-normal text-muted-foreground">{t('subscription.seatCount', { count: s.seats, seats: count(s.seats) })}</span>
        </Fact>
        <Fact label={t('subscription.started')}>
          <LocalDate iso={s.startedAt} />
        </Fact>
        <Fact label={t('subscription.paymentLabel')}>{t('subscription.payment')}</Fact>
      </dl>
    </SectionCard>
  )
}
