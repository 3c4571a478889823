import { useTranslation } from 'react-i18next'
import { CopyField } from '../../../components/copy-field'
import { Button } from '../../../components/ui/button'
import { DialogFooter, DialogHeader } from '../../../components/ui/dialog'

/** The accept link for an invitation that was not mailed, to be passed on by the admin. */
export function InviteLinkPanel(props: { email: string; url: string; onDone: () => void }) {
  const { t } = useTranslation('members')
  return (
    <>
      <DialogHeader title={t('inviteDialog.linkTitle')} description={t('inviteDialog.linkText', { email: props.email })} />
      <CopyField
        value={props.url}
        label={t('inviteDialog.link')}
        testId="invite-link"
        copy={t('inviteDialog.copy')}
        copied={t('inviteDialog.copied')}
        copyFailed={t('inviteDialog.copyFailed')}
      />
      <DialogFooter>
        <Button onClick={props.onDone}>{t('inviteDialog.done')}</Button>
      </DialogFooter>
    </>
  )
}
