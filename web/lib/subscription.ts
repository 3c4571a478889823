import { queryOptions } from '@tanstack/react-query'
import type { ApiClient } from './api-client'

/**
 * Whether paid features are unlocked (always true when self-hosted; in the cloud, without a
 * subscription only the trial's messages can be sent, `trialMessagesLeft` of them). Read by the
 * shell, the chat and billing under this one key, which billing refreshes after every change of
 * the subscription and the chat after every message sent.
 */
export const SUBSCRIPTION_ACTIVE_KEY = ['subscriptions', 'active'] as const

export const subscriptionQueries = {
  active: (api: ApiClient) =>
    queryOptions({
      queryKey: SUBSCRIPTION_ACTIVE_KEY,
      queryFn: () => api.get<{ hasActiveSubscription: boolean; trialMessagesLeft: number | null }>('/subscriptions/active'),
    }),
}
