import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { ItemFormDialog } from '../../../components/library-page'
import type { Prompt } from '../api'
import { PromptForm } from './prompt-form'

/** "New prompt", or editing `prompt` when it is given. */
export function PromptFormDialog(props: { open: boolean; onOpenChange: (open: boolean) => void; prompt?: Prompt }) {
  const { t } = useTranslation('prompts')
  const editing = props.prompt !== undefined
  const close = () => props.onOpenChange(false)

  return (
    <ItemFormDialog
      open={props.open}
      onOpenChange={props.onOpenChange}
      closeLabel={t('form.close')}
      title={editing ? t('form.editTitle') : t('form.newTitle')}
      description={editing ? t('form.editDescription') : t('form.newDescription')}
    >
      <PromptForm
        prompt={props.prompt}
        onCancel={close}
        onSaved={(saved) => {
          toast.success(editing ? t('form.updated', { title: saved.title }) : t('form.created', { title: saved.title }))
          close()
        }}
      />
    </ItemFormDialog>
  )
}
