import { createRoute } from '@tanstack/react-router'
import { Route as rootRoute } from './__root'

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: '/password/forgot',
  staticData: { earlyHead: 'signed-out', errorStrings: 'after-hydration' },
}).lazy(() => import('./password-forgot.lazy').then((m) => m.Route))
