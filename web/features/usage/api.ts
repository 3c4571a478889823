import { queryOptions } from '@tanstack/react-query'
import type { BudgetView, UsageReport } from '../../../src/api/usage/schema'
import type { ApiClient } from '../../lib/api-client'

export type { BudgetView, UsageReport }
export type UsageRange = { from: string; to: string }
export type UsageBreakdown = UsageReport['by']
export type UsageRow = UsageReport['rows'][number]

const DAY_MS = 86_400_000
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** The last 30 UTC days, today included (the roll-ups' days are UTC days). */
export function lastDays(days = 30, now = Date.now()): UsageRange {
  return { from: isoDay(now - (days - 1) * DAY_MS), to: isoDay(now) }
}

/** Every day of the range with its row, days without usage as zeros: what the chart draws. */
export function everyDay(range: UsageRange, rows: UsageRow[]): UsageRow[] {
  const byDay = new Map(rows.map((r) => [r.key, r]))
  const days: UsageRow[] = []
  for (let at = Date.parse(range.from); at <= Date.parse(range.to) && days.length <= 366; at += DAY_MS) {
    const key = isoDay(at)
    days.push(byDay.get(key) ?? { key, label: null, calls: 0, estimatedCalls: 0, inputTokens: 0, outputTokens: 0, cost: 0 })
  }
  return days
}

const search = (range: UsageRange, by: UsageBreakdown) => new URLSearchParams({ from: range.from, to: range.to, by }).toString()

export const usageCsvHref = (range: UsageRange, by: UsageBreakdown) => `/api/usage.csv?${search(range, by)}`

export const usageQueries = {
  /** The organisation's usage (admins). */
  report: (api: ApiClient, range: UsageRange, by: UsageBreakdown) =>
    queryOptions({ queryKey: ['usage', 'organization', range, by], queryFn: () => api.get<UsageReport>(`/usage?${search(range, by)}`) }),
  /** The signed-in member's own usage. */
  own: (api: ApiClient, range: UsageRange, by: 'day' | 'model') =>
    queryOptions({ queryKey: ['usage', 'own', range, by], queryFn: () => api.get<UsageReport>(`/usage/own?${search(range, by)}`) }),
}

export type BudgetInput = { scope: BudgetView['scope']; targetId?: string; metric: BudgetView['metric']; limit: number }
type Named = { id: string; name: string }

export const budgetQueries = {
  list: (api: ApiClient) => queryOptions({ queryKey: ['budgets'], queryFn: () => api.get<BudgetView[]>('/budgets') }),
  /** The budgets that apply to the signed-in member. */
  own: (api: ApiClient) => queryOptions({ queryKey: ['budgets', 'own'], queryFn: () => api.get<BudgetView[]>('/budgets/own') }),
  // The same cache entries as the Groups and Users pages.
  groups: (api: ApiClient) => queryOptions({ queryKey: ['groups', 'list'], queryFn: () => api.get<Named[]>('/groups') }),
  members: (api: ApiClient) => queryOptions({ queryKey: ['members', 'list'], queryFn: () => api.get<Named[]>('/users') }),
}

export const budgetsApi = {
  set: (api: ApiClient, input: BudgetInput) => api.put<BudgetView>('/budgets', input),
  remove: (api: ApiClient, id: string) => api.delete<void>(`/budgets/${encodeURIComponent(id)}`),
}
