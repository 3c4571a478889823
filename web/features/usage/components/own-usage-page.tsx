import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { SectionCard } from '../../../components/section-card'
import { useApi } from '../../../lib/use-api'
import { lastDays, usageQueries } from '../api'
import { OwnBudgetsCard } from './own-budgets-card'
import { OverTimeCard, QueryState, RangeCard, UsageTable, useRange } from './usage-sections'

/** Settings → Usage: the member's own tokens and cost over a range, by day and by model. */
export function OwnUsagePage() {
  const { t } = useTranslation('usage')
  const api = useApi()
  const range = useRange(lastDays())
  const { applied } = range
  const byDay = useQuery({ ...usageQueries.own(api, applied, 'day'), placeholderData: keepPreviousData })
  const byModel = useQuery({ ...usageQueries.own(api, applied, 'model'), placeholderData: keepPreviousData })
  return (
    <div className="grid gap-6">
      <RangeCard id="own-usage" title={t('ownTitle')} description={t('ownDescription')} range={range} report={byDay.data} />
      <OverTimeCard id="own-usage-over-time" range={applied} query={byDay} />
      <SectionCard id="own-usage-models" title={t('breakdowns.model')}>
        <QueryState query={byModel}>
          <div className="rounded-md border">
            <UsageTable caption={t('breakdowns.model')} keyHeader={t('columns.model')} rows={byModel.data?.rows ?? []} keyLabel={(r) => r.key} bars />
          </div>
        </QueryState>
      </SectionCard>
      <OwnBudgetsCard />
    </div>
  )
}
