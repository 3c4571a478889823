import { QueryClient } from '@tanstack/react-query'
import { isApiError } from './api-client'

const isClientError = (error: unknown) => isApiError(error) && error.status >= 400 && error.status < 500

/** Cache and retry rules of spec section 9; a new client per SSR request and one in the browser. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5 * 60_000,
        gcTime: 10 * 60_000,
        retry: (failures, error) => !isClientError(error) && failures < 3,
      },
      mutations: {
        // A refused mutation (4xx) would only be refused again, and may count against a rate limit.
        retry: (failures, error) => !isClientError(error) && failures < 1,
      },
    },
  })
}
