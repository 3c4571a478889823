import { createLazyRoute } from '@tanstack/react-router'
import { UsagePage } from '../features/usage/components/usage-page'

export const Route = createLazyRoute('/app/admin-settings/usage')({
  component: UsagePage,
})
