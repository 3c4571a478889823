import { useRouter } from '@tanstack/react-router'

/** The API client of the current router (browser fetch, or in-process on the server). */
export function useApi() {
  return useRouter().options.context.api
}
