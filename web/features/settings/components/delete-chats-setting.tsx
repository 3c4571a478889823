import { Trash2 } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { confirm } from '../../../components/confirm-dialog'
import { SectionCard } from '../../../components/section-card'
import { toast } from '../../../components/toaster'
import { Button } from '../../../components/ui/button'
import { useDeleteAllChats } from '../retention'

/** Deletes all of the user's chats, with their files and shared links, after the confirmation dialog. */
export function DeleteChatsSetting() {
  const { t } = useTranslation('settings')
  const remove = useDeleteAllChats()
  const ask = () =>
    confirm({
      title: t('deleteChats.title'),
      description: t('deleteChats.description'),
      confirmLabel: t('deleteChats.confirm'),
      destructive: true,
      failure: t('deleteChats.failed'),
      action: async () => {
        await remove.mutateAsync()
        toast.success(t('deleteChats.done'))
      },
    })
  return (
    <SectionCard id="delete-chats" title={t('deleteChats.title')} description={t('deleteChats.hint')}>
      <Button variant="destructive" onClick={ask} data-testid="delete-all-chats">
        <Trash2 aria-hidden />
        {t('deleteChats.action')}
      </Button>
    </SectionCard>
  )
}
