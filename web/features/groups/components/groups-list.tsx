import { useSuspenseQuery } from '@tanstack/react-query'
import { Pencil, Plus, Trash2, Users, X } from '../../../components/icons'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { confirm } from '../../../components/confirm-dialog'
import { EmptyState } from '../../../components/empty-state'
import { IconAction } from '../../../components/icon-action'
import { Button } from '../../../components/ui/button'
import { NativeSelect } from '../../../components/ui/native-select'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { groupQueries, useAddGroupMember, useDeleteGroup, useRemoveGroupMember, type Group, type Member } from '../api'

/** The organisation's groups, each with its members, renaming, deletion and adding a member. */
export function GroupsList(props: { onCreate: () => void; onRename: (group: Group) => void }) {
  const { t } = useTranslation('groups')
  const api = useApi()
  const groups = useSuspenseQuery(groupQueries.list(api)).data
  const members = useSuspenseQuery(groupQueries.members(api)).data
  const remove = useDeleteGroup()

  if (!groups.length)
    return <EmptyState inset icon={<Users />} title={t('empty.title')} text={t('empty.text')} action={<Button onClick={props.onCreate}>{t('create')}</Button>} />

  const confirmDelete = (group: Group) =>
    confirm({
      title: t('deleteTitle', { name: group.name }),
      description: t('deleteDescription'),
      confirmLabel: t('deleteConfirm'),
      destructive: true,
      action: () =>
        remove.mutateAsync(group.id, {
          onSuccess: () => toast.success(t('deleted', { name: group.name })),
        }),
    })

  return (
    <ul className="divide-y">
      {groups.map((group) => (
        <li key={group.id} data-testid="group" aria-label={group.name} className="grid gap-3 px-4 py-4 sm:px-5">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="min-w-0 flex-1 font-medium [overflow-wrap:anywhere]">
              {group.name} <span className="font-normal text-muted-foreground">· {t('memberCount', { count: group.members.length })}</span>
            </h3>
            <IconAction label={t('rename', { name: group.name })} onClick={() => props.onRename(group)}>
              <Pencil />
            </IconAction>
            <IconAction label={t('delete', { name: group.name })} destructive side="left" onClick={() => confirmDelete(group)}>
              <Trash2 />
            </IconAction>
          </div>
          <GroupMembers group={group} members={members} />
        </li>
      ))}
    </ul>
  )
}

function GroupMembers(props: { group: Group; members: Member[] }) {
  const { t } = useTranslation('groups')
  const selectId = useId()
  const [choice, setChoice] = useState('')
  const add = useAddGroupMember()
  const removeMember = useRemoveGroupMember()
  const { group } = props
  const outside = props.members.filter((m) => !group.members.some((g) => g.id === m.id))

  const confirmRemove = (member: Group['members'][number]) =>
    confirm({
      title: t('removeMemberTitle', { name: member.name, group: group.name }),
      description: t('removeMemberDescription'),
      confirmLabel: t('removeMemberConfirm'),
      destructive: true,
      action: () =>
        removeMember.mutateAsync({ id: group.id, userId: member.id }),
    })
  const submit = (event: React.FormEvent) => {
    event.preventDefault()
    if (!choice) return
    add.mutate({ id: group.id, userId: choice }, { onSuccess: () => setChoice(''), onError: (error) => toast.error(errorMessage(t, error)) })
  }

  return (
    <div className="grid gap-2">
      {group.members.length ? (
        <ul className="flex flex-wrap gap-1.5" aria-label={t('membersOf', { name: group.name })}>
          {group.members.map((m) => (
            <li key={m.id} className="flex items-center gap-1 rounded-full border bg-muted/40 py-0.5 pl-3 pr-0.5 text-sm">
              <span title={m.email}>{m.name}</span>
              <Button
                variant="ghost"
                size="icon"
                className="size-6 rounded-full text-muted-foreground hover:text-destructive [&_svg]:size-3.5"
                aria-label={t('removeMember', { name: m.name, group: group.name })}
                onClick={() => confirmRemove(m)}
              >
                <X />
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">{t('noMembers')}</p>
      )}
      {outside.length > 0 && (
        <form className="flex flex-wrap items-center gap-2" onSubmit={submit}>
          <label htmlFor={selectId} className="sr-only">
            {t('addMemberTo', { name: group.name })}
          </label>
          <NativeSelect id={selectId} className="min-w-48 flex-1 sm:max-w-72" value={choice} onChange={(e) => setChoice(e.target.value)}>
            <option value="">{t('chooseMember')}</option>
            {outside.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name} ({m.email})
              </option>
            ))}
          </NativeSelect>
          <Button type="submit" variant="outline" disabled={!choice || add.isPending}>
            <Plus />
            {t('addMember')}
          </Button>
        </form>
      )}
    </div>
  )
}
