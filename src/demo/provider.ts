/**
 * The demo's model provider and built-in web, one HTTP server on 127.0.0.1 speaking the OpenAI
 * wire format (GET /v1/models, POST /v1/chat/completions streaming or not, with tool calls,
 * POST /v1/embeddings), SearXNG's JSON search API (GET /search?q=…&format=json) over the
 * built-in pages, and those pages (GET /pages/<slug>). Requests to /v1 need the key it was
 * started with: another program on this machine cannot use it by chance.
 */
import { DEMO_PAGES, demoPageHtml, GUIDE_SLUG, searchDemoPages } from './content'
import { hashingEmbedding } from './embedding'
import { chatTurn, completeTurn, type DemoTurn, type WireMessage } from './turns'

export const DEMO_CHAT_MODEL = 'demo-assistant'
export const DEMO_EMBEDDING_MODEL = 'demo-embedding'

export type DemoProviderOptions = {
  port?: number
  apiKey: string
  /** Pause between streamed pieces, so that an answer is seen arriving (0 in tests). */
  delayMs?: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const error = (status: number, message: string) => Response.json({ error: { message, type: 'invalid_request_error', param: null, code: null } }, { status })

export function startDemoProvider(options: DemoProviderOptions) {
  const delayMs = options.delayMs ?? 25
  const server: Bun.Server<undefined> = Bun.serve({
    hostname: '127.0.0.1',
    port: options.port ?? 0,
    idleTimeout: 0,
    async fetch(req): Promise<Response> {
      const url = new URL(req.url)
      const base: string = `http://127.0.0.1:${server.port}`
      if (req.method === 'GET' && url.pathname === '/search') {
        return Response.json({ query: url.searchParams.get('q') ?? '', results: searchDemoPages(url.searchParams.get('q') ?? '', `${base}/pages`) })
      }
      if (req.method === 'GET' && url.pathname.startsWith('/pages/')) {
        const page = DEMO_PAGES.find((p) => p.slug === url.pathname.slice('/pages/'.length))
        return page ? new Response(demoPageHtml(page), { headers: { 'content-type': 'text/html; charset=utf-8' } }) : new Response('Not found', { status: 404 })
      }
      if (!url.pathname.startsWith('/v1/')) return error(404, `No route ${req.method} ${url.pathname}`)
      if (req.headers.get('authorization') !== `Bearer ${options.apiKey}`) return error(401, 'Incorrect API key provided.')
      if (req.method === 'GET' && url.pathname === '/v1/models') {
        const data = [DEMO_CHAT_MODEL, DEMO_EMBEDDING_MODEL].map((id) => ({ id, object: 'model', created: 1767225600, owned_by: 'kontor-demo' }))
        return Response.json({ object: 'list', data })
      }
      if (req.method !== 'POST') return error(404, `No route ${req.method} ${url.pathname}`)
      const body = (await req.json().catch(() => undefined)) as any
      if (!body || typeof body !== 'object') return error(400, 'The body must be a JSON object.')
      if (url.pathname === '/v1/embeddings') return embeddings(body)
      if (url.pathname !== '/v1/chat/completions') return error(404, `No route POST ${url.pathname}`)
      if (body.model !== DEMO_CHAT_MODEL) return error(404, `The model '${body.model}' does not exist.`)
      const messages: WireMessage[] = Array.isArray(body.messages) ? body.messages : []
      const tools: string[] = (Array.isArray(body.tools) ? body.tools : []).map((t: any) => t?.function?.name).filter(Boolean)
      if (!body.stream) return Response.json(completion(body.model, completeTurn(messages)))
      return streamed(body.model, chatTurn(messages, tools, `${base}/pages/${GUIDE_SLUG}`), delayMs, req.signal)
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) }
}

export type DemoProvider = ReturnType<typeof startDemoProvider>

function embeddings(body: any): Response {
  if (body.model !== DEMO_EMBEDDING_MODEL) return error(404, `The model '${body.model}' does not exist.`)
  const inputs: unknown[] = [body.input ?? []].flat()
  if (!inputs.every((i) => typeof i === 'string')) return error(400, 'input must be a string or an array of strings.')
  const data = (inputs as string[]).map((text, index) => ({ object: 'embedding', index, embedding: hashingEmbedding(text, body.dimensions ?? 256) }))
  const tokens = (inputs as string[]).reduce((n, t) => n + tokenCount(t), 0)
  return Response.json({ object: 'list', model: body.model, data, usage: { prompt_tokens: tokens, total_tokens: tokens } })
}

const tokenCount = (text: string) => Math.ceil(text.length / 4)
const usageOf = (turn: DemoTurn) => {
  const output = tokenCount(turn.text) + turn.toolCalls.reduce((n, c) => n + tokenCount(c.arguments), 0)
  return { prompt_tokens: 0, completion_tokens: output, total_tokens: output }
}
const callsOf = (turn: DemoTurn) => turn.toolCalls.map((c, i) => ({ id: `call_demo_${crypto.randomUUID().slice(0, 8)}_${i}`, type: 'function', function: c }))

function completion(model: string, turn: DemoTurn) {
  const message = { role: 'assistant', content: turn.text, ...(turn.toolCalls.length && { tool_calls: callsOf(turn) }) }
  const finish = turn.toolCalls.length ? 'tool_calls' : 'stop'
  return { id: `chatcmpl-demo`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, message, finish_reason: finish }], usage: usageOf(turn) }
}

/** The answer as server-sent events: the text a few words at a time, then the tool calls, the finish reason and the usage. */
function streamed(model: string, turn: DemoTurn, delayMs: number, signal: AbortSignal): Response {
  const head = { id: 'chatcmpl-demo', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model }
  const frame = (choices: object[], extra: object = {}) => `data: ${JSON.stringify({ ...head, choices, ...extra })}\n\n`
  const delta = (d: object, finish: string | null = null) => frame([{ index: 0, delta: d, finish_reason: finish }])
  const pieces = turn.text.match(/\S+\s*|\s+/g) ?? []
  const encoder = new TextEncoder()
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      // A reader that went away (a stopped reply) makes enqueue throw: the answer just ends.
      const send = (text: string) => void (signal.aborted || controller.enqueue(encoder.encode(text)))
      send(delta({ role: 'assistant', content: '' }))
      for (let i = 0; i < pieces.length && !signal.aborted; i += 2) {
        send(delta({ content: pieces.slice(i, i + 2).join('') }))
        if (delayMs) await sleep(delayMs)
      }
      callsOf(turn).forEach((c, index) => send(delta({ tool_calls: [{ index, ...c }] })))
      send(delta({}, turn.toolCalls.length ? 'tool_calls' : 'stop'))
      send(frame([], { usage: usageOf(turn) }))
      send('data: [DONE]\n\n')
      if (!signal.aborted) controller.close()
    },
  })
  return new Response(stream, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } })
}
