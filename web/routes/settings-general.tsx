import { createRoute } from '@tanstack/react-router'
import { modelQueries } from '../features/models/api'
import { DefaultModelSetting } from '../features/models/components/default-model-setting'
import { GeneralSettings } from '../features/settings/components/general-settings'
import { Route as settingsRoute } from './settings'

export const Route = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/general',
  loader: async ({ context }) => {
    await Promise.all([
      context.queryClient.ensureQueryData(modelQueries.languageModels(context.api)),
      context.queryClient.ensureQueryData(modelQueries.userDefault(context.api)),
    ])
  },
  component: GeneralSettingsPage,
})

/** Theme and language (this browser), then the default model for new chats (the account). */
function GeneralSettingsPage() {
  return (
    <div className="grid gap-6">
      <GeneralSettings />
      <DefaultModelSetting />
    </div>
  )
}
