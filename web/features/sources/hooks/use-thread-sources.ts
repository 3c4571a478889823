import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { isApiError } from '../../../lib/api-client'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { addSourceToCache, isProcessing, sourceQueries, sourcesApi, type Source } from '../api'
import { checkFiles } from '../lib/check-files'
import { useAnnounceRefused } from './use-announce-refused'
import { modelListQueries } from '../../../lib/model-lists'

/**
 * A file of this tab: uploading (`progress` percent sent so far); uploaded (the server has it as
 * `sourceId`, the list does not show it yet); or refused by the server (kept, with the reason, so
 * that it does not just vanish).
 */
export type LocalUpload = { key: string; name: string; status: 'uploading' | 'uploaded' | 'failed'; progress?: number; sourceId?: string; error?: string }

let nextKey = 0

/**
 * A chat's files: those on the server (re-read while any is processing) and those being uploaded
 * or refused in this tab. `busy` holds while a file is uploading or processing: the time a message
 * about the files should wait for.
 */
export function useThreadSources(threadId: string, initial: { sources: Source[]; updatedAt?: number }) {
  const { t } = useTranslation('sources')
  const api = useApi()
  const queryClient = useQueryClient()
  const announceRefused = useAnnounceRefused()
  const [uploads, setUploads] = useState<LocalUpload[]>([])
  const queue = useRef(Promise.resolve())
  // Uploads that can still be cancelled (waiting in the queue or on their way), by key.
  const cancels = useRef(new Map<string, AbortController>())
  const sources = useQuery({ ...sourceQueries.list(api, threadId), initialData: initial.sources, initialDataUpdatedAt: initial.updatedAt }).data

  const listed = new Set(sources.map((s) => s.id))
  const shown = uploads.filter((u) => !(u.sourceId && listed.has(u.sourceId)))
  // Once listed, an uploaded file is the server's to show.
  useEffect(() => {
    if (shown.length !== uploads.length) setUploads((list) => list.filter((u) => !(u.sourceId && listed.has(u.sourceId))))
  })

  const patch = (key: string, change: Partial<LocalUpload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)))

  const uploadOne = async (key: string, file: File) => {
    const controller = cancels.current.get(key)
    if (!controller || controller.signal.aborted) return
    try {
      const source = await sourcesApi.upload(threadId, file, { signal: controller.signal, onProgress: (progress) => patch(key, { progress }) })
      // Marked first, then listed: no moment in between counts as "nothing uploading".
      setUploads((list) => list.map((u) => (u.key === key ? { ...u, status: 'uploaded', sourceId: source.id } : u)))
      await addSourceToCache(queryClient, threadId, source)
    } catch (error) {
      if (controller.signal.aborted) return // cancelled: already gone from the list
      const message = errorMessage(t, error)
      setUploads((list) => list.map((u) => (u.key === key ? { ...u, status: 'failed', error: message } : u)))
      toast.error(t('uploadFailed', { name: file.name }), { description: message })
      // The admin may just have removed the embedding model: the attach button should say so.
      if (isApiError(error) && error.code === 'EMBEDDING_MODEL_REQUIRED') void queryClient.invalidateQueries({ queryKey: modelListQueries.embeddingEnabled(api).queryKey })
    } finally {
      cancels.current.delete(key)
    }
  }

  /** Uploads the files the server would take and says at once why the others are not. Starts synchronously. */
  const upload = (files: File[]) => {
    const { accepted, refused } = checkFiles(files, sources.length + shown.filter((u) => u.status !== 'failed').length)
    announceRefused(refused)
    const started = accepted.map((file) => ({ key: `upload-${++nextKey}`, file }))
    for (const { key } of started) cancels.current.set(key, new AbortController())
    setUploads((list) => [...list, ...started.map(({ key, file }) => ({ key, name: file.name, status: 'uploading' as const, progress: 0 }))])
    // One after another, so that the chat lists them in the order they were chosen.
    queue.current = queue.current.then(async () => {
      for (const { key, file } of started) await uploadOne(key, file)
    })
  }

  /** Forgets a file the server refused, or cancels one still uploading (the server keeps nothing of it). */
  const dismiss = (key: string) => {
    cancels.current.get(key)?.abort()
    setUploads((list) => list.filter((u) => u.key !== key))
  }

  const busy = shown.some((u) => u.status !== 'failed') || isProcessing(sources)
  return { sources, uploads: shown, upload, dismiss, busy }
}
