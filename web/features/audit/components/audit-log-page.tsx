import { useInfiniteQuery } from '@tanstack/react-query'
import { Download } from '../../../components/icons'
import { useDeferredValue, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { RowsSkeleton } from '../../../components/rows-skeleton'
import { SectionCard } from '../../../components/section-card'
import { Button } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import { Label } from '../../../components/ui/label'
import { NativeSelect } from '../../../components/ui/native-select'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { AUDIT_ACTIONS, auditCsvHref, auditQueries, type AuditAction, type AuditEntryView, type AuditFilters } from '../api'

/** Admin Settings → Audit log: who changed what, filtered, paged, and as a CSV download. */
export function AuditLogPage() {
  const { t } = useTranslation('audit')
  const [filters, setFilters] = useState<AuditFilters>({})
  // Typing in the actor field asks once the typing settles, not for every letter.
  const applied = useDeferredValue(filters)
  const set = (change: AuditFilters) => setFilters((current) => ({ ...current, ...change }))

  return (
    <SectionCard
      flush
      id="audit-log"
      title={t('title')}
      description={t('description')}
      action={
        <Button asChild variant="outline">
          <a href={auditCsvHref(applied)} download>
            <Download />
            {t('downloadCsv')}
          </a>
        </Button>
      }
    >
      <div role="search" aria-label={t('filters')} className="grid gap-3 border-b px-4 py-3 sm:grid-cols-4 sm:px-5">
        <div className="grid gap-1.5">
          <Label htmlFor="audit-action">{t('action')}</Label>
          <NativeSelect id="audit-action" value={filters.action ?? ''} onChange={(e) => set({ action: e.target.value as AuditAction | '' })}>
            <option value="">{t('allActions')}</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {t(`actions.${action}`)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-actor">{t('actor')}</Label>
          <Input id="audit-actor" type="search" value={filters.actor ?? ''} placeholder={t('actorPlaceholder')} onChange={(e) => set({ actor: e.target.value })} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-from">{t('from')}</Label>
          <Input id="audit-from" type="date" value={filters.from ?? ''} max={filters.to || undefined} onChange={(e) => set({ from: e.target.value })} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-to">{t('to')}</Label>
          <Input id="audit-to" type="date" value={filters.to ?? ''} min={filters.from || undefined} onChange={(e) => set({ to: e.target.value })} />
        </div>
      </div>
      <AuditTable filters={applied} />
    </SectionCard>
  )
}

function AuditTable(props: { filters: AuditFilters }) {
  const { t } = useTranslation('audit')
  const api = useApi()
  const query = useInfiniteQuery({ ...auditQueries.list(api, props.filters), placeholderData: (previous) => previous })
  if (query.isPending) return <RowsSkeleton label={t('common:loading')} />
  if (query.isError) {
    return (
      <p role="alert" className="px-4 py-6 text-sm text-destructive sm:px-5">
        {errorMessage(t, query.error)}
      </p>
    )
  }
  const entries = query.data.pages.flatMap((page) => page.entries)
  if (!entries.length) return <p className="px-4 py-6 text-sm text-muted-foreground sm:px-5">{t('empty')}</p>
  return (
    <>
      <Table aria-labelledby="audit-log-title">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead className="w-px">{t('time')}</TableHead>
            <TableHead>{t('actor')}</TableHead>
            <TableHead>{t('action')}</TableHead>
            <TableHead>{t('target')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {entries.map((entry) => (
            <AuditRow key={entry.id} entry={entry} />
          ))}
        </TableBody>
      </Table>
      {query.hasNextPage && (
        <div className="flex justify-center border-t px-4 py-3">
          <Button variant="outline" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
            {query.isFetchingNextPage ? t('common:loading') : t('loadMore')}
          </Button>
        </div>
      )}
    </>
  )
}

function AuditRow({ entry }: { entry: AuditEntryView }) {
  const { t, i18n } = useTranslation('audit')
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' }).format(new Date(entry.createdAt))
  const { from, to, ...rest } = entry.details
  // Roles read in the reader's language; other values (names) as they were.
  const value = (v: unknown) => (entry.action === 'member.role_changed' ? t(`common:roles.${String(v)}`, { defaultValue: String(v) }) : String(v))
  const change = from !== undefined && to !== undefined ? [`${value(from)} → ${value(to)}`] : []
  const details = [
    ...change,
    ...Object.entries(rest)
      .filter(([, value]) => value !== null && typeof value !== 'object')
      .map(([key, value]) => `${key}: ${String(value)}`),
  ].join(', ')
  return (
    <TableRow data-testid="audit-row">
      <TableCell className="whitespace-nowrap">
        <time dateTime={entry.createdAt}>{time} UTC</time>
        <div className="text-[13px] text-muted-foreground">{entry.address}</div>
        {entry.requestId && (
          <div className="max-w-40 truncate text-[13px] text-muted-foreground" title={`${t('requestId')}: ${entry.requestId}`}>
            {t('requestId')}: {entry.requestId}
          </div>
        )}
      </TableCell>
      <TableCell className="min-w-36">
        <div className="font-medium">{entry.actor.name ?? '–'}</div>
        <div className="text-[13px] text-muted-foreground [overflow-wrap:anywhere]">{entry.actor.email}</div>
      </TableCell>
      <TableCell className="min-w-36">{t(`actions.${entry.action}`, { defaultValue: entry.action })}</TableCell>
      <TableCell className="min-w-36">
        <div className="[overflow-wrap:anywhere]">{entry.target.label ?? entry.target.id ?? '–'}</div>
        {details && <div className="text-[13px] text-muted-foreground [overflow-wrap:anywhere]">{details}</div>}
      </TableCell>
    </TableRow>
  )
}

/** What the page looks like while its first page loads (the route's pending view). */
export function AuditLogPageSkeleton() {
  const { t } = useTranslation('audit')
  return (
    <SectionCard flush id="audit-log" title={t('title')} description={t('description')}>
      <RowsSkeleton label={t('common:loading')} />
    </SectionCard>
  )
}
