import { createLazyRoute } from '@tanstack/react-router'
import { OrganizationSettings } from '../features/settings/components/organization-settings'

export const Route = createLazyRoute('/app/admin-settings/organization')({
  component: OrganizationSettings,
})
