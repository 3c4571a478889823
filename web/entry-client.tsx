import './lib/zod-jitless'
import { RouterClient } from '@tanstack/react-router/ssr/client'
import { hydrateRoot } from 'react-dom/client'
import { createApiClient } from './lib/api-client'
import { createI18n, toLanguage, FALLBACK_LANGUAGE } from './lib/i18n'
import { createQueryClient } from './lib/query-client'
import { createAppRouter } from './router'

const router = createAppRouter({
  queryClient: createQueryClient(),
  api: createApiClient((input, init) => fetch(input, init)),
  // The server rendered in this language; hydrate in the same one.
  i18n: createI18n(toLanguage(document.documentElement.lang) ?? FALLBACK_LANGUAGE),
})

hydrateRoot(document, <RouterClient router={router} />)
