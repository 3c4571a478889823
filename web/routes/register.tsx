import { createRoute } from '@tanstack/react-router'
import { Route as parentRoute } from './__root'

export const Route = createRoute({
  getParentRoute: () => parentRoute,
  path: '/register',
  component: Page,
})

function Page() {
  return <main>/register</main>
}
