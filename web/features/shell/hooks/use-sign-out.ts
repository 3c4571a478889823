import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useNavigate, useRouter } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { signOut } from '../../../lib/session'

/** Ends the session, leaves the protected area and forgets every cached answer of this user. */
export function useSignOut() {
  const api = useApi()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const router = useRouter()
  const { t } = useTranslation()
  return useMutation({
    // The sign-in page's code loads while the session ends, not after.
    onMutate: () => void router.preloadRoute({ to: '/login' }).catch(() => {}),
    mutationFn: () => signOut(api),
    onSuccess: async () => {
      // Leave first: clearing the cache while protected screens are mounted makes them refetch
      // (and fail with 401) before the navigation has unmounted them.
      await navigate({ to: '/login', replace: true })
      queryClient.clear()
    },
    onError: (error) => toast.error(errorMessage(t, error)),
  })
}
