import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { confirm } from '../../../components/confirm-dialog'
import { threadDetailKey, useDeleteThread, useDeleteThreads } from '../api'
import { stopReply } from '../lib/reply-runner'

/** Deleting one chat or several, each after the confirmation dialog; leaves a deleted chat's page. */
export function useDeleteChats() {
  const { t } = useTranslation('chat')
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const removeOne = useDeleteThread()
  const removeMany = useDeleteThreads()

  // A failure is told by the confirmation dialog, which stays open (`failure` and the reason).
  const run = async (ids: string[], remove: () => Promise<unknown>, done: string) => {
    ids.forEach(stopReply)
    await remove()
    toast.success(done)
    const open = ids.find((id) => window.location.pathname === `/chats/${id}`)
    if (open) await navigate({ to: '/chat' })
    for (const id of ids) queryClient.removeQueries({ queryKey: threadDetailKey(id) })
  }

  return {
    deleteOne: (id: string, title: string) =>
      confirm({
        title: t('delete.title'),
        description: t('delete.description', { title }),
        confirmLabel: t('delete.confirm'),
        destructive: true,
        failure: t('delete.failed'),
        action: () => run([id], () => removeOne.mutateAsync(id), t('delete.done')),
      }),
    deleteMany: (ids: string[], onDeleted: () => void) =>
      confirm({
        title: t('deleteMany.title', { count: ids.length }),
        description: t('deleteMany.description', { count: ids.length }),
        confirmLabel: t('deleteMany.confirm', { count: ids.length }),
        destructive: true,
        failure: t('deleteMany.failed'),
        action: async () => {
          await run(ids, () => removeMany.mutateAsync(ids), t('deleteMany.done', { count: ids.length }))
          onDeleted()
        },
      }),
  }
}
