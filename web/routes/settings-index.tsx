import { createRoute } from '@tanstack/react-router'
import { Route as parentRoute } from './settings'

export const Route = createRoute({
  getParentRoute: () => parentRoute,
  path: '/',
  component: Page,
})

function Page() {
  return <main>/</main>
}
