import type { UseQueryResult } from '@tanstack/react-query'
import { Download } from '../../../components/icons'
import { useCallback, useMemo, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { RowsSkeleton } from '../../../components/rows-skeleton'
import { SectionCard } from '../../../components/section-card'
import { Button } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import { Label } from '../../../components/ui/label'
import { NativeSelect } from '../../../components/ui/native-select'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table'
import { errorMessage } from '../../../lib/error-message'
import { everyDay, type UsageRange, type UsageReport, type UsageRow } from '../api'
import { UsageChart } from './usage-chart'

const MAX_DAYS = 366
const DAY_MS = 86_400_000

/** Number formats in the reader's language: US dollars (the catalogue's currency), tokens, calls. */
export function useFormats() {
  const { i18n } = useTranslation()
  return useMemo(() => {
    const cost = new Intl.NumberFormat(i18n.language, { style: 'currency', currency: 'USD', maximumFractionDigits: 4 })
    const count = new Intl.NumberFormat(i18n.language)
    const compact = new Intl.NumberFormat(i18n.language, { notation: 'compact', maximumFractionDigits: 1 })
    const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' })
    return {
      cost: (n: number) => cost.format(n),
      count: (n: number) => count.format(n),
      compact: (n: number) => compact.format(n),
      day: (iso: string) => day.format(new Date(`${iso}T00:00:00Z`)),
    }
  }, [i18n.language])
}

/** The range as chosen, and the range asked for: only a valid one (forwards, at most a year). */
export function useRange(initial: UsageRange) {
  const [range, setRange] = useState(initial)
  const [applied, setApplied] = useState(initial)
  const span = (Date.parse(range.to) - Date.parse(range.from)) / DAY_MS + 1
  const problem = !range.from || !range.to || Number.isNaN(span) ? 'missing' : span < 1 ? 'backwards' : span > MAX_DAYS ? 'tooLong' : null
  const change = (next: Partial<UsageRange>) => {
    const merged = { ...range, ...next }
    setRange(merged)
    const s = (Date.parse(merged.to) - Date.parse(merged.from)) / DAY_MS + 1
    if (s >= 1 && s <= MAX_DAYS) setApplied(merged)
  }
  return { range, applied, problem, change }
}

export function RangeFields(props: { idPrefix: string; range: UsageRange; problem: string | null; onChange: (next: Partial<UsageRange>) => void; children?: ReactNode }) {
  const { t } = useTranslation('usage')
  return (
    <div role="group" aria-label={t('range')} className="flex flex-wrap items-end gap-3">
      <div className="grid gap-1.5">
        <Label htmlFor={`${props.idPrefix}-from`}>{t('from')}</Label>
        <Input id={`${props.idPrefix}-from`} type="date" value={props.range.from} max={props.range.to || undefined} onChange={(e) => props.onChange({ from: e.target.value })} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${props.idPrefix}-to`}>{t('to')}</Label>
        <Input
          id={`${props.idPrefix}-to`}
          type="date"
          value={props.range.to}
          min={props.range.from || undefined}
          aria-invalid={props.problem ? true : undefined}
          aria-describedby={props.problem ? `${props.idPrefix}-range-problem` : undefined}
          onChange={(e) => props.onChange({ to: e.target.value })}
        />
      </div>
      {props.children}
      {props.problem && (
        <p id={`${props.idPrefix}-range-problem`} role="alert" className="basis-full text-sm text-destructive">
          {t(`rangeProblems.${props.problem}`, { max: MAX_DAYS })}
        </p>
      )}
    </div>
  )
}

/** The page's first card: its title, the date range and the range's totals. */
export function RangeCard(props: { id: string; title: string; description: string; range: ReturnType<typeof useRange>; report: UsageReport | undefined }) {
  const { range, problem, change } = props.range
  return (
    <SectionCard id={props.id} title={props.title} description={props.description}>
      <div className="grid gap-4">
        <RangeFields idPrefix={props.id} range={range} problem={problem} onChange={change} />
        <UsageTotals report={props.report} />
      </div>
    </SectionCard>
  )
}

/** The range's totals as four figures. */
export function UsageTotals(props: { report: UsageReport | undefined }) {
  const { t } = useTranslation('usage')
  const f = useFormats()
  const total = props.report?.total
  const figures = [
    ['cost', total ? f.cost(total.cost) : '–'],
    ['inputTokens', total ? f.count(total.inputTokens) : '–'],
    ['outputTokens', total ? f.count(total.outputTokens) : '–'],
    ['calls', total ? f.count(total.calls) : '–'],
  ] as const
  return (
    <div className="grid gap-2">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="usage-totals">
        {figures.map(([key, value]) => (
          <div key={key} className="rounded-lg border px-3 py-2.5">
            <dt className="text-xs text-muted-foreground">{t(`columns.${key}`)}</dt>
            <dd className="text-lg font-semibold tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      {total && total.estimatedCalls > 0 && <p className="text-[13px] text-muted-foreground">{t('estimated', { count: total.estimatedCalls })}</p>}
    </div>
  )
}

type Metric = 'cost' | 'tokens'

/** Usage by day: a bar chart and, beside it, the same numbers as a table. */
export function OverTimeCard(props: { id: string; range: UsageRange; query: UseQueryResult<UsageReport>; csvHref?: string }) {
  const { t } = useTranslation('usage')
  const f = useFormats()
  const [metric, setMetric] = useState<Metric>('cost')
  const report = props.query.data
  const days = useMemo(() => (report ? everyDay(props.range, report.rows) : []), [report, props.range])
  const value = useCallback((r: UsageRow) => (metric === 'cost' ? r.cost : r.inputTokens + r.outputTokens), [metric])
  const format = metric === 'cost' ? f.cost : f.compact
  return (
    <SectionCard
      id={props.id}
      title={t('overTime')}
      description={t('overTimeDescription')}
      action={
        <div className="flex flex-wrap items-end gap-2">
          <div className="grid gap-1.5">
            <Label htmlFor={`${props.id}-metric`}>{t('metric')}</Label>
            <NativeSelect id={`${props.id}-metric`} value={metric} onChange={(e) => setMetric(e.target.value as Metric)}>
              <option value="cost">{t('metrics.cost')}</option>
              <option value="tokens">{t('metrics.tokens')}</option>
            </NativeSelect>
          </div>
          {props.csvHref && <CsvLink href={props.csvHref} />}
        </div>
      }
    >
      <QueryState query={props.query}>
        <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <UsageChart days={days} value={value} format={format} label={t(`metrics.${metric}`)} />
          <div className="max-h-72 overflow-y-auto rounded-md border">
            <UsageTable caption={t('overTime')} keyHeader={t('columns.day')} rows={report?.rows ?? []} keyLabel={(r) => f.day(r.key ?? '')} />
          </div>
        </div>
      </QueryState>
    </SectionCard>
  )
}

export function CsvLink(props: { href: string }) {
  const { t } = useTranslation('usage')
  return (
    <Button asChild variant="outline">
      <a href={props.href} download>
        <Download />
        {t('downloadCsv')}
      </a>
    </Button>
  )
}

export function QueryState(props: { query: { isPending: boolean; isError: boolean; error: unknown }; children: ReactNode }) {
  const { t } = useTranslation('usage')
  if (props.query.isPending) return <RowsSkeleton label={t('common:loading')} />
  if (props.query.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(t, props.query.error)}
      </p>
    )
  }
  return props.children
}

/**
 * Rows of usage as a table; with `bars`, each row also shows its share of the largest cost as a
 * bar (hidden from screen readers, which read the numbers).
 */
export function UsageTable(props: { caption: string; keyHeader: string; rows: UsageRow[]; keyLabel: (row: UsageRow) => ReactNode; bars?: boolean }) {
  const { t } = useTranslation('usage')
  const f = useFormats()
  if (!props.rows.length) return <p className="px-4 py-6 text-sm text-muted-foreground">{t('empty')}</p>
  const most = Math.max(...props.rows.map((r) => r.cost), 0)
  return (
    <Table>
      <caption className="sr-only">{props.caption}</caption>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>{props.keyHeader}</TableHead>
          <TableHead className="text-right">{t('columns.cost')}</TableHead>
          <TableHead className="text-right">{t('columns.inputTokens')}</TableHead>
          <TableHead className="text-right">{t('columns.outputTokens')}</TableHead>
          <TableHead className="text-right">{t('columns.calls')}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {props.rows.map((r) => (
          <TableRow key={r.key ?? ''} data-testid="usage-row">
            <TableCell className="min-w-32">
              <div className="[overflow-wrap:anywhere]">{props.keyLabel(r)}</div>
              {props.bars && (
                <div aria-hidden className="mt-1 h-1.5 rounded-full bg-muted">
                  <div className="h-full rounded-full bg-primary" style={{ width: `${most > 0 ? (r.cost / most) * 100 : 0}%` }} />
                </div>
              )}
            </TableCell>
            <TableCell className="text-right tabular-nums">{f.cost(r.cost)}</TableCell>
            <TableCell className="text-right tabular-nums">{f.count(r.inputTokens)}</TableCell>
            <TableCell className="text-right tabular-nums">{f.count(r.outputTokens)}</TableCell>
            <TableCell className="text-right tabular-nums">{f.count(r.calls)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}
