import type { QueryClient } from '@tanstack/react-query'
import type { i18n } from 'i18next'
import type { ApiClient } from './lib/api-client'

/** What every route's loader and beforeLoad receive; built anew per SSR request. */
export type RouterContext = {
  queryClient: QueryClient
  api: ApiClient
  i18n: i18n
}
