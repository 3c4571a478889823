import { useSuspenseQuery } from '@tanstack/react-query'
import { useApi } from '../../../lib/use-api'
import { authQueries } from '../../auth/api'
import { NameForm } from './name-form'
import { PasswordForm } from './password-form'

export function AccountSettings() {
  const api = useApi()
  const me = useSuspenseQuery(authQueries.me(api)).data
  return (
    <div className="grid gap-6">
      <NameForm me={me} />
      <PasswordForm email={me.email} />
    </div>
  )
}
