import { infiniteQueryOptions } from '@tanstack/react-query'
import type { AuditAction, AuditEntryView } from '../../../src/api/audit/schema'
import type { ApiClient } from '../../lib/api-client'

export { AUDIT_ACTIONS } from '../../../src/api/audit/events'
export type { AuditAction, AuditEntryView }

export type AuditFilters = { action?: AuditAction | ''; actor?: string; from?: string; to?: string }
type AuditPage = { entries: AuditEntryView[]; nextCursor: string | null }

export const AUDIT_PAGE_SIZE = 50

/** The filters as the list and the CSV export take them; empty ones are left out. */
export function auditSearch(filters: AuditFilters, extra: Record<string, string> = {}) {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries({ ...filters, ...extra })) if (value) params.set(key, value.trim())
  return params.toString()
}

export const auditCsvHref = (filters: AuditFilters) => {
  const search = auditSearch(filters)
  return `/api/audit-log.csv${search ? `?${search}` : ''}`
}

export const auditQueries = {
  list: (api: ApiClient, filters: AuditFilters) =>
    infiniteQueryOptions({
      queryKey: ['audit-log', filters],
      queryFn: ({ pageParam }) =>
        api.get<AuditPage>(`/audit-log?${auditSearch(filters, { limit: String(AUDIT_PAGE_SIZE), ...(pageParam && { cursor: pageParam }) })}`),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.nextCursor,
      // Entries arrive with every change an admin makes elsewhere: read again on each visit.
      staleTime: 0,
    }),
}
