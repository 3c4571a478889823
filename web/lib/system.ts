import { queryOptions } from '@tanstack/react-query'
import type { ApiClient } from './api-client'

/** Instance facts (GET /api); `mailPage`: development and demo, where admins may read the outbox. */
export type SystemInfo = { isCloud: boolean; registrationDisabled: boolean; emailDelivery: boolean; mailPage: boolean }

export const systemQueries = {
  info: (api: ApiClient) =>
    queryOptions({ queryKey: ['system'], queryFn: () => api.get<SystemInfo>(''), staleTime: Infinity }),
}
