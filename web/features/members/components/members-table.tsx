import { useSuspenseQuery } from '@tanstack/react-query'
import { LogOut, Trash2 } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { confirm } from '../../../components/confirm-dialog'
import { LocalDate } from '../../../components/local-date'
import { Badge } from '../../../components/ui/badge'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table'
import { useApi } from '../../../lib/use-api'
import { sessionQueries } from '../../../lib/session'
import { memberQueries, useEndMemberSessions, useRemoveMember, type Member } from '../api'
import { MemberRoleSelect } from './member-role-select'
import { IconAction } from '../../../components/icon-action'

/** The organisation's members with their role, joining date and removal. */
export function MembersTable() {
  const { t } = useTranslation('members')
  const api = useApi()
  const members = useSuspenseQuery(memberQueries.list(api)).data
  const me = useSuspenseQuery(sessionQueries.me(api)).data
  const remove = useRemoveMember()
  const endSessions = useEndMemberSessions()
  const admins = members.filter((member) => member.role === 'admin').length

  const confirmRemove = (member: Member) =>
    confirm({
      title: t('members.removeTitle', { name: member.name }),
      description: t('members.removeDescription', { email: member.email }),
      confirmLabel: t('members.removeConfirm'),
      destructive: true,
      action: () =>
        remove.mutateAsync(member.id, {
          onSuccess: () => toast.success(t('members.removed', { name: member.name })),
        }),
    })

  const confirmEndSessions = (member: Member) =>
    confirm({
      title: t('members.endSessionsTitle', { name: member.name }),
      description: t('members.endSessionsDescription', { email: member.email }),
      confirmLabel: t('members.endSessionsConfirm'),
      destructive: true,
      action: () =>
        endSessions.mutateAsync(member.id, {
          onSuccess: (r) => toast.success(t('members.sessionsEnded', { name: member.name, count: r.ended })),
        }),
    })

  return (
    <Table aria-labelledby="members-title">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>{t('members.member')}</TableHead>
          <TableHead className="w-px">{t('members.role')}</TableHead>
          <TableHead className="hidden w-px sm:table-cell">{t('members.joined')}</TableHead>
          <TableHead className="w-px">
            <span className="sr-only">{t('members.actions')}</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {members.map((member) => {
          const isMe = member.id === me.id
          return (
            <TableRow key={member.id} data-testid="member-row">
              <TableCell className="min-w-36">
                <div className="flex flex-wrap items-center gap-x-1.5 gap-y-0.5">
                  <span className="font-medium">{member.name}</span>
                  {isMe && <span className="text-muted-foreground">{t('members.you')}</span>}
                  {!member.emailVerified && <Badge variant="warning">{t('members.unverified')}</Badge>}
                  {member.deactivated && <Badge variant="neutral">{t('members.deactivated')}</Badge>}
                </div>
                <div className="text-[13px] text-muted-foreground [overflow-wrap:anywhere]">{member.email}</div>
              </TableCell>
              <TableCell>
                <MemberRoleSelect member={member} isMe={isMe} onlyAdmin={member.role === 'admin' && admins === 1} />
              </TableCell>
              <TableCell className="hidden whitespace-nowrap text-muted-foreground sm:table-cell">
                <LocalDate iso={member.joinedAt} />
              </TableCell>
              <TableCell className="text-right">
                {/* Nobody signs out or removes themselves here: the placeholder keeps the column's width. */}
                {isMe ? (
                  <span className="inline-block h-9 w-[4.5rem]" />
                ) : (
                  <div className="flex justify-end">
                    <IconAction label={t('members.endSessions', { name: member.name })} side="left" onClick={() => confirmEndSessions(member)}>
                      <LogOut />
                    </IconAction>
                    <IconAction label={t('members.remove', { name: member.name })} side="left" destructive onClick={() => confirmRemove(member)}>
                      <Trash2 />
                    </IconAction>
                  </div>
                )}
              </TableCell>
            </TableRow>
          )
        })}
      </TableBody>
    </Table>
  )
}
