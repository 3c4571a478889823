import { createRoute, lazyFn, redirect } from '@tanstack/react-router'
import { isApiError } from '../lib/api-client'
import { ensureAppStrings, ensureManageStrings } from '../lib/i18n'
import { sessionQueries } from '../lib/session'
import { Route as rootRoute } from './__root'

/** Where a member goes whose organisation requires a second factor they have not set up: nothing else answers until they do. */
export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: '/two-factor/setup',
  beforeLoad: async ({ context }) => {
    try {
      await Promise.all([
        context.queryClient.fetchQuery({ ...sessionQueries.me(context.api), staleTime: 0 }),
        ensureAppStrings(context.i18n),
        ensureManageStrings(context.i18n),
      ])
    } catch (error) {
      if (!isApiError(error)) throw error
      throw redirect({ to: '/login' })
    }
  },
  loader: lazyFn(() => import('./two-factor-setup.loader'), 'loader'),
}).lazy(() => import('./two-factor-setup.lazy').then((m) => m.Route))
