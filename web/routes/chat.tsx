import { createRoute, lazyFn } from '@tanstack/react-router'
import type { NewChatSearch } from '../features/chat/lib/new-chat'
import { Route as appRoute } from './app'

/** A new chat (spec section 2): the given model, else the given agent, else the default model. */
export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/chat',
  validateSearch: (s: Record<string, unknown>): NewChatSearch => ({
    prompt: typeof s.prompt === 'string' ? s.prompt : undefined,
    modelId: typeof s.modelId === 'string' ? s.modelId : undefined,
    agentId: typeof s.agentId === 'string' ? s.agentId : undefined,
  }),
  loaderDeps: ({ search }) => search,
  loader: lazyFn(() => import('./chat.loader'), 'loader'),
}).lazy(() => import('./chat.lazy').then((m) => m.Route))
