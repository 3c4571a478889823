import { useTranslation } from 'react-i18next'
import { cn } from '../../../lib/cn'
import type { Subscription } from '../api'
import { useCount } from '../format'
import { Fact } from './billing-section'
import { SeatsForm } from './seats-form'
import { SectionCard } from '../../../components/section-card'

/** Seats bought, taken (members and pending invitations) and free, and the form to change them. */
export function SeatsSection(props: { subscription: Subscription }) {
  const { t } = useTranslation('billing')
  const s = props.subscription
  const count = useCount()
  const usedShare = s.seats > 0 ? Math.min(100, Math.round((s.usedSeats / s.seats) * 100)) : 0

  return (
    <SectionCard id="seats" title={t('seats.title')} description={t('seats.description')}>
      <div className="grid gap-5">
        <div className="grid gap-3">
          <dl className="grid grid-cols-3 gap-4">
            <Fact label={t('seats.total')}>
              <span data-testid="seats-total" className="text-lg tabular-nums">
                {count(s.seats)}
              </span>
            </Fact>
            <Fact label={t('seats.used')}>
              <span data-testid="seats-used" className="text-lg tabular-nums">
                {count(s.usedSeats)}
              </span>
            </Fact>
            <Fact label={t('seats.available')}>
              <span data-testid="seats-available" className="text-lg tabular-nums">
                {count(s.availableSeats)}
              </span>
            </Fact>
          </dl>
          <div
            role="meter"
            aria-label={t('seats.usage')}
            aria-valuemin={0}
            aria-valuemax={s.seats}
            aria-valuenow={Math.min(s.usedSeats, s.seats)}
            aria-valuetext={t('seats.usageText', { used: count(s.usedSeats), seats: count(s.seats) })}
            className="h-1.5 overflow-hidden rounded-full bg-muted"
          >
            <div
              className={cn('h-full rounded-full transition-[width]', s.availableSeats === 0 ? 'bg-amber-500' : 'bg-primary/80')}
              style={{ width: `${usedShare}%` }}
            />
          </div>
        </div>
        <div className="border-t pt-5">
          {s.status === 'active' ? (
            <SeatsForm subscription={s} />
          ) : (
            <p className="text-sm text-muted-foreground">{t('seats.reactivateFirst')}</p>
          )}
        </div>
      </div>
    </SectionCard>
  )
}
