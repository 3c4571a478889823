import { UserPlus } from 'lucide-react'
import { Suspense, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import type { Invite } from '../api'
import { InviteDialog, InviteLinkDialog } from './invite-dialog'
import { InvitesTable } from './invites-table'
import { ListSection, TableSkeleton } from './list-section'
import { MembersTable } from './members-table'

/** Admin Settings → Users: members, invitations, and the invite dialog. */
export function MembersPage() {
  const { t } = useTranslation('members')
  const [inviting, setInviting] = useState(false)
  const [unsent, setUnsent] = useState<Invite | null>(null)
  const loading = <TableSkeleton label={t('common:loading')} />

  return (
    <div className="grid gap-6">
      <ListSection
        id="members"
        title={t('members.title')}
        description={t('members.description')}
        action={
          <Button onClick={() => setInviting(true)}>
            <UserPlus />
            {t('inviteDialog.open')}
          </Button>
        }
      >
        <Suspense fallback={loading}>
          <MembersTable />
        </Suspense>
      </ListSection>
      <ListSection id="invites" title={t('invites.title')} description={t('invites.description')}>
        <Suspense fallback={loading}>
          <InvitesTable onInvite={() => setInviting(true)} onLink={setUnsent} />
        </Suspense>
      </ListSection>
      <InviteDialog open={inviting} onOpenChange={setInviting} />
      <InviteLinkDialog invite={unsent} onClose={() => setUnsent(null)} />
    </div>
  )
}

/** What the page looks like while its lists load (the route's pending view). */
export function MembersPageSkeleton() {
  const { t } = useTranslation('members')
  return (
    <div className="grid gap-6">
      <ListSection id="members" title={t('members.title')} description={t('members.description')}>
        <TableSkeleton label={t('common:loading')} />
      </ListSection>
      <ListSection id="invites" title={t('invites.title')} description={t('invites.description')}>
        <TableSkeleton rows={2} label={t('common:loading')} />
      </ListSection>
    </div>
  )
}
