import { createRoute, lazyFn } from '@tanstack/react-router'
import { Route as appRoute } from './app'

type PromptsSearch = { search?: string }

/** The prompt library (spec section 2); `search` filters it by title or content. */
export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/prompts',
  validateSearch: (s: Record<string, unknown>): PromptsSearch => ({
    search: typeof s.search === 'string' && s.search.trim() ? s.search : undefined,
  }),
  // The search is read, not a loader dependency: typing re-runs the loader in the background
  // while the page keeps its results, instead of swapping the page for its pending view.
  loader: lazyFn(() => import('./prompts.loader'), 'loader'),
}).lazy(() => import('./prompts.lazy').then((m) => m.Route))
