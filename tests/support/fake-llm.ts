/**
 * A fake model provider for tests and local development: a real HTTP server on 127.0.0.1 that
 * speaks the OpenAI, Mistral and Anthropic wire formats closely enough for their official SDKs.
 *
 * Routes: POST /v1/chat/completions (OpenAI shape; Mistral shape when the Mistral SDK's user agent
 * asks), POST /v1/messages (Anthropic), POST /v1/embeddings, GET /v1/models.
 *
 * What a reply does is scripted by the test, never by the product: either by markers in the last
 * user message (`[[fake:error=429]]`, `[[fake:slow-first-token=2000]]`, `[[fake:delay=50]]` between
 * deltas, `[[fake:cut-after=5]]`, `[[fake:stream-error=5]]` (the provider's in-stream error event after
 * 5 deltas), `[[fake:malformed]]`, `[[fake:tool=name:{"a":1}]]`,
 * `[[fake:reasoning]]`, `[[fake:tokens=N]]`, `[[fake:text=...]]` (the reply's text, also before its tool calls),
 * `[[fake:after-tool=...]]` (the reply once a tool result came back), `[[fake:title=...]]` (the answer to a request that does not
 * stream, i.e. the chat's title), `[[fake:tool-turns=N]]` (the tool calls again on each of the first N model calls), `[[fake:finish=length]]`, `[[fake:times=N]]` (the message's
 * error only for the first N requests carrying it, e.g. to let a Retry succeed); in embedding inputs
 * error and slow-first-token), or by `fake.script(...)`, whose replies take precedence. Without
 * either, the reply echoes the message: "You said: ...", streamed word by word. When the last
 * message is a tool result, the reply is "Tool result: <content>" (or the after-tool text) so a tool loop ends.
 * Models whose id starts with `unknown` answer 404 (Mistral: 400 invalid_model, as Mistral does).
 * A request without a key (Authorization or x-api-key), or with the key `wrong-key`, answers 401.
 */

import { hashingEmbedding } from '../../src/demo/embedding'
import { writesLeft } from '../../src/lib/next-turn'

export type Flavour = 'openai' | 'mistral' | 'anthropic'

/** One scripted answer. Everything is optional; what is left out falls back to the echo reply. */
export type FakeReply = {
  /** Which kind of request consumes this reply (default chat). */
  for?: 'chat' | 'embeddings'
  text?: string
  reasoning?: string
  toolCalls?: Array<{ name: string; arguments: unknown }>
  finish?: 'stop' | 'length' | 'content_filter'
  /** Answer with this HTTP status in the provider's error shape. */
  error?: number
  errorMessage?: string
  /** Sent as Retry-After (seconds, rounded up) and retry-after-ms with an error. */
  retryAfterMs?: number
  slowFirstTokenMs?: number
  /** Pause between content deltas, e.g. to watch a reply stream in during development. */
  delayMs?: number
  /** With `delayMs`: wait a random time between it and this instead (`[[fake:delay=20-50]]`). */
  delayMaxMs?: number
  /** Close the connection after this many content deltas. */
  cutAfter?: number
  /** With a marker-scripted error: only the first N requests with the same message fail. */
  times?: number
  /** With markers: the text of the answer to a request that does not stream (the chat's title request). */
  title?: string
  /** With marker-scripted tool calls: they are made again on each of the message's first N model calls (a loop that does not end by itself). */
  toolTurns?: number
  /** Send a chunk that is not JSON after the first delta. */
  malformed?: boolean
  /** After this many content deltas, send the provider's in-stream error event (overloaded) and end. */
  streamErrorAfter?: number
  /** Send this many frames per network chunk (a fast provider: many tokens in one chunk). */
  burst?: number
  /** After the first network chunk, wait until the test calls `release()`. */
  hold?: boolean
  /** OpenAI wire format: send no usage (as some OpenAI-compatible servers do). */
  noUsage?: boolean
}

export type FakeRequest = {
  method: string
  path: string
  flavour: Flavour
  headers: Record<string, string>
  body: any
  /** 'disconnected': the client closed the connection before the reply was complete. */
  outcome: 'pending' | 'complete' | 'disconnected' | 'cut'
}

type Plan = {
  deltas: Array<{ kind: 'text' | 'reasoning'; text: string }>
  toolCalls: Array<{ id: string; name: string; arguments: string }>
  finish: 'stop' | 'length' | 'content_filter' | 'tool_calls'
  inputTokens: number
} & Pick<FakeReply, 'error' | 'errorMessage' | 'retryAfterMs' | 'slowFirstTokenMs' | 'delayMs' | 'delayMaxMs' | 'cutAfter' | 'malformed' | 'streamErrorAfter' | 'burst' | 'hold' | 'noUsage'>

/** One SSE frame; `delta` marks frames that carry content (what cut-after and the faults count). */
type Frame = { data: string; delta?: boolean }
const CUT = Symbol('cut')
const encoder = new TextEncoder()
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** A text's tokens: each word with the white space before it. The last text's are kept: a bench asks for the same long reply again and again. */
const words = (text: string) => {
  if (text !== lastWords.text) lastWords = { text, words: text.split(/(?=\s)/).filter(Boolean) }
  return lastWords.words
}
let lastWords = { text: '', words: [] as string[] }
/** The text of `[[fake:tokens=N]]`, by N. */
const tokensText = (n: number) => tokenTexts.get(n) ?? tokenTexts.set(n, Array.from({ length: n }, (_, i) => `t${i}`).join(' ')).get(n)!
const tokenTexts = new Map<number, string>()
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length

export async function startFakeLlm(options: { port?: number; models?: string[]; requireKey?: boolean } = {}) {
  const models = options.models ?? ['fake-chat', 'fake-reasoner', 'fake-embedding']
  const requireKey = options.requireKey ?? true
  const queue: FakeReply[] = []
  const requests: FakeRequest[] = []
  /** How often each marked message has been seen, for `[[fake:times=N]]`. */
  const seen = new Map<string, number>()
  /** Streams scripted with `hold` wait here after their first network chunk (each takes the one current when it starts). */
  let held = Promise.withResolvers<void>()

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: options.port ?? 0,
    idleTimeout: 0, // a scripted slow first token may be longer than Bun's 10 s default
    async fetch(req) {
      const url = new URL(req.url)
      const headers = Object.fromEntries(req.headers)
      const flavour: Flavour =
        url.pathname.endsWith('/messages') || headers['anthropic-version']
          ? 'anthropic'
          : /mistral/i.test(headers['user-agent'] ?? '')
            ? 'mistral'
            : 'openai'
      const body = req.method === 'POST' ? await req.json().catch(() => undefined) : undefined
      const record: FakeRequest = { method: req.method, path: url.pathname, flavour, headers, body, outcome: 'pending' }
      requests.push(record)
      req.signal.addEventListener('abort', () => {
        if (record.outcome === 'pending') record.outcome = 'disconnected'
      })

      // Anthropic's SDK sends the key as x-api-key or (since 1.x) as a bearer token.
      const key = (flavour === 'anthropic' && headers['x-api-key']) || headers.authorization?.replace(/^Bearer\s*/i, '')
      if (requireKey && (!key || key === 'wrong-key')) return answered(record, errorResponse(flavour, 401))
      const route = `${req.method} ${url.pathname.replace(/^.*?(\/v1\/)/, '/v1/')}`
      if (route === 'GET /v1/models') return answered(record, Response.json(modelList(flavour, models)))
      if (route === 'POST /v1/embeddings') return embeddings(record, take('embeddings'))
      if (route === 'POST /v1/chat/completions' || route === 'POST /v1/messages') return chat(record, take('chat'), seen, held.promise)
      return answered(record, Response.json({ error: { message: `No route ${route}` } }, { status: 404 }))
    },
  })

  function take(kind: 'chat' | 'embeddings') {
    const index = queue.findIndex((r) => (r.for ?? 'chat') === kind)
    return index === -1 ? undefined : queue.splice(index, 1)[0]
  }

  return {
    url: `http://127.0.0.1:${server.port}`,
    port: server.port,
    /** Every request received, oldest first. */
    requests,
    /** Queue replies for the next requests (chat unless a reply says `for: 'embeddings'`). */
    script: (...replies: FakeReply[]) => void queue.push(...replies),
    reset: () => {
      queue.length = 0
      requests.length = 0
      seen.clear()
    },
    /** Lets every held stream go on (and holds the next ones again). */
    release: () => {
      held.resolve()
      held = Promise.withResolvers<void>()
    },
    close: () => server.stop(true),
  }
}

export type FakeLlm = Awaited<ReturnType<typeof startFakeLlm>>

function answered(record: FakeRequest, response: Response) {
  record.outcome = 'complete'
  return response
}

// ---- scripting ----------------------------------------------------------------------------

const MARKER = /\[\[fake:([a-z-]+)(?:=((?:(?!\]\]).)*))?\]\](?!\])/g

/** Reads `[[fake:...]]` markers; returns the scripted reply, the reply after a tool result and the text without them. */
export function parseMarkers(text: string): { reply: FakeReply; afterTool?: string; rest: string } {
  const reply: FakeReply = {}
  let afterTool: string | undefined
  for (const [, name, value = ''] of text.matchAll(MARKER)) {
    if (name === 'error') reply.error = Number(value)
    else if (name === 'slow-first-token') reply.slowFirstTokenMs = Number(value)
    else if (name === 'delay') {
      const [min, max] = value.split('-').map(Number)
      reply.delayMs = min
      if (max !== undefined) reply.delayMaxMs = max
    }
    else if (name === 'cut-after') reply.cutAfter = Number(value)
    else if (name === 'malformed') reply.malformed = true
    else if (name === 'burst') reply.burst = Number(value)
    else if (name === 'hold') reply.hold = true
    else if (name === 'no-usage') reply.noUsage = true
    else if (name === 'stream-error') reply.streamErrorAfter = Number(value)
    else if (name === 'reasoning') reply.reasoning = '' // empty: 'Thinking about: <the message>'
    else if (name === 'finish') reply.finish = value as FakeReply['finish']
    else if (name === 'times') reply.times = Number(value)
    else if (name === 'tool-turns') reply.toolTurns = Number(value)
    else if (name === 'tokens') reply.text = tokensText(Number(value))
    else if (name === 'text') reply.text = value
    else if (name === 'after-tool') afterTool = value
    else if (name === 'title') reply.title = value
    else if (name === 'tool') {
      const colon = value.indexOf(':')
      reply.toolCalls = [...(reply.toolCalls ?? []), { name: value.slice(0, colon), arguments: value.slice(colon + 1) }]
    }
  }
  return { reply, afterTool, rest: text.replace(MARKER, '').trim() }
}

type Turn = { role: string; text: string; toolResult?: string }

/** The conversation in one shape, whichever wire format it came in. */
function turnsOf(flavour: Flavour, body: any): Turn[] {
  const text = (content: unknown): string =>
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((b) => (b?.type === 'text' ? b.text : '')).join('')
        : ''
  const turns: Turn[] = []
  if (flavour === 'anthropic') {
    if (body?.system) turns.push({ role: 'system', text: text(body.system) })
    for (const m of body?.messages ?? []) {
      const result = Array.isArray(m.content) ? m.content.find((b: any) => b?.type === 'tool_result') : undefined
      turns.push({ role: m.role, text: text(m.content), toolResult: result && text(result.content) })
    }
  } else {
    for (const m of body?.messages ?? []) {
      turns.push({ role: m.role, text: text(m.content), toolResult: m.role === 'tool' ? text(m.content) : undefined })
    }
  }
  return turns
}

function planFor(flavour: Flavour, body: any, scripted: FakeReply | undefined, seen?: Map<string, number>): Plan {
  const turns = turnsOf(flavour, body)
  const last = turns.at(-1)
  const lastUser = turns.findLast((t) => t.role === 'user' && t.toolResult === undefined)
  const { reply: marked, afterTool, rest } = parseMarkers(lastUser?.text ?? '')
  if (marked.times !== undefined && seen) {
    const count = (seen.get(lastUser?.text ?? '') ?? 0) + 1
    seen.set(lastUser?.text ?? '', count)
    if (count > marked.times) delete marked.error
  }
  const toolResult = last?.toolResult
  // After a tool result the markers of the user's message are spent, or a tool loop never ends
  // (unless `tool-turns` asks for one: the model calls made for this message so far are counted).
  const callsSoFar = lastUser ? turns.slice(turns.lastIndexOf(lastUser) + 1).filter((t) => t.role === 'assistant').length : 0
  const repeat = marked.toolTurns !== undefined && callsSoFar < marked.toolTurns
  const reply: FakeReply =
    scripted ??
    (toolResult !== undefined && !repeat
      ? { text: afterTool ?? `Tool result: ${toolResult}` }
      : marked.title !== undefined && !body?.stream
        ? { text: marked.title }
        : marked)
  const text = reply.text ?? (reply.toolCalls?.length ? '' : `You said: ${rest}`)
  const reasoning = reply.reasoning === '' ? `Thinking about: ${rest}` : reply.reasoning
  const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({
    id: flavour === 'anthropic' ? `toolu_fake${i}` : `call_fake${i}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }))
  return {
    ...reply,
    deltas: [
      ...(reasoning ? words(reasoning).map((t) => ({ kind: 'reasoning' as const, text: t })) : []),
      ...words(text).map((t) => ({ kind: 'text' as const, text: t })),
    ],
    toolCalls,
    finish: reply.finish ?? (toolCalls.length ? 'tool_calls' : 'stop'),
    inputTokens: turns.reduce((n, t) => n + wordCount(t.text.replace(MARKER, '')), 0),
  }
}

// ---- chat ---------------------------------------------------------------------------------

async function chat(record: FakeRequest, scripted: FakeReply | undefined, seen?: Map<string, number>, held?: Promise<void>): Promise<Response> {
  const { flavour, body } = record
  const plan = planFor(flavour, body, scripted, seen)
  if (plan.error) return answered(record, errorResponse(flavour, plan.error, plan.errorMessage, plan.retryAfterMs))
  if (String(body?.model ?? '').startsWith('unknown')) {
    // Mistral answers an unknown model with 400 invalid_model.
    return answered(record, errorResponse(flavour, flavour === 'mistral' ? 400 : 404, `Invalid model: ${body.model}`, undefined, flavour === 'mistral' ? 'invalid_model' : undefined))
  }
  if (!body?.stream) {
    if (plan.slowFirstTokenMs) await sleep(plan.slowFirstTokenMs)
    if (record.outcome !== 'pending') return new Response(null)
    const message = flavour === 'anthropic' ? anthropicMessage(body, plan) : openaiMessage(flavour, body, plan)
    if (plan.malformed) return answered(record, new Response('{"id": "broken', { headers: { 'content-type': 'application/json' } }))
    return answered(record, Response.json(message))
  }
  const frames = flavour === 'anthropic' ? anthropicFrames(body, plan) : openaiFrames(flavour, body, plan)
  return sse(record, inChunks(withFaults(frames, plan, streamErrorFrame(flavour)), plan, held))
}

/** Joins `plan.burst` frames into each network chunk; with `plan.hold`, waits for `held` after the first one. */
async function* inChunks(frames: AsyncIterable<string | typeof CUT>, plan: Plan, held?: Promise<void>): AsyncIterable<string | typeof CUT> {
  let chunk = ''
  let count = 0
  let sent = 0
  for await (const frame of frames) {
    if (frame === CUT) {
      if (chunk) yield chunk
      return yield CUT
    }
    chunk += frame
    if (++count < (plan.burst ?? 1)) continue
    yield chunk
    chunk = ''
    count = 0
    if (++sent === 1 && plan.hold && held) await held
  }
  if (chunk) yield chunk
}

/** Applies the scripted faults to a well-formed stream of frames. */
async function* withFaults(frames: Iterable<Frame>, plan: Plan, errorFrame: string): AsyncIterable<string | typeof CUT> {
  let deltas = 0
  for (const frame of frames) {
    if (frame.delta && plan.streamErrorAfter !== undefined && deltas >= plan.streamErrorAfter) return yield errorFrame
    if (frame.delta && deltas === 0 && plan.slowFirstTokenMs) await sleep(plan.slowFirstTokenMs)
    if (frame.delta && deltas > 0 && plan.delayMs) await sleep(plan.delayMs + Math.random() * Math.max(0, (plan.delayMaxMs ?? plan.delayMs) - plan.delayMs))
    if (frame.delta && plan.cutAfter !== undefined && deltas >= plan.cutAfter) return yield CUT
    yield frame.data
    // The first delta again without its closing brace: the stream's own format, but not JSON.
    if (frame.delta && ++deltas === 1 && plan.malformed) yield frame.data.replace(/\}\n\n$/, '\n\n')
  }
}

function sse(record: FakeRequest, frames: AsyncIterable<string | typeof CUT>): Response {
  const iterator = frames[Symbol.asyncIterator]()
  let chunks = 0
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      // A provider's first chunk leaves at once. Bun's server sends what a stream was given in the
      // event loop's I/O phase, after the pull that gave it: a fast answer pulled on at once would
      // leave in pieces of 128–256 KB, its first bytes late. The second pull waits for that phase.
      if (chunks === 1) await writesLeft()
      const { done, value } = await iterator.next()
      if (record.outcome !== 'pending') return
      if (done) {
        record.outcome = 'complete'
        controller.close()
      } else if (value === CUT) {
        record.outcome = 'cut'
        await sleep(30) // lets the frames already queued reach the client before the reset
        controller.error() // resets the connection without the final chunk, as a dropped upstream does
      } else {
        controller.enqueue(encoder.encode(value))
        chunks++
      }
    },
    cancel() {
      if (record.outcome === 'pending') record.outcome = 'disconnected'
    },
  })
  return new Response(stream, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } })
}

const created = () => Math.floor(Date.now() / 1000)
const padding = () => Math.random().toString(36).slice(2, 3 + Math.floor(Math.random() * 10))

/** The error a provider sends inside a stream that has started (here: overloaded). */
function streamErrorFrame(flavour: Flavour) {
  if (flavour === 'anthropic') return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`
  return `data: ${JSON.stringify({ error: { message: 'The server is overloaded', type: 'server_error', param: null, code: null } })}\n\n`
}

function* openaiFrames(flavour: Flavour, body: any, plan: Plan): Iterable<Frame> {
  const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: created(), model: body.model }
  // OpenAI pads every streamed event with random characters of random length (a side-channel
  // mitigation), unless the request turns it off; Mistral does not.
  const obfuscated = flavour === 'openai' && body?.stream_options?.include_obfuscation !== false
  const chunk = (delta: object, finishReason: string | null = null, extra: object = {}): Frame => ({
    data: `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra, ...(obfuscated && { obfuscation: padding() }) })}\n\n`,
  })
  const content = (delta: object): Frame => ({ ...chunk(delta), delta: true })
  yield chunk({ role: 'assistant', content: '' })
  for (const d of plan.deltas) {
    if (d.kind === 'text') yield content({ content: d.text })
    else if (flavour === 'mistral') yield content({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: d.text }] }] })
    else yield content({ reasoning_content: d.text })
  }
  for (const [index, call] of plan.toolCalls.entries()) {
    if (flavour === 'mistral') {
      // Mistral sends each tool call whole.
      yield content({ tool_calls: [{ id: call.id, index, type: 'function', function: { name: call.name, arguments: call.arguments } }] })
      continue
    }
    yield chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] })
    for (const part of call.arguments.match(/.{1,8}/gs) ?? []) {
      yield content({ tool_calls: [{ index, function: { arguments: part } }] })
    }
  }
  const usage = usageOf(plan)
  if (flavour === 'mistral') yield chunk({ content: '' }, plan.finish, { usage })
  else {
    yield chunk({}, plan.finish)
    if (body.stream_options?.include_usage && !plan.noUsage) yield { data: `data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n` }
  }
  yield { data: 'data: [DONE]\n\n' }
}

function openaiMessage(flavour: Flavour, body: any, plan: Plan) {
  const text = plan.deltas.filter((d) => d.kind === 'text').map((d) => d.text).join('')
  const reasoning = plan.deltas.filter((d) => d.kind === 'reasoning').map((d) => d.text).join('')
  const content =
    flavour === 'mistral' && reasoning
      ? [{ type: 'thinking', thinking: [{ type: 'text', text: reasoning }] }, { type: 'text', text }]
      : text
  const message = {
    role: 'assistant',
    content,
    ...(flavour === 'openai' && reasoning && { reasoning_content: reasoning }),
    ...(plan.toolCalls.length && {
      tool_calls: plan.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
    }),
  }
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: created(),
    model: body.model,
    choices: [{ index: 0, message, finish_reason: plan.finish, logprobs: null }],
    ...(!plan.noUsage && { usage: usageOf(plan) }),
  }
}

function usageOf(plan: Plan) {
  const output = plan.deltas.length + plan.toolCalls.length
  return { prompt_tokens: plan.inputTokens, completion_tokens: output, total_tokens: plan.inputTokens + output }
}

const STOP_REASONS = { stop: 'end_turn', length: 'max_tokens', content_filter: 'refusal', tool_calls: 'tool_use' }

function* anthropicFrames(body: any, plan: Plan): Iterable<Frame> {
  const event = (type: string, data: object, delta = false): Frame => ({
    data: `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`,
    delta,
  })
  const message = { ...anthropicMessage(body, plan), content: [], stop_reason: null }
  yield event('message_start', { message: { ...message, usage: { input_tokens: plan.inputTokens, output_tokens: 1 } } })
  yield event('ping', {})
  let index = 0
  for (const kind of ['reasoning', 'text'] as const) {
    const deltas = plan.deltas.filter((d) => d.kind === kind)
    if (!deltas.length) continue
    const block = kind === 'reasoning' ? { type: 'thinking', thinking: '', signature: '' } : { type: 'text', text: '' }
    yield event('content_block_start', { index, content_block: block })
    for (const d of deltas) {
      const delta = kind === 'reasoning' ? { type: 'thinking_delta', thinking: d.text } : { type: 'text_delta', text: d.text }
      yield event('content_block_delta', { index, delta }, true)
    }
    if (kind === 'reasoning') yield event('content_block_delta', { index, delta: { type: 'signature_delta', signature: 'fake-signature' } })
    yield event('content_block_stop', { index: index++ })
  }
  for (const call of plan.toolCalls) {
    yield event('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } })
    for (const part of call.arguments.match(/.{1,8}/gs) ?? []) {
      yield event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } }, true)
    }
    yield event('content_block_stop', { index: index++ })
  }
  const { completion_tokens } = usageOf(plan)
  yield event('message_delta', {
    delta: { stop_reason: STOP_REASONS[plan.finish], stop_sequence: null },
    usage: { output_tokens: completion_tokens },
  })
  yield event('message_stop', {})
}

function anthropicMessage(body: any, plan: Plan) {
  const joined = (kind: string) => plan.deltas.filter((d) => d.kind === kind).map((d) => d.text).join('')
  const content = [
    ...(joined('reasoning') ? [{ type: 'thinking', thinking: joined('reasoning'), signature: 'fake-signature' }] : []),
    ...(joined('text') ? [{ type: 'text', text: joined('text') }] : []),
    ...plan.toolCalls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.arguments || '{}') })),
  ]
  return {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: body.model,
    content,
    stop_reason: STOP_REASONS[plan.finish],
    stop_sequence: null,
    usage: { input_tokens: plan.inputTokens, output_tokens: usageOf(plan).completion_tokens },
  }
}

// ---- errors, models, embeddings -----------------------------------------------------------

/** Per status: Anthropic's error type, OpenAI's error type and code. */
const ERROR_TYPES: Record<number, [anthropic: string, openai: string, code: string | null]> = {
  400: ['invalid_request_error', 'invalid_request_error', null],
  401: ['authentication_error', 'invalid_request_error', 'invalid_api_key'],
  404: ['not_found_error', 'invalid_request_error', 'model_not_found'],
  429: ['rate_limit_error', 'requests', 'rate_limit_exceeded'],
  529: ['overloaded_error', 'server_error', null],
}

/** An error answer in the provider's own shape; Mistral's `type` is what OpenAI calls the code. */
function errorResponse(flavour: Flavour, status: number, message = `Fake error ${status}`, retryAfterMs?: number, mistralType?: string) {
  const [anthropicType, openaiType, code] = ERROR_TYPES[status] ?? ['api_error', 'server_error', null]
  const body =
    flavour === 'anthropic'
      ? { type: 'error', error: { type: anthropicType, message } }
      : flavour === 'mistral'
        ? { object: 'error', message, type: mistralType ?? code ?? openaiType, param: null, code: String(status) }
        : { error: { message, type: openaiType, param: null, code } }
  const headers: Record<string, string> = { 'x-request-id': 'req_fake' }
  if (retryAfterMs !== undefined) {
    headers['retry-after'] = String(Math.ceil(retryAfterMs / 1000))
    headers['retry-after-ms'] = String(retryAfterMs)
  }
  return Response.json(body, { status, headers })
}

function modelList(flavour: Flavour, models: string[]) {
  if (flavour === 'anthropic') {
    const data = models.map((id) => ({ id, type: 'model', display_name: id, created_at: '2026-01-01T00:00:00Z' }))
    return { data, has_more: false, first_id: models[0] ?? null, last_id: models.at(-1) ?? null }
  }
  const data = models.map((id) => ({
    id,
    object: 'model',
    created: 1767225600,
    owned_by: 'fake',
    ...(flavour === 'mistral' && { type: 'base', capabilities: { completion_chat: true, function_calling: true } }),
  }))
  return { object: 'list', data }
}

async function embeddings(record: FakeRequest, scripted: FakeReply | undefined): Promise<Response> {
  const { flavour, body } = record
  const inputs: string[] = [body?.input ?? body?.inputs ?? []].flat()
  const marked = parseMarkers(inputs.join(' ')).reply
  const reply = scripted ?? marked
  if (reply.error) return answered(record, errorResponse(flavour, reply.error, reply.errorMessage, reply.retryAfterMs))
  if (String(body?.model ?? '').startsWith('unknown')) return answered(record, errorResponse(flavour, 404, `model: ${body.model}`))
  if (reply.slowFirstTokenMs) await sleep(reply.slowFirstTokenMs)
  if (record.outcome !== 'pending') return new Response(null)
  const dims = body?.dimensions ?? body?.output_dimension ?? 256
  const data = inputs.map((text, index) => {
    const vector = fakeEmbedding(parseMarkers(text).rest, dims)
    const embedding = body?.encoding_format === 'base64' ? toBase64(vector) : vector
    return { object: 'embedding', index, embedding }
  })
  const tokens = inputs.reduce((n, t) => n + wordCount(t), 0)
  return answered(record, Response.json({ id: 'emb-fake', object: 'list', model: body.model, data, usage: { prompt_tokens: tokens, total_tokens: tokens } }))
}

/** The demo provider's embedding: retrieval tests need texts that share words to be close. */
export const fakeEmbedding = hashingEmbedding

function toBase64(vector: number[]) {
  return Buffer.from(new Float32Array(vector).buffer).toString('base64')
}
