import './lib/zod-jitless'
import { RouterClient } from '@tanstack/react-router/ssr/client'
import { hydrateRoot } from 'react-dom/client'
import { createApiClient } from './lib/api-client'
import { createI18n, toLanguage, FALLBACK_LANGUAGE } from './lib/i18n'
import { createQueryClient } from './lib/query-client'
import { loadStrings } from './locales'
import { createAppRouter } from './router'

// The server rendered in this language and preloads its strings' chunk; hydrate in the same one.
// (No top-level await: with it, Bun splits the entry's own modules into chunks of their own.)
const lng = toLanguage(document.documentElement.lang) ?? FALLBACK_LANGUAGE

void loadStrings[lng]().then((strings) => {
  const router = createAppRouter({
    queryClient: createQueryClient(),
    api: createApiClient((input, init) => fetch(input, init)),
    i18n: createI18n(lng, { [lng]: strings }),
  })
  hydrateRoot(document, <RouterClient router={router} />)
})
