import { createRoute } from '@tanstack/react-router'
import { Route as parentRoute } from './__root'

export const Route = createRoute({
  getParentRoute: () => parentRoute,
  path: '/password/reset',
  component: Page,
})

function Page() {
  return <main>/password/reset</main>
}
