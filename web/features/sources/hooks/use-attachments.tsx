import type { ReactNode } from 'react'
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

/** The files chosen on /chat, uploaded by the chat's page once the first message created it. */
export function useNewChatAttachments(input: Availability) {
  const unavailable = useUnavailableReason(input.isEmbeddingModelEnabled, input.isAdmin)
  const pending = usePendingFiles()
  const chips = pending.files.map((f) => ({ key: f.key, name: f.file.name, status: 'attached' as const, onRemove: () => pending.remove(f.key) }))
  return { ...parts(chips, pending.add, unavailable), files: pending.files.map((f) => f.file) }
}
