import { useSuspenseQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { useApi } from '../../../lib/use-api'
import { billingQueries } from '../api'
import { BillingInfoSection } from './billing-info-section'
import { SectionSkeleton } from './billing-section'
import { PlanSection } from './plan-section'
import { SeatsSection } from './seats-section'
import { SubscribeSection } from './subscribe-section'
import { SubscriptionSection } from './subscription-section'

/**
 * Admin Settings → Billing (cloud only). Without a subscription: the price and the subscribe
 * form; with one: its status, seats and billing address.
 */
export function BillingPage() {
  const api = useApi()
  const subscription = useSuspenseQuery(billingQueries.subscription(api)).data
  const price = useSuspenseQuery(billingQueries.price(api)).data

  if (!subscription) {
    return (
      <div className="grid gap-6">
        <PlanSection price={price} />
        <SubscribeSection price={price} />
      </div>
    )
  }
  return (
    <div className="grid gap-6">
      <SubscriptionSection subscription={subscription} />
      <SeatsSection subscription={subscription} />
      <BillingInfoSection subscription={subscription} />
    </div>
  )
}

/** The page while the subscription and the price load (the route's pending view). */
export function BillingPageSkeleton() {
  const { t } = useTranslation()
  const loading = t('loading')
  return (
    <div className="grid gap-6">
      <SectionSkeleton lines={2} label={loading} />
      <SectionSkeleton lines={6} label={loading} />
    </div>
  )
}
