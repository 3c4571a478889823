import { createLazyRoute } from '@tanstack/react-router'
import { SecurityPage } from '../features/security/components/security-page'

export const Route = createLazyRoute('/app/admin-settings/security')({
  component: SecurityPage,
})
