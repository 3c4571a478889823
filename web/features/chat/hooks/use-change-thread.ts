import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { errorMessage } from '../../../lib/error-message'
import { useUpdateThread, type ThreadChange } from '../api'

/** Renames, pins or unpins a chat; a failure is told in a toast and rethrown. */
export function useChangeThread() {
  const { t } = useTranslation('chat')
  const update = useUpdateThread()
  return async (id: string, change: ThreadChange) => {
    try {
      await update.mutateAsync({ id, change })
    } catch (error) {
      const failed = change.title !== undefined ? t('rename.failed') : change.pinned ? t('pin.failed') : t('pin.unpinFailed')
      toast.error(`${failed} ${errorMessage(t, error)}`)
      throw error
    }
  }
}
