import type { ComponentType, ReactNode } from 'react'
import type { SourceView } from '../../../../src/api/sources/schema'
import type { PromptToFill } from '../../../lib/fill-variables'

/*
 * What the chat pages show of other features, handed in by their routes (web/routes/chat*.lazy.tsx)
 * so that chat imports neither sources nor prompts.
 */

/** Files attached to a chat. */
export type AttachmentParts = {
  /** The files above the message field. */
  chips: ReactNode
  /** The button beside the message field. */
  attachButton: ReactNode
  /** The page wrapped in the zone that takes dropped files. */
  dropZone: (page: ReactNode, className: string) => ReactNode
  /** Takes pasted files; undefined while files cannot be attached (no embedding model). */
  onPaste?: (files: File[]) => void
}

/** A chat's files: `busy` while one uploads or is processed, the time a message about them should wait. */
export type UseThreadAttachments = (input: {
  threadId: string
  sources: SourceView[]
  updatedAt: number
  isEmbeddingModelEnabled: boolean
  isAdmin: boolean
}) => AttachmentParts & { busy: boolean; upload: (files: File[]) => void }

/** Files and collections chosen on /chat before the chat exists: the first message attaches the collections, its page uploads the files. */
export type UseNewChatAttachments = (input: { isEmbeddingModelEnabled: boolean; isAdmin: boolean }) => AttachmentParts & { files: File[]; collectionIds: string[] }

/** The saved-prompt picker beside the message field; `onInsert` puts a prompt's text at the cursor. */
export type PromptPickerSlot = (onInsert: (text: string) => void) => ReactNode

/** The dialog that asks for a prompt's variables (open while `prompt` is set). */
export type PromptVariablesSlot = ComponentType<{ prompt: PromptToFill | null; onSubmit: (text: string) => void; onCancel: () => void }>
