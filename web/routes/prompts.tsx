import { createRoute } from '@tanstack/react-router'
import { promptQueries } from '../features/prompts/api'
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
  loader: ({ context, location }) =>
    context.queryClient.ensureQueryData(promptQueries.list(context.api, (location.search as PromptsSearch).search)),
}).lazy(() => import('./prompts.lazy').then((m) => m.Route))
