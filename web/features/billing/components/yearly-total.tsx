import { useTranslation } from 'react-i18next'
import { cn } from '../../../lib/cn'
import { useCount, useMoney, yearlyCents } from '../format'

/**
 * The yearly total for the seats typed so far, worked out in front of the reader
 * ("3 seats × €15.00 × 12 months"). Announced politely as it changes.
 */
export function YearlyTotal(props: { seats: number | null; pricePerSeatMonthlyCents: number; currency: string; className?: string }) {
  const { t } = useTranslation('billing')
  const money = useMoney()
  const count = useCount()
  const seats = props.seats
  return (
    <div
      aria-live="polite"
      data-testid="yearly-total"
      className={cn('flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 rounded-lg border bg-muted/40 px-4 py-3', props.className)}
    >
      <div className="grid gap-0.5">
        <span className="text-sm font-medium">{t('total.label')}</span>
        <span className="text-[13px] text-muted-foreground">
          {seats === null
            ? t('total.enterSeats')
            : t('total.breakdown', {
                count: seats,
                seats: count(seats),
                price: money(props.pricePerSeatMonthlyCents, props.currency),
              })}
        </span>
      </div>
      <span className="text-lg font-semibold tabular-nums">
        {seats === null ? '–' : money(yearlyCents(seats, props.pricePerSeatMonthlyCents), props.currency)}
      </span>
    </div>
  )
}
