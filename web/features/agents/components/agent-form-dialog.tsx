import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { buttonVariants } from '../../../components/ui/button'
import { ItemFormDialog } from '../../../components/library-page'
import { DialogClose, DialogFooter } from '../../../components/ui/dialog'
import { useApi } from '../../../lib/use-api'
import { sessionQueries } from '../../../lib/session'
import type { Agent } from '../api'
import { AgentForm } from './agent-form'
import { modelListQueries } from '../../../lib/model-lists'

/** "New agent", or editing `agent` when it is given; without a permitted model it says so instead. */
export function AgentFormDialog(props: { open: boolean; onOpenChange: (open: boolean) => void; agent?: Agent }) {
  const { t } = useTranslation('agents')
  const api = useApi()
  const models = useSuspenseQuery(modelListQueries.languageModels(api)).data
  const editing = props.agent !== undefined
  const close = () => props.onOpenChange(false)

  return (
    <ItemFormDialog
      open={props.open}
      onOpenChange={props.onOpenChange}
      closeLabel={t('form.close')}
      title={editing ? t('form.editTitle') : t('form.newTitle')}
      description={editing ? t('form.editDescription') : t('form.newDescription')}
    >
      {models.length === 0 ? (
        <NoModels />
      ) : (
        <AgentForm
          agent={props.agent}
          models={models}
          onCancel={close}
          onSaved={(saved) => {
            toast.success(editing ? t('form.updated', { name: saved.name }) : t('form.created', { name: saved.name }))
            close()
          }}
        />
      )}
    </ItemFormDialog>
  )
}

/** An agent needs a model: admins are sent to enable one, users to ask for one. */
function NoModels() {
  const { t } = useTranslation('agents')
  const api = useApi()
  const isAdmin = useSuspenseQuery(sessionQueries.me(api)).data.role === 'admin'
  return (
    <>
      <p role="status" className="rounded-md border border-amber-600/30 bg-amber-500/10 px-3 py-2.5 text-sm">
        {t('noModels.text')} {isAdmin ? t('noModels.admin') : t('noModels.user')}
      </p>
      <DialogFooter>
        <DialogClose className={buttonVariants({ variant: 'outline' })}>{t('form.close')}</DialogClose>
        {isAdmin && (
          <Link to="/admin-settings/models" className={buttonVariants()}>
            {t('noModels.link')}
          </Link>
        )}
      </DialogFooter>
    </>
  )
}
