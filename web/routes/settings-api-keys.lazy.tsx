import { createLazyRoute } from '@tanstack/react-router'
import { ApiKeysPage } from '../features/api-keys/components/api-keys-page'

export const Route = createLazyRoute('/app/settings/api-keys')({
  component: ApiKeysPage,
})
