import { createRoute } from '@tanstack/react-router'
import { Route as parentRoute } from './app'

export const Route = createRoute({
  getParentRoute: () => parentRoute,
  path: '/admin-settings',
  component: Page,
})

function Page() {
  return <main>/admin-settings</main>
}
