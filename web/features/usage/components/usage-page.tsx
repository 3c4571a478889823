import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { SectionCard } from '../../../components/section-card'
import { Label } from '../../../components/ui/label'
import { NativeSelect } from '../../../components/ui/native-select'
import { useApi } from '../../../lib/use-api'
import { lastDays, usageCsvHref, usageQueries, type UsageRow } from '../api'
import { BudgetsCard } from './budgets-card'
import { CsvLink, OverTimeCard, QueryState, RangeCard, UsageTable, useRange } from './usage-sections'

type Breakdown = 'user' | 'group' | 'model'

/** Admin Settings → Usage: the organisation's tokens and cost over a range, by day, member, group and model. */
export function UsagePage() {
  const { t } = useTranslation('usage')
  const api = useApi()
  const range = useRange(lastDays())
  const { applied } = range
  const byDay = useQuery({ ...usageQueries.report(api, applied, 'day'), placeholderData: keepPreviousData })
  return (
    <div className="grid gap-6">
      <RangeCard id="usage" title={t('title')} description={t('description')} range={range} report={byDay.data} />
      <OverTimeCard id="usage-over-time" range={applied} query={byDay} csvHref={usageCsvHref(applied, 'day')} />
      <BreakdownCard range={applied} />
      <BudgetsCard />
    </div>
  )
}

function BreakdownCard(props: { range: { from: string; to: string } }) {
  const { t } = useTranslation('usage')
  const api = useApi()
  const [by, setBy] = useState<Breakdown>('user')
  const query = useQuery({ ...usageQueries.report(api, props.range, by), placeholderData: keepPreviousData })
  const keyLabel = (r: UsageRow) => {
    if (by === 'model') return r.key
    if (by === 'group') return r.key === null ? <span className="text-muted-foreground">{t('noGroup')}</span> : r.label
    return r.label ?? <span className="text-muted-foreground">{t('removedMember')}</span>
  }
  return (
    <SectionCard
      flush
      id="usage-breakdown"
      title={t('breakdown')}
      description={t('breakdownDescription')}
      action={
        <div className="flex flex-wrap items-end gap-2">
          <div className="grid gap-1.5">
            <Label htmlFor="usage-by">{t('by')}</Label>
            <NativeSelect id="usage-by" value={by} onChange={(e) => setBy(e.target.value as Breakdown)}>
              <option value="user">{t('breakdowns.user')}</option>
              <option value="group">{t('breakdowns.group')}</option>
              <option value="model">{t('breakdowns.model')}</option>
            </NativeSelect>
          </div>
          <CsvLink href={usageCsvHref(props.range, by)} />
        </div>
      }
    >
      <div className="px-4 py-4 sm:px-5">
        <QueryState query={query}>
          <div className="rounded-md border">
            <UsageTable caption={t(`breakdowns.${by}`)} keyHeader={t(`columns.${by}`)} rows={query.data?.rows ?? []} keyLabel={keyLabel} bars />
          </div>
          {by === 'group' && <p className="mt-2 text-[13px] text-muted-foreground">{t('groupNote')}</p>}
        </QueryState>
      </div>
    </SectionCard>
  )
}
