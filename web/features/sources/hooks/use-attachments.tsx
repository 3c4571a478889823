import { useQueryClient } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import { collectionQueries, type AttachedCollection, type Collection } from '../../../lib/collection-queries'
import { useApi } from '../../../lib/use-api'
import type { Source } from '../api'
import { AttachButton } from '../components/attach-button'
import { CollectionChips, CollectionPicker, useThreadCollections } from '../components/collection-picker'
import { FileDropZone } from '../components/file-drop-zone'
import { SourceChips, type Chip } from '../components/source-chips'
import { usePendingFiles } from './use-pending-files'
import { useSourceChips } from './use-source-chips'
import { useThreadSources } from './use-thread-sources'
import { useUnavailableReason } from './use-unavailable-reason'

type Availability = { isEmbeddingModelEnabled: boolean; isAdmin: boolean }

function parts(chips: Chip[], add: (files: File[]) => void, unavailable: string | null) {
  return {
    chips: <SourceChips chips={chips} />,
    attachButton: <AttachButton onFiles={add} unavailable={unavailable} />,
    dropZone: (page: ReactNode, className: string) => (
      <FileDropZone onFiles={add} unavailable={unavailable} className={className}>
        {page}
      </FileDropZone>
    ),
    onPaste: unavailable ? undefined : add,
  }
}

/** The files of a chat, for its page (web/features/chat/lib/attachments.ts). */
export function useThreadAttachments(input: Availability & { threadId: string; sources: Source[]; updatedAt: number }) {
  const unavailable = useUnavailableReason(input.isEmbeddingModelEnabled, input.isAdmin)
  const files = useThreadSources(input.threadId, { sources: input.sources, updatedAt: input.updatedAt })
  const chips = useSourceChips(input.threadId, files)
  const collections = useThreadCollections(input.threadId)
  const base = parts(chips, files.upload, unavailable)
  return {
    ...base,
    chips: (
      <>
        <CollectionChips attached={collections.attached} onDetach={(id) => collections.toggle(id, false)} />
        {base.chips}
      </>
    ),
    attachButton: (
      <>
        {base.attachButton}
        <CollectionPicker attached={collections.attached} onToggle={collections.toggle} />
      </>
    ),
    busy: files.busy,
    upload: files.upload,
  }
}

/**
 * The files and collections chosen on /chat: the first message creates the chat, which then gets
 * the collections attached and its page uploads the files.
 */
export function useNewChatAttachments(input: Availability) {
  const api = useApi()
  const queryClient = useQueryClient()
  const unavailable = useUnavailableReason(input.isEmbeddingModelEnabled, input.isAdmin)
  const pending = usePendingFiles()
  const [collections, setCollections] = useState<AttachedCollection[]>([])
  const toggle = (id: string, attach: boolean) => {
    if (!attach) return setCollections((list) => list.filter((c) => c.id !== id))
    // The picker listed it: its name comes from that list.
    const found = queryClient.getQueryData<Collection[]>(collectionQueries.list(api).queryKey)?.find((c) => c.id === id)
    if (found) setCollections((list) => [...list.filter((c) => c.id !== id), { id: found.id, name: found.name, readyFiles: found.readyFiles }])
  }
  const chips = pending.files.map((f) => ({ key: f.key, name: f.file.name, status: 'attached' as const, onRemove: () => pending.remove(f.key) }))
  const base = parts(chips, pending.add, unavailable)
  return {
    ...base,
    chips: (
      <>
        <CollectionChips attached={collections} onDetach={(id) => toggle(id, false)} />
        {base.chips}
      </>
    ),
    attachButton: (
      <>
        {base.attachButton}
        <CollectionPicker attached={collections} onToggle={toggle} />
      </>
    ),
    files: pending.files.map((f) => f.file),
    collectionIds: collections.map((c) => c.id),
  }
}
