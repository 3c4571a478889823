import { createLazyRoute } from '@tanstack/react-router'
import { ApiAccessPage } from '../features/api-keys/components/api-access-page'

export const Route = createLazyRoute('/app/admin-settings/api')({
  component: ApiAccessPage,
})
