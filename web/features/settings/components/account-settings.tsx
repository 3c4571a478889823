import { useSuspenseQuery } from '@tanstack/react-query'
import { useApi } from '../../../lib/use-api'
import { sessionQueries } from '../../../lib/session'
import { DataExportSetting } from './data-export-setting'
import { DeleteChatsSetting } from './delete-chats-setting'
import { NameForm } from './name-form'
import { PasswordForm } from './password-form'
import { SessionsSetting } from './sessions-setting'
import { TwoFactorSetting } from './two-factor-setting'

export function AccountSettings() {
  const api = useApi()
  const me = useSuspenseQuery(sessionQueries.me(api)).data
  return (
    <div className="grid gap-6">
      <NameForm me={me} />
      <PasswordForm email={me.email} />
      <TwoFactorSetting />
      <SessionsSetting />
      <DataExportSetting />
      <DeleteChatsSetting />
    </div>
  )
}
