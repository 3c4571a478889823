import { createRoute } from '@tanstack/react-router'
import { Route as parentRoute } from './__root'

export const Route = createRoute({
  getParentRoute: () => parentRoute,
  path: '/confirm-email',
  component: Page,
})

function Page() {
  return <main>/confirm-email</main>
}
