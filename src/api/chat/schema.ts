import { z } from 'zod'
import { messageStatus } from '../threads/schema'

/**
 * The parts of an assistant message (`messages.parts`), in the order they happened: each tool
 * call, then its result. `offset` is the length of the message's text when the call was made, so
 * that text and tool calls can be shown interleaved after a reload. A call without a result was
 * interrupted (the reply was stopped or failed while the tool ran).
 */
export const toolCallPart = z.object({
  type: z.literal('tool_call'),
  id: z.string(),
  name: z.string(),
  /** The argument text as the model sent it (normally JSON). */
  arguments: z.string(),
  offset: z.number().int().min(0),
})

export const toolResultPart = z.object({
  type: z.literal('tool_result'),
  id: z.string(),
  name: z.string(),
  /** What the model was given (cut at 20,000 characters). */
  result: z.string(),
  isError: z.boolean(),
  /** For errors the UI translates: TOOL_NOT_FOUND, VALIDATION_FAILED (arguments the model must correct). */
  code: z.string().optional(),
  /** Structured output for the UI: emailDraft, searchData, websiteData, mcpData or passageData (tool-data.ts). */
  data: z.unknown().optional(),
})

export const messagePart = z.discriminatedUnion('type', [toolCallPart, toolResultPart])

export type ToolCallPart = z.infer<typeof toolCallPart>
export type ToolResultPart = z.infer<typeof toolResultPart>
export type MessagePart = z.infer<typeof messagePart>

// What each tool puts in its result's `data`: in zod/mini, for the open chat (tool-data.ts).
export { emailDraft, mcpData, passageData, searchData, searchResult, sourcePassage, websiteData } from './tool-data'

/** A reply of a chat: the stream to attach to (`Last-Event-ID`, or `after`, names what the client has) and Stop. */
export const replyParams = z.object({ id: z.string().min(1).max(64), messageId: z.string().min(1).max(64) })
export const attachQuery = z.object({ after: z.string().max(100).optional() })

/**
 * The events of a streamed reply, in order (README "Chat stream"); text and reasoning carry
 * deltas, never the text so far. The server writes them (sse.ts), the web client and the tests
 * read them: all take their names and types from here.
 */
export const replyEvents = {
  message_start: z.object({ threadId: z.string(), userMessageId: z.string().nullable(), assistantMessageId: z.string(), model: z.string() }),
  /** 80% or more of a monthly budget that applies to the member is spent (the tightest such budget). */
  budget_notice: z.object({
    scope: z.enum(['organization', 'group', 'user']),
    group: z.string().nullable(),
    metric: z.enum(['cost', 'tokens']),
    limit: z.number(),
    spent: z.number(),
  }),
  text: z.object({ delta: z.string() }),
  reasoning: z.object({ delta: z.string() }),
  tool_call: toolCallPart.pick({ id: true, name: true, arguments: true }),
  tool_result: toolResultPart.pick({ id: true, name: true, result: true, isError: true, code: true, data: true }),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }),
  title: z.object({ title: z.string() }),
  error: z.object({ code: z.string(), message: z.string() }),
  /**
   * A reply's process that dies sends no end; `interrupted` is found when the thread is read, and
   * ends the stream of a client attached to the reply (through another process) when it is found.
   */
  message_end: z.object({ status: messageStatus.extract(['complete', 'stopped', 'failed', 'interrupted']) }),
  /**
   * This client's stream ends here, not the reply: it left more than MAX_UNREAD_BYTES unread
   * (reply-relay.ts). The reply goes on; the client attaches again from its last frame's id.
   */
  stream_stopped: z.object({ reason: z.literal('unread') }),
}

export type ReplyEventName = keyof typeof replyEvents
export type ReplyEvent = { [K in ReplyEventName]: { event: K; data: z.infer<(typeof replyEvents)[K]> } }[ReplyEventName]

export type BudgetNotice = z.infer<typeof replyEvents.budget_notice>
