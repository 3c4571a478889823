import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Trash2 } from '../../../components/icons'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { SectionCard } from '../../../components/section-card'
import { Button } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import { Label } from '../../../components/ui/label'
import { NativeSelect } from '../../../components/ui/native-select'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table'
import { isApiError } from '../../../lib/api-client'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { budgetQueries, budgetsApi, type BudgetInput, type BudgetView } from '../api'
import { QueryState, useFormats } from './usage-sections'

/** Monthly budgets of the organisation, its groups and members: set, replace, remove; this month's spend of each. */
export function BudgetsCard() {
  const { t } = useTranslation('usage')
  const api = useApi()
  const queryClient = useQueryClient()
  const list = useQuery(budgetQueries.list(api))
  const remove = useMutation({
    mutationFn: (id: string) => budgetsApi.remove(api, id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['budgets'] }),
  })
  return (
    <SectionCard id="usage-budgets" title={t('budgets.title')} description={t('budgets.description')} flush>
      <div className="grid gap-4 px-4 py-4 sm:px-5">
        <BudgetForm />
        <QueryState query={list}>
          {list.data?.length ? (
            <div className="rounded-md border">
              <Table>
                <caption className="sr-only">{t('budgets.title')}</caption>
                <TableHeader>
                  <TableRow className="hover:bg-transparent">
                    <TableHead>{t('budgets.for')}</TableHead>
                    <TableHead className="text-right">{t('budgets.limit')}</TableHead>
                    <TableHead className="text-right">{t('budgets.spent')}</TableHead>
                    <TableHead className="w-px">
                      <span className="sr-only">{t('budgets.remove')}</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {list.data.map((b) => (
                    <BudgetRow key={b.id} budget={b} onRemove={() => remove.mutate(b.id)} />
                  ))}
                </TableBody>
              </Table>
            </div>
          ) : (
            <p className="text-sm text-muted-foreground">{t('budgets.none')}</p>
          )}
        </QueryState>
        {remove.isError && (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(t, remove.error)}
          </p>
        )}
      </div>
    </SectionCard>
  )
}

function BudgetRow(props: { budget: BudgetView; onRemove: () => void }) {
  const { t } = useTranslation('usage')
  const f = useFormats()
  const b = props.budget
  const amount = (n: number) => (b.metric === 'cost' ? f.cost(n) : t('budgets.tokens', { count: n, formatted: f.count(n) }))
  const target = b.scope === 'organization' ? t('budgets.scopes.organization') : `${t(`budgets.scopes.${b.scope}`)}: ${b.label ?? b.targetId}`
  const percent = Math.floor((b.spent / b.limit) * 100)
  return (
    <TableRow data-testid="budget-row">
      <TableCell className="min-w-32 [overflow-wrap:anywhere]">{target}</TableCell>
      <TableCell className="text-right tabular-nums">{amount(b.limit)}</TableCell>
      <TableCell className="text-right tabular-nums">
        {amount(b.spent)} ({percent} %)
      </TableCell>
      <TableCell>
        <Button variant="ghost" size="icon" aria-label={t('budgets.removeFor', { target })} onClick={props.onRemove}>
          <Trash2 />
        </Button>
      </TableCell>
    </TableRow>
  )
}

function BudgetForm() {
  const { t } = useTranslation('usage')
  const api = useApi()
  const queryClient = useQueryClient()
  const [scope, setScope] = useState<BudgetInput['scope']>('organization')
  const [targetId, setTargetId] = useState('')
  const [metric, setMetric] = useState<BudgetInput['metric']>('cost')
  const [limit, setLimit] = useState('')
  const groups = useQuery({ ...budgetQueries.groups(api), enabled: scope === 'group' })
  const members = useQuery({ ...budgetQueries.members(api), enabled: scope === 'user' })
  const targets = scope === 'group' ? groups.data : scope === 'user' ? members.data : undefined
  const save = useMutation({
    mutationFn: (input: BudgetInput) => budgetsApi.set(api, input),
    onSuccess: () => setLimit(''),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['budgets'] }),
  })
  const fields = isApiError(save.error) ? save.error.fields : undefined
  const submit = (e: FormEvent) => {
    e.preventDefault()
    save.mutate({ scope, metric, limit: Number(limit.replace(',', '.')), ...(scope !== 'organization' && { targetId }) })
  }
  return (
    <form onSubmit={submit} aria-label={t('budgets.set')} className="flex flex-wrap items-end gap-3">
      <div className="grid gap-1.5">
        <Label htmlFor="budget-scope">{t('budgets.for')}</Label>
        <NativeSelect
          id="budget-scope"
          value={scope}
          onChange={(e) => {
            setScope(e.target.value as BudgetInput['scope'])
            setTargetId('')
          }}
        >
          {(['organization', 'group', 'user'] as const).map((s) => (
            <option key={s} value={s}>
              {t(`budgets.scopes.${s}`)}
            </option>
          ))}
        </NativeSelect>
      </div>
      {scope !== 'organization' && (
        <div className="grid gap-1.5">
          <Label htmlFor="budget-target">{t(`budgets.scopes.${scope}`)}</Label>
          <NativeSelect id="budget-target" value={targetId} required aria-invalid={fields?.targetId ? true : undefined} onChange={(e) => setTargetId(e.target.value)}>
            <option value="">{t('budgets.choose')}</option>
            {targets?.map((x) => (
              <option key={x.id} value={x.id}>
                {x.name}
              </option>
            ))}
          </NativeSelect>
        </div>
      )}
      <div className="grid gap-1.5">
        <Label htmlFor="budget-metric">{t('budgets.metric')}</Label>
        <NativeSelect id="budget-metric" value={metric} onChange={(e) => setMetric(e.target.value as BudgetInput['metric'])}>
          <option value="cost">{t('metrics.cost')}</option>
          <option value="tokens">{t('metrics.tokens')}</option>
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="budget-limit">{t('budgets.monthlyLimit')}</Label>
        <Input
          id="budget-limit"
          inputMode="decimal"
          required
          className="w-36"
          value={limit}
          aria-invalid={fields?.limit ? true : undefined}
          aria-describedby={save.isError ? 'budget-error' : undefined}
          onChange={(e) => setLimit(e.target.value)}
        />
      </div>
      <Button type="submit" disabled={save.isPending}>
        {t('budgets.save')}
      </Button>
      {save.isError && (
        <p id="budget-error" role="alert" className="basis-full text-sm text-destructive">
          {fields?.limit ? t('budgets.invalidLimit') : fields?.targetId ? t('budgets.invalidTarget') : errorMessage(t, save.error)}
        </p>
      )}
    </form>
  )
}
