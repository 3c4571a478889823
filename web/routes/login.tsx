import { createRoute, redirect } from '@tanstack/react-router'
import { sessionQueries } from '../lib/session'
import { safeRedirect } from '../lib/safe-redirect'
import { Route as rootRoute } from './__root'

/** `error`: the code the single sign-on callback sent the browser back with. */
type LoginSearch = { emailVerified?: boolean; redirect?: string; error?: string }

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  staticData: { earlyHead: 'signed-out', errorStrings: 'after-hydration' },
  validateSearch: (search: Record<string, unknown>): LoginSearch => ({
    emailVerified: search.emailVerified === true || search.emailVerified === 'true' ? true : undefined,
    redirect: typeof search.redirect === 'string' ? search.redirect : undefined,
    error: typeof search.error === 'string' ? search.error.slice(0, 64) : undefined,
  }),
  // A signed-in user who opens /login (a bookmark, a typed address) goes on to where they were
  // going. Asked on the server render only: the browser comes here by navigation after signing out
  // or from the public pages, and its cache may still hold the signed-out user. After confirming
  // an address the page shows as the spec says, whoever is signed in.
  beforeLoad: async ({ context, search }) => {
    if (typeof document !== 'undefined' || search.emailVerified) return
    const me = await context.queryClient.fetchQuery({ ...sessionQueries.me(context.api), staleTime: 0 }).catch(() => null)
    if (me?.emailVerified) throw redirect({ href: safeRedirect(search.redirect) })
  },
  head: () => ({ meta: [{ title: 'Kontor' }] }),
}).lazy(() => import('./login.lazy').then((m) => m.Route))
