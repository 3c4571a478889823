import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { Dialog, DialogContent, DialogHeader } from '../../../components/ui/dialog'
import type { Invite } from '../api'
import { InviteForm } from './invite-form'
import { InviteLinkPanel } from './invite-link-panel'

/**
 * "Invite member": the form, then either a toast (the mail went out) or the link to pass on
 * (no mail was sent). The content unmounts on close, so every opening starts empty.
 */
export function InviteDialog(props: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation('members')
  const [unsent, setUnsent] = useState<Invite | null>(null)

  const setOpen = (open: boolean) => {
    props.onOpenChange(open)
    if (!open) setUnsent(null)
  }
  const onSent = (invite: Invite) => {
    if (invite.acceptUrl) return setUnsent(invite)
    toast.success(t('inviteDialog.sent'))
    setOpen(false)
  }

  return (
    <Dialog open={props.open} onOpenChange={setOpen}>
      <DialogContent closeLabel={t('inviteDialog.close')}>
        {unsent?.acceptUrl ? (
          <InviteLinkPanel email={unsent.email} url={unsent.acceptUrl} onDone={() => setOpen(false)} />
        ) : (
          <>
            <DialogHeader title={t('inviteDialog.title')} description={t('inviteDialog.description')} />
            <InviteForm onSent={onSent} onCancel={() => setOpen(false)} />
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}

/** The link of an invitation sent again without mail delivery. */
export function InviteLinkDialog(props: { invite: Invite | null; onClose: () => void }) {
  const { t } = useTranslation('members')
  return (
    <Dialog open={props.invite !== null} onOpenChange={(open) => !open && props.onClose()}>
      <DialogContent closeLabel={t('inviteDialog.close')}>
        {props.invite?.acceptUrl && <InviteLinkPanel email={props.invite.email} url={props.invite.acceptUrl} onDone={props.onClose} />}
      </DialogContent>
    </Dialog>
  )
}
