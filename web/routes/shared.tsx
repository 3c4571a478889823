import { createRoute, lazyFn } from '@tanstack/react-router'
import { Route as appRoute } from './app'

/**
 * A chat shared in the organisation (docs/decisions/0061-sharing-chats.md): signed-in members
 * only (the app layout sends others to sign in); one not shared with the caller is not found.
 */
export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/shared/$shareId',
  staticData: { earlyHead: 'never' },
  loader: lazyFn<typeof import('./shared.loader'), 'loader'>(() => import('./shared.loader'), 'loader'),
  head: ({ loaderData }) => ({ meta: [{ title: loaderData?.title ? `${loaderData.title} · Kontor` : 'Kontor' }] }),
}).lazy(() => import('./shared.lazy').then((m) => m.Route))
