import { createRoute } from '@tanstack/react-router'
import { modelQueries } from '../features/models/api'
import { Route as settingsRoute } from './settings'
import { modelListQueries } from '../lib/model-lists'

export const Route = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/general',
  loader: async ({ context }) => {
    await Promise.all([
      context.queryClient.ensureQueryData(modelListQueries.languageModels(context.api)),
      context.queryClient.ensureQueryData(modelQueries.userDefault(context.api)),
    ])
  },
}).lazy(() => import('./settings-general.lazy').then((m) => m.Route))
