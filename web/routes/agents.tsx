import { createRoute } from '@tanstack/react-router'
import { Route as parentRoute } from './app'

export const Route = createRoute({
  getParentRoute: () => parentRoute,
  path: '/agents',
  component: Page,
})

function Page() {
  return <main>/agents</main>
}
