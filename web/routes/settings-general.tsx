import { createRoute } from '@tanstack/react-router'
import { Route as parentRoute } from './settings'

export const Route = createRoute({
  getParentRoute: () => parentRoute,
  path: '/general',
  component: Page,
})

function Page() {
  return <main>/general</main>
}
