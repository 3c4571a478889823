import { useSuspenseQuery } from '@tanstack/react-query'
import { Ban, MailPlus, RotateCw } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { confirm } from '../../../components/confirm-dialog'
import { LocalDate } from '../../../components/local-date'
import { Badge } from '../../../components/ui/badge'
import { Button } from '../../../components/ui/button'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { inviteQueries, useResendInvite, useRevokeInvite, type Invite } from '../api'
import { IconAction } from '../../../components/icon-action'

const STATUS_VARIANT = { pending: 'warning', accepted: 'success', rejected: 'danger', expired: 'neutral' } as const

/** Sent invitations with their status; pending ones can be sent again or revoked, expired ones renewed. */
export function InvitesTable(props: { onInvite: () => void; onLink: (invite: Invite) => void }) {
  const { t } = useTranslation('members')
  const api = useApi()
  const invites = useSuspenseQuery(inviteQueries.list(api)).data
  const resend = useResendInvite()
  const revoke = useRevokeInvite()

  const sendAgain = (invite: Invite) =>
    resend.mutate(invite.id, {
      // Without mail delivery the new link must reach the admin, or it is lost.
      onSuccess: (sent) => (sent.acceptUrl ? props.onLink(sent) : toast.success(t('invites.resent', { email: sent.email }))),
      onError: (error) => toast.error(errorMessage(t, error)),
    })

  const confirmRevoke = (invite: Invite) =>
    confirm({
      title: t('invites.revokeTitle'),
      description: t('invites.revokeDescription', { email: invite.email }),
      confirmLabel: t('invites.revokeConfirm'),
      destructive: true,
      action: () =>
        revoke.mutateAsync(invite.id, {
          onSuccess: () => toast.success(t('invites.revoked', { email: invite.email })),
        }),
    })

  if (invites.length === 0) return <NoInvites onInvite={props.onInvite} />
  return (
    <Table aria-labelledby="invites-title">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>{t('invites.email')}</TableHead>
          <TableHead className="hidden w-px sm:table-cell">{t('invites.role')}</TableHead>
          <TableHead className="w-px">{t('invites.status')}</TableHead>
          <TableHead className="hidden w-px sm:table-cell">{t('invites.sent')}</TableHead>
          <TableHead className="w-px">
            <span className="sr-only">{t('invites.actions')}</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {invites.map((invite) => (
          <TableRow key={invite.id} data-testid="invite-row">
            <TableCell className="min-w-36">
              <div className="font-medium [overflow-wrap:anywhere]">{invite.email}</div>
              <div className="text-[13px] text-muted-foreground sm:hidden">{t(`common:roles.${invite.role}`)}</div>
            </TableCell>
            <TableCell className="hidden sm:table-cell">{t(`common:roles.${invite.role}`)}</TableCell>
            <TableCell>
              <Badge variant={STATUS_VARIANT[invite.status]}>{t(`invites.statuses.${invite.status}`)}</Badge>
            </TableCell>
            <TableCell className="hidden whitespace-nowrap text-muted-foreground sm:table-cell">
              <LocalDate iso={invite.sentAt} />
            </TableCell>
            <TableCell>
              <div className="flex justify-end gap-0.5">
                {(invite.status === 'pending' || invite.status === 'expired') && (
                  <IconAction side="left" label={t('invites.resend', { email: invite.email })} disabled={resend.isPending} onClick={() => sendAgain(invite)}>
                    <RotateCw />
                  </IconAction>
                )}
                {invite.status === 'pending' && (
                  <IconAction side="left" label={t('invites.revoke', { email: invite.email })} destructive onClick={() => confirmRevoke(invite)}>
                    <Ban />
                  </IconAction>
                )}
              </div>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}

function NoInvites(props: { onInvite: () => void }) {
  const { t } = useTranslation('members')
  return (
    <div className="flex flex-col items-center gap-3 px-6 py-10 text-center">
      <div aria-hidden className="grid size-11 place-items-center rounded-full bg-muted text-muted-foreground [&_svg]:size-5">
        <MailPlus />
      </div>
      <h3 className="font-medium">{t('invites.emptyTitle')}</h3>
      <p className="max-w-sm text-sm text-muted-foreground">{t('invites.emptyText')}</p>
      <Button variant="outline" onClick={props.onInvite}>
        <MailPlus />
        {t('inviteDialog.open')}
      </Button>
    </div>
  )
}
