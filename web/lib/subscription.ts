import { queryOptions } from '@tanstack/react-query'
import type { ApiClient } from './api-client'

/**
 * Whether paid features are unlocked (always true when self-hosted; in the cloud, without a
 * subscription only the trial's messages can be sent). Read by the shell, the chat and billing
 * under this one key, which billing refreshes after every change of the subscription.
 */
export const subscriptionQueries = {
  active: (api: ApiClient) =>
    queryOptions({
      queryKey: ['subscriptions', 'active'],
      queryFn: () => api.get<{ hasActiveSubscription: boolean }>('/subscriptions/active'),
    }),
}
