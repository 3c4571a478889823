import { createRoute } from '@tanstack/react-router'
import { Route as parentRoute } from './admin-settings'

export const Route = createRoute({
  getParentRoute: () => parentRoute,
  path: '/models',
  component: Page,
})

function Page() {
  return <main>/models</main>
}
