import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { SectionCard } from '../../../components/section-card'
import { cn } from '../../../lib/cn'
import { useApi } from '../../../lib/use-api'
import { budgetQueries, type BudgetView } from '../api'
import { QueryState, useFormats } from './usage-sections'

/** Settings → Usage: the monthly budgets that apply to the member, how much of each is used, when it starts again. */
export function OwnBudgetsCard() {
  const { t } = useTranslation('usage')
  const api = useApi()
  const list = useQuery(budgetQueries.own(api))
  return (
    <SectionCard id="own-budgets" title={t('ownBudgets.title')} description={t('ownBudgets.description')}>
      <QueryState query={list}>
        {list.data?.length ? (
          <ul className="grid gap-4">
            {list.data.map((b) => (
              <OwnBudget key={b.id} budget={b} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">{t('ownBudgets.none')}</p>
        )}
      </QueryState>
    </SectionCard>
  )
}

function OwnBudget(props: { budget: BudgetView }) {
  const { t } = useTranslation('usage')
  const f = useFormats()
  const b = props.budget
  const amount = (n: number) => (b.metric === 'cost' ? f.cost(n) : t('budgets.tokens', { count: n, formatted: f.count(n) }))
  const whose = b.scope === 'group' ? t('ownBudgets.group', { name: b.label ?? '' }) : t(`ownBudgets.${b.scope}`)
  const percent = Math.min(100, Math.floor((b.spent / b.limit) * 100))
  return (
    <li className="grid gap-1.5" data-testid="own-budget">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="font-medium [overflow-wrap:anywhere]">{whose}</span>
        <span className="text-sm tabular-nums text-muted-foreground">
          {t('ownBudgets.used', { spent: amount(b.spent), limit: amount(b.limit), percent })}
        </span>
      </div>
      <div role="progressbar" aria-label={whose} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-2 overflow-hidden rounded-full bg-muted">
        <div className={cn('h-full rounded-full', percent >= 100 ? 'bg-destructive' : percent >= 80 ? 'bg-amber-500' : 'bg-primary')} style={{ width: `${percent}%` }} />
      </div>
      <span className="text-[13px] text-muted-foreground">{t('ownBudgets.resetsOn', { date: f.day(b.resetsOn) })}</span>
    </li>
  )
}
