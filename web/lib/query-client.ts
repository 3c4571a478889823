import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query'
import { isApiError } from './api-client'

const isClientError = (error: unknown) => isApiError(error) && error.status >= 400 && error.status < 500

/**
 * The organisation began to require a second factor while the member was in the app: every call
 * now answers TWO_FACTOR_REQUIRED, so the browser goes to the page that sets one up.
 */
function toTwoFactorSetup(error: unknown) {
  if (typeof window !== 'undefined' && isApiError(error) && error.code === 'TWO_FACTOR_REQUIRED' && window.location.pathname !== '/two-factor/setup') {
    window.location.assign('/two-factor/setup')
  }
}

/** Cache and retry rules of spec section 9; a new client per SSR request and one in the browser. */
export function createQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: toTwoFactorSetup }),
    mutationCache: new MutationCache({ onError: toTwoFactorSetup }),
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
