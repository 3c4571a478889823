import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import type { billingInfoBody, priceResponse, SubscriptionView } from '../../../src/api/subscriptions/schema'
import { isApiError, type ApiClient } from '../../lib/api-client'
import { subscriptionQueries } from '../../lib/subscription'
import { useApi } from '../../lib/use-api'

export type Subscription = SubscriptionView
export type Price = z.infer<typeof priceResponse>
export type BillingInfo = z.input<typeof billingInfoBody>
export type CreateSubscriptionInput = BillingInfo & { noOfSeats: number }

const SUBSCRIPTION = ['billing', 'subscription'] as const

export const billingQueries = {
  /** `null` when the organisation has no running subscription (SUBSCRIPTION_NOT_FOUND is no error here). */
  subscription: (api: ApiClient) =>
    queryOptions({
      queryKey: SUBSCRIPTION,
      queryFn: async (): Promise<Subscription | null> => {
        try {
          return await api.get<Subscription>('/subscriptions')
        } catch (error) {
          if (isApiError(error) && error.code === 'SUBSCRIPTION_NOT_FOUND') return null
          throw error
        }
      },
    }),
  price: (api: ApiClient) => queryOptions({ queryKey: ['billing', 'price'], queryFn: () => api.get<Price>('/subscriptions/price') }),
}

export const billingApi = {
  subscribe: (api: ApiClient, body: CreateSubscriptionInput) => api.post<Subscription>('/subscriptions', body),
  cancel: (api: ApiClient) => api.delete<Subscription>('/subscriptions'),
  uncancel: (api: ApiClient) => api.post<Subscription>('/subscriptions/uncancel'),
  updateSeats: (api: ApiClient, noOfSeats: number) => api.put<Subscription>('/subscriptions/seats', { noOfSeats }),
  updateBillingInfo: (api: ApiClient, body: BillingInfo) => api.put<Subscription>('/subscriptions/billing-info', body),
}

/**
 * A change of the subscription: the answer is the new subscription, put straight into the cache;
 * whether paid features are unlocked is asked again (the sidebar's Upgrade entry follows it).
 */
function useSubscriptionMutation<T>(fn: (api: ApiClient, input: T) => Promise<Subscription>) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: T) => fn(api, input),
    onSuccess: (subscription) => {
      queryClient.setQueryData(SUBSCRIPTION, subscription)
      return queryClient.invalidateQueries({ queryKey: subscriptionQueries.active(api).queryKey })
    },
    onError: (error) => {
      // Someone else changed it meanwhile (another admin, another tab): show what is true now.
      if (isApiError(error) && error.status === 409) return queryClient.invalidateQueries({ queryKey: SUBSCRIPTION })
    },
  })
}

export const useSubscribe = () => useSubscriptionMutation(billingApi.subscribe)
export const useCancelSubscription = () => useSubscriptionMutation((api, _: void) => billingApi.cancel(api))
export const useUncancelSubscription = () => useSubscriptionMutation((api, _: void) => billingApi.uncancel(api))
export const useUpdateSeats = () => useSubscriptionMutation(billingApi.updateSeats)
export const useUpdateBillingInfo = () => useSubscriptionMutation(billingApi.updateBillingInfo)
