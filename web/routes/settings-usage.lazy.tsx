import { createLazyRoute } from '@tanstack/react-router'
import { OwnUsagePage } from '../features/usage/components/own-usage-page'

export const Route = createLazyRoute('/app/settings/usage')({
  component: OwnUsagePage,
})
