import { createRoute } from '@tanstack/react-router'
import { Route as rootRoute } from './__root'

type EmailConfirmSearch = { email?: string }

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: '/email-confirm',
  validateSearch: (search: Record<string, unknown>): EmailConfirmSearch => ({
    email: typeof search.email === 'string' && search.email.includes('@') ? search.email : undefined,
  }),
}).lazy(() => import('./email-confirm.lazy').then((m) => m.Route))
