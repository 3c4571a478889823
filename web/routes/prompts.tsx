import { createRoute } from '@tanstack/react-router'
import { Route as parentRoute } from './app'

export const Route = createRoute({
  getParentRoute: () => parentRoute,
  path: '/prompts',
  component: Page,
})

function Page() {
  return <main>/prompts</main>
}
