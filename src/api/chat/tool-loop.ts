import type { ChatMessage, ChatProvider, ChatRequest, StreamEvent, ToolCall, ToolDefinition } from '../../ai'
import { AppError } from '../../lib/errors'
import { toolDefinition } from '../../ai/tools'
import { runToolCall } from '../../ai/tools/run-tool'
import type { Tool, ToolContext } from '../../ai/tools/types'
import type { MessagePart } from './schema'
import type { ReplyEvent } from './sse'

/** At most this many model calls answer one user message; a model still calling tools then is stopped. */
export const MAX_MODEL_CALLS = 10

/** The reply as it grows; what the stream writes to the database. */
export type ReplyState = {
  content: string
  reasoning: string
  parts: MessagePart[]
  inputTokens: number | null
  outputTokens: number | null
}

export type ToolLoop = {
  provider: ChatProvider
  model: string
  messages: ChatMessage[]
  tools: Tool[]
  toolContext: ToolContext
  state: ReplyState
  send: (e: ReplyEvent) => void
  /** Sends what `send` collected: called after each network chunk of the provider's answer (see `onChunkEnd`). */
  flush: () => void | Promise<void>
  /**
   * Notes that the state changed, and what text or reasoning it appended (`delta`, exactly what was
   * added to the end of `state[field]`): it is written to the database within a few hundred
   * milliseconds. The reply's text and reasoning only ever grow by such appends (the writer relies
   * on it: reply-writer.ts, `takeNew`).
   */
  changed: (field?: 'content' | 'reasoning', delta?: string) => void
  /** Writes the state to the database now. */
  checkpoint: () => Promise<void>
  /** The first model call, already started with these messages and tools (startModelCall). */
  firstCall?: EarlyCall
}

/** A model call started before the loop runs; the loop's first turn reads its events. */
export type EarlyCall = {
  events: AsyncIterable<StreamEvent>
  /** Where `onChunkEnd` goes from now on (the reply's stream, once it exists). */
  flushTo: (flush: () => void | Promise<void>) => void
  /** Ends the call unread (its request is aborted). */
  cancel: () => void
}

/**
 * Starts a model call now, so that its request is on its way while the reply's rows are written
 * (send.ts). Its first event waits for whoever reads `events`; `cancel` aborts it. The tools are
 * offered as the loop offers them.
 */
export function startModelCall(provider: ChatProvider, req: Omit<ChatRequest, 'tools' | 'onChunkEnd' | 'signal'> & { tools: Tool[]; signal: AbortSignal }): EarlyCall {
  const own = new AbortController()
  let flush: () => void | Promise<void> = () => {}
  const iterator = provider
    .streamChat({ ...req, tools: definitionsOf(req.tools), signal: AbortSignal.any([req.signal, own.signal]), onChunkEnd: () => flush() })
    [Symbol.asyncIterator]()
  // Asking for the first event sends the request; a failure waits for the reader (or is dropped with the call).
  let first: Promise<IteratorResult<StreamEvent>> | undefined = iterator.next()
  first.catch(() => {})
  return {
    events: {
      [Symbol.asyncIterator]: () => ({
        next: () => {
          const pending = first
          first = undefined
          return pending ?? iterator.next()
        },
        return: (value?: unknown) => iterator.return?.(value) ?? Promise.resolve({ done: true as const, value: undefined }),
      }),
    },
    flushTo: (f) => void (flush = f),
    cancel: () => {
      own.abort(new DOMException('Not needed', 'AbortError'))
      void iterator.return?.(undefined).catch(() => {})
    },
  }
}

/**
 * Runs the model until it answers without calling a tool: each tool call is streamed, run and
 * its result given back to the model on the next call. Text, reasoning and usage of all calls
 * add up to one reply; usage events carry the totals so far. More than MAX_MODEL_CALLS calls
 * throw MAX_ITERATIONS_REACHED, keeping what was streamed.
 */
export async function runToolLoop(loop: ToolLoop) {
  const { state, send, toolContext } = loop
  const messages = [...loop.messages]
  const tools = definitionsOf(loop.tools)
  const usedIds = new Set<string>()

  for (let call = 1; ; call++) {
    const turn = await modelTurn(loop, messages, tools, call === 1 ? loop.firstCall : undefined)
    if (!turn.toolCalls.length) return
    // The calls of the last allowed turn are not run: no model call would read their results.
    if (call >= MAX_MODEL_CALLS) throw new AppError('MAX_ITERATIONS_REACHED')
    messages.push({
      role: 'assistant',
      content: turn.text,
      toolCalls: turn.toolCalls,
      // Anthropic continues a loop with thinking only when the signed thinking comes back unchanged.
      ...(turn.signature && { reasoning: turn.reasoning, reasoningSignature: turn.signature }),
    })

    // Providers may reuse ids across turns; the chat's parts need them unique within the reply.
    const ids = turn.toolCalls.map((c) => uniqueId(c.id, usedIds))
    for (const [i, c] of turn.toolCalls.entries()) {
      state.parts.push({ type: 'tool_call', id: ids[i]!, name: c.name, arguments: c.arguments, offset: state.content.length })
      send({ event: 'tool_call', data: { id: ids[i]!, name: c.name, arguments: c.arguments } })
    }
    await loop.checkpoint()

    const running = turn.toolCalls.map((c) => runToolCall(c, loop.tools, toolContext))
    for (const r of running) r.catch(() => {}) // an abort is rethrown below, in order
    for (const [i, c] of turn.toolCalls.entries()) {
      const result = await running[i]!
      const extra = { ...(result.code && { code: result.code }), ...(result.data !== undefined && { data: result.data }) }
      state.parts.push({ type: 'tool_result', id: ids[i]!, name: c.name, result: result.content, isError: result.isError, ...extra })
      send({ event: 'tool_result', data: { id: ids[i]!, name: c.name, result: result.content, isError: result.isError, ...extra } })
      messages.push({ role: 'tool', toolCallId: c.id, content: result.content })
      await loop.checkpoint()
    }
  }
}

/** One streamed model call: its deltas go out as they come; its tool calls are collected. */
async function modelTurn(loop: ToolLoop, messages: ChatMessage[], tools: ToolDefinition[] | undefined, started?: EarlyCall) {
  const { state, send } = loop
  const turn = { text: '', reasoning: '', signature: undefined as string | undefined, toolCalls: [] as ToolCall[] }
  const before = { input: state.inputTokens ?? 0, output: state.outputTokens ?? 0, content: state.content.length, reasoning: state.reasoning.length }
  started?.flushTo(loop.flush)
  const events = started?.events ?? loop.provider.streamChat({ model: loop.model, messages, tools, signal: loop.toolContext.signal, onChunkEnd: loop.flush })
  for await (const e of events) {
    if (e.type === 'text') {
      state.content += e.delta
      send({ event: 'text', data: { delta: e.delta } })
      loop.changed('content', e.delta)
      continue
    } else if (e.type === 'reasoning') {
      state.reasoning += e.delta
      send({ event: 'reasoning', data: { delta: e.delta } })
      loop.changed('reasoning', e.delta)
      continue
    } else if (e.type === 'reasoning_signature') {
      turn.signature = e.signature
    } else if (e.type === 'tool_call') {
      turn.toolCalls.push({ id: e.id, name: e.name, arguments: e.arguments })
    } else if (e.type === 'usage') {
      state.inputTokens = before.input + e.inputTokens
      state.outputTokens = before.output + e.outputTokens
      send({ event: 'usage', data: { inputTokens: state.inputTokens, outputTokens: state.outputTokens } })
    }
    loop.changed()
  }
  // The turn's text is what it added to the reply's. Kept as a second string of its own, it held
  // every delta of the turn until its end (the writer keeps the reply's text as a few pieces,
  // joined a tick at a time and made flat every 32 ticks or at a write of the whole reply).
  turn.text = state.content.slice(before.content)
  turn.reasoning = state.reasoning.slice(before.reasoning)
  return turn
}

/** A tool's JSON Schema is the same for every chat: it is built once. */
const definitions = new WeakMap<Tool, ToolDefinition>()
const definitionOf = (tool: Tool) => definitions.get(tool) ?? definitions.set(tool, toolDefinition(tool)).get(tool)!
const definitionsOf = (tools: Tool[]) => (tools.length ? tools.map(definitionOf) : undefined)

function uniqueId(id: string, used: Set<string>) {
  let unique = id || 'call'
  for (let n = 2; used.has(unique); n++) unique = `${id || 'call'}-${n}`
  used.add(unique)
  return unique
}
