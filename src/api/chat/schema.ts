import { z } from 'zod'

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
  /** Structured output for the UI: send_email's draft `{ to, subject, body }`, internet_search's `{ results }`, website_content's `{ url, title }`, source_query's `{ passages }` (file name, pages, citation, text). */
  data: z.unknown().optional(),
})

export const messagePart = z.discriminatedUnion('type', [toolCallPart, toolResultPart])

export type ToolCallPart = z.infer<typeof toolCallPart>
export type ToolResultPart = z.infer<typeof toolResultPart>
export type MessagePart = z.infer<typeof messagePart>

/** What the send_email tool's result carries in `data`: the draft the user edits and sends with a mailto link. */
export const emailDraft = z.object({ to: z.string(), subject: z.string(), body: z.string() })
