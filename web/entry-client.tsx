import './lib/zod-jitless'
import { RouterProvider } from '@tanstack/react-router'
import { hydrate } from '@tanstack/react-router/ssr/client'
import { hydrateRoot } from 'react-dom/client'
import { createApiClient } from './lib/api-client'
import { createI18n, ensureAppStrings, ensureErrorStrings, ensureManageStrings, toLanguage, FALLBACK_LANGUAGE } from './lib/i18n'
import { createQueryClient } from './lib/query-client'
import { loadStrings } from './locales'
import { createAppRouter } from './router'
import { MANAGE_ROUTES } from './lib/manage-routes'
import type { EarlyClicks } from './lib/early-clicks'
import { HYDRATED_EVENT } from './lib/hydrated'

/**
 * Once React has hydrated the page (the root route says so: HYDRATED_EVENT), the clicks kept
 * before it could take them are done (web/lib/early-clicks.ts, loaded only where one was kept;
 * decision 0134). Not a component beside the router's: another child at the root would change
 * every `useId` under it from the server's, and with them the ids that tie a button to what it opens.
 */
function doEarlyClicks() {
  if (!(window as EarlyClicks).__kontorClicks?.length) return
  import('./lib/early-clicks')
    .then((m) => m.replayEarlyClicks())
    // Its code did not arrive (a lost connection, a deploy in between): the clicks are dropped, and the page is no longer busy.
    .catch((error: unknown) => {
      document.documentElement.removeAttribute('data-early-click')
      reportError(error)
    })
}

// The server rendered in this language and preloads its strings' chunks; hydrate in the same one.
// (No top-level await: with it, Bun splits the entry's own modules into chunks of their own.)
const lng = toLanguage(document.documentElement.lang) ?? FALLBACK_LANGUAGE

void loadStrings[lng].public().then(async (strings) => {
  const i18n = createI18n(lng, { [lng]: strings })
  const router = createAppRouter({
    queryClient: createQueryClient(),
    // A failed request's message is translated from the error strings: they are there before its answer is read.
    api: createApiClient(async (input, init) => {
      const response = await fetch(input, init).catch(async (error: unknown) => {
        await ensureErrorStrings(i18n).catch(() => {})
        throw error
      })
      if (!response.ok) await ensureErrorStrings(i18n).catch(() => {})
      return response
    }),
    i18n,
  })
  // A page under the app's layout was rendered with the signed-in screens' strings too, a settings
  // or administration page (or the two-factor set-up) with theirs (preloaded with it; src/ssr/render.tsx),
  // and any page but the sign-in pages with the error messages.
  const routes = router.getMatchedRoutes(location.pathname)[0]
  const matched = new Set(routes.map((route) => route.id as string))
  const errorsLater = routes.some((route) => route.options.staticData?.errorStrings === 'after-hydration')
  await Promise.all([
    (matched.has('/app') || matched.has('/two-factor/setup')) && ensureAppStrings(i18n),
    MANAGE_ROUTES.some((id) => matched.has(id)) && ensureManageStrings(i18n),
    !errorsLater && ensureErrorStrings(i18n),
  ])
  // What RouterClient does, with the router's own hydration (its matches and route chunks) awaited
  // before React hydrates: rendered inside, it suspended the page once, and React's retry waits
  // until 300 ms after any boundary last showed or left its fallback (decision 0133).
  // Should it fail, React still hydrates (and renders anew what does not match) rather than leave a page that does not respond.
  await hydrate(router)
    .catch((error: unknown) => reportError(error))
    .finally(() => window.$_TSR!.h())
  // From here React takes clicks itself (a click on a part it cannot hydrate yet, one waiting for its code, it drops): the page's first script keeps none any more (src/ssr/early-clicks.ts).
  ;(window as EarlyClicks).__kontorLive = true
  document.addEventListener(HYDRATED_EVENT, doEarlyClicks, { once: true })
  hydrateRoot(document, <RouterProvider router={router} />)
  if (errorsLater) void ensureErrorStrings(i18n)
})
