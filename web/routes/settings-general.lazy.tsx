import { createLazyRoute } from '@tanstack/react-router'
import { DefaultModelSetting } from '../features/models/components/default-model-setting'
import { GeneralSettings } from '../features/settings/components/general-settings'

export const Route = createLazyRoute('/app/settings/general')({
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
