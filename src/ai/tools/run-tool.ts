import type { ToolCall } from '../index'
import { ERRORS, type ErrorCode } from '../../lib/errors'
import { ToolError, type Tool, type ToolContext } from './types'

/** Longest tool output the model gets; longer output is cut with a note saying so. */
export const MAX_TOOL_OUTPUT = 20_000

/** What a call produced: `content` goes to the model, the rest to the chat (stream and stored parts). */
export type ToolResult = { content: string; isError: boolean; code?: ErrorCode; data?: unknown }

/**
 * Runs one tool call the model made. Nothing the model sends can break the reply: an unknown
 * tool, arguments that are not JSON or do not fit the schema, and failures of the tool all come
 * back as error results the model can read and correct. Only the caller's abort is rethrown.
 */
export async function runToolCall(call: ToolCall, tools: Tool[], ctx: ToolContext): Promise<ToolResult> {
  const tool = tools.find((t) => t.name === call.name)
  if (!tool) {
    const names = tools.map((t) => t.name).join(', ') || 'none'
    return failed(`${ERRORS.TOOL_NOT_FOUND[1]}: there is no tool named "${call.name}". Available tools: ${names}.`, 'TOOL_NOT_FOUND')
  }
  let raw: unknown
  try {
    raw = JSON.parse(call.arguments.trim() || '{}')
  } catch {
    return failed('The arguments are not valid JSON. Call the tool again with a JSON object that matches its parameters.', 'VALIDATION_FAILED')
  }
  const parsed = tool.parameters.safeParse(raw)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')
    return failed(`Invalid arguments (${problems}). Call the tool again with corrected arguments.`, 'VALIDATION_FAILED')
  }
  ctx.signal.throwIfAborted()
  try {
    const output = await tool.run(parsed.data, ctx)
    return { content: cut(output.content), isError: false, ...(output.data !== undefined && { data: output.data }) }
  } catch (error) {
    if (ctx.signal.aborted) throw error
    if (error instanceof ToolError) return failed(cut(error.message))
    ctx.deps.logger.warn('tool failed', { tool: call.name, threadId: ctx.threadId, error })
    return failed('The tool failed unexpectedly. Try again later or answer without it.')
  }
}

const failed = (content: string, code?: ErrorCode): ToolResult => ({ content, isError: true, ...(code && { code }) })

/** Cuts output past MAX_TOOL_OUTPUT characters (never inside a surrogate pair) and says so. */
export function cut(content: string): string {
  if (content.length <= MAX_TOOL_OUTPUT) return content
  let end = MAX_TOOL_OUTPUT
  if (/[\uD800-\uDBFF]/.test(content[end - 1]!)) end--
  return `${content.slice(0, end)}\n\n[Output cut: the tool returned ${content.length.toLocaleString('en')} characters; only the first ${MAX_TOOL_OUTPUT.toLocaleString('en')} are shown.]`
}
