import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { ArrowLeft, FileText, Pencil, RotateCw, Trash2, Upload } from '../../../components/icons'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { PPTX_MIME, SOURCE_EXTENSIONS } from '../../../../src/api/sources/limits'
import { confirm } from '../../../components/confirm-dialog'
import { pageFrameClass, PageHeader } from '../../../components/page-header'
import { Button } from '../../../components/ui/button'
import { collectionQueries, type Collection } from '../../../lib/collection-queries'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { knowledgeApi, useCollectionsMutation } from '../api'
import { CollectionDialog } from './collection-dialog'
import { SharingForm } from './sharing-form'

const ACCEPT = Object.values(SOURCE_EXTENSIONS).flat().map((e) => `.${e}`).join(',')

type Uploading = { key: string; name: string; progress: number }

/** /knowledge/$collectionId: a collection's files (upload, status, delete) and, for its owner, its sharing. */
export function CollectionPage(props: { collectionId: string }) {
  const { t } = useTranslation('knowledge')
  const api = useApi()
  const navigate = useNavigate()
  const collection = useSuspenseQuery(collectionQueries.detail(api, props.collectionId)).data
  const canEdit = collection.role !== 'reader'
  const remove = useCollectionsMutation(knowledgeApi.remove)
  const update = useCollectionsMutation((a, details: { name: string; description: string | null }) => knowledgeApi.update(a, collection.id, details))
  const [editing, setEditing] = useState(false)

  return (
    <div className={pageFrameClass}>
      <Link to="/knowledge" className="inline-flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft aria-hidden className="size-4" />
        {t('back')}
      </Link>
      <PageHeader
        title={collection.name}
        description={collection.description ?? t(`role.${collection.role}`)}
        action={
          <div className="flex flex-wrap gap-2">
            {canEdit && (
              <Button variant="outline" onClick={() => setEditing(true)}>
                <Pencil />
                {t('edit.action')}
              </Button>
            )}
            {collection.role === 'owner' && (
              <Button
                variant="outline"
                onClick={() =>
                  confirm({
                    title: t('delete.title', { name: collection.name }),
                    description: t('delete.description'),
                    confirmLabel: t('delete.confirm'),
                    destructive: true,
                    failure: t('delete.failed'),
                    action: async () => {
                      await remove.mutateAsync(collection.id)
                      await navigate({ to: '/knowledge' })
                    },
                  })
                }
              >
                <Trash2 />
                {t('delete.confirm')}
              </Button>
            )}
          </div>
        }
      />
      <CollectionDialog
        open={editing}
        onOpenChange={setEditing}
        title={t('edit.title')}
        description={t('edit.description')}
        submitLabel={t('edit.submit')}
        initial={{ name: collection.name, description: collection.description }}
        pending={update.isPending}
        error={update.error}
        onSubmit={(details) =>
          update.mutate(details, {
            onSuccess: () => {
              setEditing(false)
              toast.success(t('edit.saved'))
            },
          })
        }
      />
      <FileSection collection={collection} canEdit={canEdit} />
      {collection.role === 'owner' && <SharingForm collection={collection} />}
    </div>
  )
}

function FileSection(props: { collection: Collection; canEdit: boolean }) {
  const { t } = useTranslation('knowledge')
  const api = useApi()
  const queryClient = useQueryClient()
  const input = useRef<HTMLInputElement>(null)
  const [uploads, setUploads] = useState<Uploading[]>([])
  const files = useQuery(collectionQueries.files(api, props.collection.id)).data ?? []
  const removeFile = useCollectionsMutation((a, fileId: string) => knowledgeApi.removeFile(a, props.collection.id, fileId))
  const retryFile = useCollectionsMutation((a, fileId: string) => knowledgeApi.retryFile(a, props.collection.id, fileId))

  const upload = async (chosen: File[]) => {
    for (const file of chosen) {
      const key = crypto.randomUUID()
      setUploads((list) => [...list, { key, name: file.name, progress: 0 }])
      try {
        await knowledgeApi.upload(props.collection.id, file, { onProgress: (progress) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, progress } : u))) })
        await queryClient.invalidateQueries({ queryKey: collectionQueries.all })
      } catch (error) {
        toast.error(t('uploadFailed', { name: file.name }), { description: errorMessage(t, error) })
      } finally {
        setUploads((list) => list.filter((u) => u.key !== key))
      }
    }
  }

  return (
    <section aria-labelledby="collection-files" className="grid gap-3">
      <div className="flex items-center justify-between gap-3">
        <h2 id="collection-files" className="font-medium">
          {t('filesTitle')}
        </h2>
        {props.canEdit && (
          <>
            <Button variant="outline" size="sm" onClick={() => input.current?.click()} data-testid="collection-upload">
              <Upload />
              {t('upload')}
            </Button>
            <input
              ref={input}
              type="file"
              multiple
              accept={ACCEPT}
              hidden
              data-testid="collection-upload-input"
              onChange={(event) => {
                const chosen = [...(event.target.files ?? [])]
                event.target.value = ''
                if (chosen.length) void upload(chosen)
              }}
            />
          </>
        )}
      </div>
      <p className="text-sm text-muted-foreground">{t('filesHint')}</p>
      <ul className="grid divide-y rounded-xl border" data-testid="collection-files">
        {uploads.map((u) => (
          <li key={u.key} className="flex items-center gap-3 px-4 py-3 text-sm">
            <FileText aria-hidden className="size-4 shrink-0 text-muted-foreground" />
            <span className="min-w-0 flex-1 truncate">{u.name}</span>
            <span className="text-xs text-muted-foreground" role="status">
              {t('status.uploading', { progress: u.progress })}
            </span>
          </li>
        ))}
        {files.map((f) => (
          <li key={f.id} className="flex items-center gap-3 px-4 py-3 text-sm" data-testid="collection-file">
            <FileText aria-hidden className="size-4 shrink-0 text-muted-foreground" />
            <span className="min-w-0 flex-1 truncate">{f.fileName}</span>
            <span className={f.status === 'failed' ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'} data-status={f.status}>
              {f.status === 'failed'
                ? t('status.failed', { reason: t(f.error ?? 'UNKNOWN', { ns: 'errors' }) })
                : f.status === 'ready'
                  ? f.pages
                    ? t(f.mimeType === PPTX_MIME ? 'status.readySlides' : 'status.readyPages', { count: f.pages })
                    : t('status.ready')
                  : t('status.processing')}
            </span>
            {props.canEdit && f.status === 'failed' && (
              <Button variant="ghost" size="icon" aria-label={t('retryFile', { name: f.fileName })} onClick={() => retryFile.mutate(f.id, { onError: (error) => toast.error(errorMessage(t, error)) })}>
                <RotateCw />
              </Button>
            )}
            {props.canEdit && (
              <Button variant="ghost" size="icon" aria-label={t('removeFile', { name: f.fileName })} onClick={() => removeFile.mutate(f.id)}>
                <Trash2 />
              </Button>
            )}
          </li>
        ))}
        {!uploads.length && !files.length && <li className="px-4 py-6 text-center text-sm text-muted-foreground">{t('noFiles')}</li>}
      </ul>
    </section>
  )
}
