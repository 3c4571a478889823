/** The events of a streamed reply, in order; text and reasoning carry deltas, never the text so far. */
export type ReplyEvent =
  | { event: 'message_start'; data: { threadId: string; userMessageId: string | null; assistantMessageId: string; model: string } }
  | { event: 'text'; data: { delta: string } }
  | { event: 'reasoning'; data: { delta: string } }
  | { event: 'tool_call'; data: { id: string; name: string; arguments: string } }
  | { event: 'tool_result'; data: { id: string; name: string; result: string; isError: boolean; code?: string; data?: unknown } }
  | { event: 'usage'; data: { inputTokens: number; outputTokens: number } }
  | { event: 'title'; data: { title: string } }
  | { event: 'error'; data: { code: string; message: string } }
  | { event: 'message_end'; data: { status: 'complete' | 'stopped' | 'failed' } }

const encoder = new TextEncoder()

/** One Server-Sent-Events frame. */
export function sseFrame(e: ReplyEvent): Uint8Array {
  return encoder.encode(`event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`)
}
