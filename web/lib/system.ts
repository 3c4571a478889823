import { queryOptions } from '@tanstack/react-query'
import type { ApiClient } from './api-client'

export type SystemInfo = { isCloud: boolean; registrationDisabled: boolean; emailDelivery: boolean }

export const systemQueries = {
  info: (api: ApiClient) =>
    queryOptions({ queryKey: ['system'], queryFn: () => api.get<SystemInfo>(''), staleTime: Infinity }),
}
