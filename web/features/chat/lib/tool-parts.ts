import type { ToolPart } from './thread-cache'

type ToolResult = Extract<ToolPart, { type: 'tool_result' }>

/** A tool call of a reply, with its result once the tool has answered. */
export type ToolCallView = {
  id: string
  name: string
  /** The arguments as the model sent them (normally JSON). */
  arguments: string
  /** Where in the reply's text the call was made. */
  offset: number
  result?: ToolResult
}

/** A piece of a reply: text, or the tool calls made at that point of it. */
export type ReplySegment = { kind: 'text'; text: string } | { kind: 'tools'; calls: ToolCallView[] }

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

const isCall = (p: unknown): p is Extract<ToolPart, { type: 'tool_call' }> =>
  isObject(p) && p.type === 'tool_call' && typeof p.id === 'string' && typeof p.name === 'string'

const isResult = (p: unknown): p is ToolResult =>
  isObject(p) && p.type === 'tool_result' && typeof p.id === 'string' && typeof p.result === 'string' && typeof p.isError === 'boolean'

/** The tool calls among a message's parts, in order, each with its result; parts of other shapes are ignored. */
export function toolCallsOf(parts: unknown[]): ToolCallView[] {
  const results = new Map<string, ToolResult>()
  for (const p of parts) if (isResult(p) && !results.has(p.id)) results.set(p.id, p)
  const seen = new Set<string>()
  const calls: ToolCallView[] = []
  for (const p of parts) {
    if (!isCall(p) || seen.has(p.id)) continue
    seen.add(p.id)
    const offset = typeof p.offset === 'number' && Number.isFinite(p.offset) ? p.offset : 0
    calls.push({ id: p.id, name: p.name, arguments: typeof p.arguments === 'string' ? p.arguments : '', offset, result: results.get(p.id) })
  }
  return calls
}

/**
 * The reply's text cut at the offsets of its tool calls: the text before, the calls made there,
 * the text after. Offsets out of range are clamped; calls at one offset (or separated by
 * whitespace only) form one group; text that is only whitespace is left out.
 */
export function segmentsOf(content: string, calls: ToolCallView[]): ReplySegment[] {
  const placed = calls
    .map((call, index) => ({ call, index, offset: Math.min(Math.max(Math.trunc(call.offset), 0), content.length) }))
    .sort((a, b) => a.offset - b.offset || a.index - b.index)
  const segments: ReplySegment[] = []
  let at = 0
  const pushText = (text: string) => {
    if (text.trim()) segments.push({ kind: 'text', text })
  }
  for (const { call, offset } of placed) {
    if (offset > at) {
      pushText(content.slice(at, offset))
      at = offset
    }
    const last = segments.at(-1)
    if (last?.kind === 'tools') last.calls.push(call)
    else segments.push({ kind: 'tools', calls: [call] })
  }
  pushText(content.slice(at))
  return segments
}

/** The call's arguments as an object, or null when they are not a JSON object. */
export function parseArguments(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text)
    return isObject(value) && !Array.isArray(value) ? value : null
  } catch {
    return null
  }
}
