import './lib/zod-jitless'
import { RouterClient } from '@tanstack/react-router/ssr/client'
import { hydrateRoot } from 'react-dom/client'
import { createApiClient } from './lib/api-client'
import { createI18n, ensureAppStrings, ensureManageStrings, toLanguage, FALLBACK_LANGUAGE } from './lib/i18n'
import { createQueryClient } from './lib/query-client'
import { loadStrings } from './locales'
import { createAppRouter } from './router'
import { MANAGE_ROUTES } from './lib/manage-routes'

// The server rendered in this language and preloads its strings' chunks; hydrate in the same one.
// (No top-level await: with it, Bun splits the entry's own modules into chunks of their own.)
const lng = toLanguage(document.documentElement.lang) ?? FALLBACK_LANGUAGE

void loadStrings[lng].public().then(async (strings) => {
  const i18n = createI18n(lng, { [lng]: strings })
  const router = createAppRouter({
    queryClient: createQueryClient(),
    api: createApiClient((input, init) => fetch(input, init)),
    i18n,
  })
  // A page under the app's layout was rendered with the signed-in screens' strings too, a settings
  // or administration page (or the two-factor set-up) with theirs (preloaded with it; src/ssr/render.tsx).
  const matched = new Set(router.getMatchedRoutes(location.pathname)[0].map((route) => route.id as string))
  await Promise.all([
    (matched.has('/app') || matched.has('/two-factor/setup')) && ensureAppStrings(i18n),
    MANAGE_ROUTES.some((id) => matched.has(id)) && ensureManageStrings(i18n),
  ])
  hydrateRoot(document, <RouterClient router={router} />)
})
