import { createRoute } from '@tanstack/react-router'
import { Route as parentRoute } from './__root'

export const Route = createRoute({
  getParentRoute: () => parentRoute,
  path: '/email-confirm',
  component: Page,
})

function Page() {
  return <main>/email-confirm</main>
}
