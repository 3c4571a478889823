import { streamEndedEarly } from './errors'
import type { FinishReason, StreamEvent, ToolCall, Usage } from './types'

type Fragment = { id?: string | null; name?: string | null; arguments?: string | Record<string, unknown> | null }

/**
 * Assembles tool calls that arrive in fragments keyed by index (OpenAI, Mistral and compatible
 * servers): the first fragment names the call, later ones carry pieces of the argument JSON.
 */
export class ToolCallBuffer {
  private readonly calls = new Map<number, { id?: string; name: string; arguments: string }>()
  /** Where fragments of an index go now; moves when a server reuses an index for a new call. */
  private readonly slots = new Map<number, number>()

  add(index: number, fragment: Fragment) {
    // Mistral's SDK fills a missing id with the string "null".
    const id = fragment.id && fragment.id !== 'null' ? fragment.id : undefined
    let key = this.slots.get(index) ?? index
    const existing = this.calls.get(key)
    // Some servers give every call index 0: another id or another name then means another call.
    const startsNew =
      existing && ((id && existing.id && id !== existing.id) || (fragment.name && existing.name && (id !== existing.id || fragment.name !== existing.name)))
    if (startsNew) key = Math.max(...this.calls.keys(), index) + 1
    this.slots.set(index, key)
    const call = this.calls.get(key) ?? { name: '', arguments: '' }
    call.id ??= id
    call.name ||= fragment.name ?? ''
    if (typeof fragment.arguments === 'string') call.arguments += fragment.arguments
    else if (fragment.arguments) call.arguments = JSON.stringify(fragment.arguments)
    this.calls.set(key, call)
  }

  /** The assembled calls in index order; a call without arguments gets `{}`. */
  complete(): ToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({ id: call.id ?? `call_${index}`, name: call.name, arguments: call.arguments.trim() || '{}' }))
  }
}

/**
 * The end of an OpenAI-style chat completion stream (OpenAI, Mistral): the finished tool calls,
 * the usage, then the finish. A body that ended without a finish reason was cut off.
 */
export function* streamEnd(finish: FinishReason | undefined, calls: ToolCallBuffer, usage: Usage | undefined): Generator<StreamEvent> {
  if (!finish) throw streamEndedEarly()
  for (const call of calls.complete()) yield { type: 'tool_call', ...call }
  if (usage) yield { type: 'usage', ...usage }
  yield { type: 'finish', reason: finish }
}
