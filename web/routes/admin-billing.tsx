import { createRoute } from '@tanstack/react-router'
import { Route as parentRoute } from './admin-settings'

export const Route = createRoute({
  getParentRoute: () => parentRoute,
  path: '/billing',
  component: Page,
})

function Page() {
  return <main>/billing</main>
}
