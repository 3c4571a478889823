import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router'
import { ensureAppStrings } from '../lib/i18n'
import { sessionQueries } from '../lib/session'
import { systemQueries } from '../lib/system'
import { isApiError } from '../lib/api-client'
import { Route as rootRoute } from './__root'
import { subscriptionQueries } from '../lib/subscription'

/** The protected layout: the current user is fetched before anything under it loads (spec section 2). */
export const Route = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  // A stale cookie still gets the head first; the redirect to /login then follows in the page.
  staticData: { earlyHead: 'signed-in' },
  beforeLoad: async ({ context, location }) => {
    try {
      // The signed-in screens' strings come with the first page under this layout (the server renders such a page with them).
      const [me] = await Promise.all([context.queryClient.ensureQueryData(sessionQueries.me(context.api)), ensureAppStrings(context.i18n)])
      if (me.twoFactorSetupRequired) throw redirect({ to: '/two-factor/setup' })
      return { me }
    } catch (error) {
      if (!isApiError(error)) throw error
      if (error.code === 'EMAIL_NOT_VERIFIED') throw redirect({ to: '/email-confirm' })
      throw redirect({ to: '/login', search: { redirect: location.href } })
    }
  },
  // The sidebar shows Upgrade only in cloud mode without an active subscription; knowing both
  // before render avoids a jump. A failed subscription check only hides Upgrade (prefetch never throws).
  loader: async ({ context }) => {
    const info = await context.queryClient.ensureQueryData(systemQueries.info(context.api))
    if (info.isCloud) await context.queryClient.prefetchQuery(subscriptionQueries.active(context.api))
  },
  component: lazyRouteComponent(() => import('./app-layout'), 'AppLayout'),
})
