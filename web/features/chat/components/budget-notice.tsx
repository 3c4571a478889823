import { useQuery } from '@tanstack/react-query'
import { Gauge } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { BUDGET_NOTICE_KEY, type BudgetNotice as Notice } from '../lib/reply-runner'

/** Above the composer once a send found 80% or more of a monthly budget spent: which budget, how much of it. */
export function BudgetNotice() {
  const { t, i18n } = useTranslation('chat')
  const notice = useQuery<Notice | null>({ queryKey: BUDGET_NOTICE_KEY, queryFn: () => null, initialData: null, staleTime: Number.POSITIVE_INFINITY }).data
  if (!notice) return null
  const limit =
    notice.metric === 'cost'
      ? new Intl.NumberFormat(i18n.language, { style: 'currency', currency: 'USD' }).format(notice.limit)
      : t('budgetTokens', { count: notice.limit, formatted: new Intl.NumberFormat(i18n.language).format(notice.limit) })
  const percent = Math.min(100, Math.floor((notice.spent / notice.limit) * 100))
  return (
    <div role="status" data-testid="budget-notice" className="mx-auto mb-2 flex w-full max-w-3xl items-start gap-2 px-4 text-sm text-muted-foreground sm:px-5">
      <Gauge aria-hidden className="mt-0.5 size-4 shrink-0 text-foreground" />
      <p>{t('budgetNotice', { context: notice.scope, percent, limit, group: notice.group ?? '' })}</p>
    </div>
  )
}
