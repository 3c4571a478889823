import { UserPlus } from '../../../components/icons'
import { Suspense, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import type { Invite } from '../api'
import { InviteDialog, InviteLinkDialog } from './invite-dialog'
import { InvitesTable } from './invites-table'
import { MembersTable } from './members-table'
import { RowsSkeleton } from '../../../components/rows-skeleton'
import { SectionCard } from '../../../components/section-card'

/** Admin Settings → Users: members, invitations, and the invite dialog. */
export function MembersPage() {
  const { t } = useTranslation('members')
  const [inviting, setInviting] = useState(false)
  const [unsent, setUnsent] = useState<Invite | null>(null)
  const loading = <RowsSkeleton label={t('common:loading')} />

  return (
    <div className="grid gap-6">
      <SectionCard flush
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
      </SectionCard>
      <SectionCard flush id="invites" title={t('invites.title')} description={t('invites.description')}>
        <Suspense fallback={loading}>
          <InvitesTable onInvite={() => setInviting(true)} onLink={setUnsent} />
        </Suspense>
      </SectionCard>
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
      <SectionCard flush id="members" title={t('members.title')} description={t('members.description')}>
        <RowsSkeleton label={t('common:loading')} />
      </SectionCard>
      <SectionCard flush id="invites" title={t('invites.title')} description={t('invites.description')}>
        <RowsSkeleton rows={2} label={t('common:loading')} />
      </SectionCard>
    </div>
  )
}
