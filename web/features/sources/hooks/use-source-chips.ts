import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { confirm } from '../../../components/confirm-dialog'
import { errorMessage } from '../../../lib/error-message'
import { useDeleteSource, useRetrySource, type Source } from '../api'
import type { Chip } from '../components/source-chips'
import type { LocalUpload } from './use-thread-sources'

/** The chips of a chat's files: the server's (removed after confirmation) and this tab's uploads. */
export function useSourceChips(threadId: string, state: { sources: Source[]; uploads: LocalUpload[]; dismiss: (key: string) => void }): Chip[] {
  const { t } = useTranslation('sources')
  const remove = useDeleteSource(threadId)
  const retry = useRetrySource(threadId)

  const askRemove = (source: Source) =>
    confirm({
      title: t('remove.title'),
      description: t('remove.description', { name: source.name }),
      confirmLabel: t('remove.confirm'),
      destructive: true,
      failure: t('remove.failed'),
      action: async () => {
        await remove.mutateAsync(source.id)
        toast.success(t('remove.done', { name: source.name }))
      },
    })

  return [
    ...state.sources.map((source) => ({
      key: source.id,
      name: source.name,
      status: source.status,
      reason: source.error ? t(source.error, { ns: 'errors', defaultValue: t('UNKNOWN', { ns: 'errors' }) }) : undefined,
      onRemove: () => askRemove(source),
      onRetry: source.status === 'failed' ? () => retry.mutate(source.id, { onError: (error) => toast.error(errorMessage(t, error)) }) : undefined,
      details: { threadId, source },
    })),
    ...state.uploads.map((upload) => ({
      key: upload.key,
      name: upload.name,
      status: upload.status === 'uploaded' ? ('processing' as const) : upload.status,
      progress: upload.status === 'uploading' ? upload.progress : undefined,
      reason: upload.error,
      // An upload on its way is cancelled; a refused one is only forgotten; one the server took is its to remove.
      onRemove: upload.status === 'uploaded' ? undefined : () => state.dismiss(upload.key),
      cancels: upload.status === 'uploading',
    })),
  ]
}
