import { LanguageSetting } from './language-setting'
import { ThemeSetting } from './theme-setting'

export function GeneralSettings() {
  return (
    <div className="grid gap-6">
      <ThemeSetting />
      <LanguageSetting />
    </div>
  )
}
