import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useId, type ChangeEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { confirm } from '../../../components/confirm-dialog'
import { NativeSelect } from '../../../components/ui/native-select'
import { Tooltip } from '../../../components/ui/tooltip'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { sessionQueries } from '../../../lib/session'
import { ROLES, useChangeRole, type Member, type Role } from '../api'

/**
 * Changes a member's role at once, with a toast either way. Giving up one's own admin role locks
 * one out of this page, so that one asks first and then leaves for the chat. The only admin's role
 * cannot change at all (the server refuses it too): the select is locked and says why.
 */
export function MemberRoleSelect(props: { member: Member; isMe: boolean; onlyAdmin: boolean }) {
  const { t } = useTranslation('members')
  const api = useApi()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const changeRole = useChangeRole()
  const { member } = props
  const hintId = useId()

  const apply = (role: Role) =>
    changeRole.mutateAsync(
      { id: member.id, role },
      {
        onSuccess: async (updated) => {
          toast.success(t('members.roleChanged', { name: updated.name, role: t(`common:roles.${updated.role}`) }))
          if (props.isMe && updated.role !== 'admin') {
            queryClient.setQueryData(sessionQueries.me(api).queryKey, (me) => me && { ...me, role: updated.role })
            await navigate({ to: '/chat' })
          }
        },
        onError: (error) => toast.error(errorMessage(t, error)),
      },
    )

  const onChange = (event: ChangeEvent<HTMLSelectElement>) => {
    const role = event.target.value as Role
    if (role === member.role) return
    if (props.isMe && role !== 'admin') {
      confirm({
        title: t('members.demoteSelfTitle'),
        description: t('members.demoteSelfDescription'),
        confirmLabel: t('members.demoteSelfConfirm'),
        destructive: true,
        action: () => apply(role),
      })
    } else {
      // The toast already tells about a failure; the select shows the unchanged role again.
      apply(role).catch(() => {})
    }
  }

  const select = (
    <NativeSelect
      aria-label={t('members.roleOf', { name: member.name })}
      aria-describedby={props.onlyAdmin ? hintId : undefined}
      value={member.role}
      disabled={changeRole.isPending || props.onlyAdmin}
      onChange={onChange}
      className="w-28 sm:w-32"
    >
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {t(`common:roles.${role}`)}
        </option>
      ))}
    </NativeSelect>
  )
  if (!props.onlyAdmin) return select
  // A disabled select shows no tooltip of its own: the wrapper takes hover and keyboard focus.
  return (
    <Tooltip label={t('members.onlyAdmin')} side="left" className="max-w-64">
      <span tabIndex={0} data-testid="only-admin-role" className="inline-block rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring">
        {select}
        <span id={hintId} className="sr-only">
          {t('members.onlyAdmin')}
        </span>
      </span>
    </Tooltip>
  )
}
