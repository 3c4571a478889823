import { CalendarClock, ReceiptText, UsersRound } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import type { Price } from '../api'
import { useMoney } from '../format'
import { SectionCard } from '../../../components/section-card'

/** What the paid plan costs and how it is billed (spec section 9): per user per month, yearly, by invoice. */
export function PlanSection(props: { price: Price }) {
  const { t } = useTranslation('billing')
  const money = useMoney()
  const price = money(props.price.pricePerSeatMonthlyCents, props.price.currency)
  const facts = [
    { icon: <CalendarClock />, title: t('plan.yearly'), text: t('plan.yearlyHint') },
    { icon: <ReceiptText />, title: t('plan.invoice'), text: t('plan.invoiceHint') },
    { icon: <UsersRound />, title: t('plan.seats'), text: t('plan.seatsHint') },
  ]
  return (
    <SectionCard id="plan" title={t('plan.title')} description={t('plan.description')}>
      <div className="grid gap-5">
        <p data-testid="price-explained" className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
          <span className="text-3xl font-semibold tracking-tight tabular-nums">{price}</span>
          {' '}
          <span className="text-sm text-muted-foreground">{t('plan.explained')}</span>
        </p>
        <ul className="grid gap-3 sm:grid-cols-3">
          {facts.map((fact) => (
            <li key={fact.title} className="flex gap-2.5 rounded-lg border p-3">
              <span aria-hidden className="mt-0.5 text-muted-foreground [&_svg]:size-4">
                {fact.icon}
              </span>
              <span className="grid gap-0.5">
                <span className="text-sm font-medium">{fact.title}</span>
                <span className="text-[13px] leading-snug text-muted-foreground">{fact.text}</span>
              </span>
            </li>
          ))}
        </ul>
      </div>
    </SectionCard>
  )
}
