import { z } from 'zod'
import { permittedModelResponse } from '../models/schema'
import { sourceResponse } from '../sources/schema'
import { MAX_MESSAGE_LENGTH, MAX_THREADS_PER_DELETE, MAX_TITLE_LENGTH } from './limits'

export * from './limits'

export const threadIdParams = z.object({ id: z.string().min(1).max(64) })

export const createThreadBody = z.object({
  modelId: z.string().min(1).max(64).optional(),
  agentId: z.string().min(1).max(64).optional(),
})
export const setModelBody = z.object({ modelId: z.string().min(1, 'Model is required').max(64) })
export const setAgentBody = z.object({ agentId: z.string().min(1).max(64).nullable() })

/** Rename, pin or unpin a chat: at least one of the two. */
export const updateThreadBody = z
  .object({
    // One line: line breaks and runs of spaces become one space.
    title: z
      .string()
      .overwrite((v) => v.replace(/\s+/g, ' ').trim())
      .min(1, 'Title is required')
      .max(MAX_TITLE_LENGTH, `Title must be at most ${MAX_TITLE_LENGTH} characters`)
      .optional(),
    pinned: z.boolean().optional(),
  })
  .refine((b) => b.title !== undefined || b.pinned !== undefined, 'Give a title or pinned')

/** Several chats to delete at once: all the caller's, or none is deleted. */
/** The chats to delete: the ones named, or with `all: true` every chat of the caller's. */
export const deleteThreadsBody = z
  .object({
    ids: z
      .array(z.string().min(1).max(64))
      .min(1, 'Choose at least one chat')
      .max(MAX_THREADS_PER_DELETE, `At most ${MAX_THREADS_PER_DELETE} chats at once`)
      .optional(),
    all: z.literal(true, 'Only true deletes all chats').optional(),
  })
  .refine((b) => (b.ids === undefined) !== (b.all === undefined), { path: ['ids'], message: 'Choose at least one chat, or all of them' })

export const listThreadsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  /** The `nextCursor` of the previous page. */
  cursor: z.string().max(100).optional(),
})

/** How many of the newest messages `GET /threads/{id}` answers with `last`; older ones are asked for by page. */
export const MAX_MESSAGE_PAGE = 500

export const threadDetailQuery = z.object({
  /** Only the newest `last` messages (a long chat opens with its latest page); all when absent. */
  last: z.coerce.number().int().min(1).max(MAX_MESSAGE_PAGE).optional(),
  /**
   * With `last`: the page reaches back to this message (a search result opened) and 20 before it,
   * so that it is among those answered with what led to it; ignored when the chat has no such message.
   */
  through: z.string().min(1).max(64).optional(),
})

export const olderMessagesQuery = z.object({
  /** The `olderCursor` of the page already shown. */
  before: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  limit: z.coerce.number().int().min(1).max(MAX_MESSAGE_PAGE).default(100),
})

export const sendMessageBody = z.object({
  content: z
    .string()
    .max(MAX_MESSAGE_LENGTH, `Message must be at most ${MAX_MESSAGE_LENGTH} characters`)
    .refine((v) => v.trim().length > 0, 'Message is required'),
  /** Edit and resend: replaces the last user message and what followed it. */
  replaceLast: z.boolean().optional(),
})

/**
 * Where a message stands: an assistant message is `streaming` while it is written, then
 * `complete`, `stopped` (by the user, a closed tab or a server shutting down), `failed` (see
 * `errorCode`) or `interrupted` (the server writing it died; what streamed is kept). Users' own
 * messages are always `complete`.
 */
export const messageStatus = z.enum(['complete', 'streaming', 'stopped', 'failed', 'interrupted'])

export const messageResponse = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  reasoning: z.string(),
  parts: z.array(z.unknown()),
  status: messageStatus,
  errorCode: z.string().nullable(),
  model: z.string().nullable(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).nullable(),
  createdAt: z.string(),
})

/**
 * A message of the branch shown, with where it stands in the chat's tree of versions
 * (docs/decisions/0060-reply-versions.md): what it follows, and its versions (itself among them,
 * oldest first; just itself when it has none). `PUT /threads/{id}/branch` shows another version.
 */
export const branchMessageResponse = messageResponse.extend({
  parentId: z.string().nullable(),
  siblingIds: z.array(z.string()),
})

/** Show a version of a message: the branch shown passes through it, and goes on down the versions shown last. */
export const showVersionBody = z.object({ messageId: z.string().min(1, 'Message is required').max(64) })

export const threadSummaryResponse = z.object({
  id: z.string(),
  title: z.string().nullable(),
  modelId: z.string().nullable(),
  agentId: z.string().nullable(),
  createdAt: z.string(),
  lastMessageAt: z.string(),
  /** When the user pinned the chat; pinned chats lead the list. */
  pinnedAt: z.string().nullable(),
})

/** The first page (no cursor) starts with every pinned chat; the pages go on through the others. */
export const threadListResponse = z.object({ threads: z.array(threadSummaryResponse), nextCursor: z.string().nullable() })

/** Where the messages shown begin: pass it as `before` for the page before them; null when there is none. */
const olderCursor = z.number().int().nullable()

export const olderMessagesResponse = z.object({ messages: z.array(branchMessageResponse), olderCursor })

export const threadDetailResponse = threadSummaryResponse.extend({
  /** The branch shown, oldest first: all of it, or the newest `last`. */
  messages: z.array(branchMessageResponse),
  olderCursor,
  /** The model replies come from now (the agent's when there is one), or null when none is usable. */
  model: permittedModelResponse.nullable(),
  agent: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** Files attached to the chat, oldest first, with their processing status. */
  sources: z.array(sourceResponse),
})

export type StoredMessageView = z.infer<typeof messageResponse>
export type MessageView = z.infer<typeof branchMessageResponse>
export type ThreadSummary = z.infer<typeof threadSummaryResponse>
