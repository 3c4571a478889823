import { describe, expect, test } from 'bun:test'
import { sseFrame, type ReplyEvent } from '../../../../src/api/chat/sse'
import { isApiError } from '../../../lib/api-client'
import { hasMath, normalizeMathDelimiters } from './math-text'
import { attachReply, readSseEvents, requestStop, streamReply } from './stream'

const events: ReplyEvent[] = [
  { event: 'message_start', data: { threadId: 't1', userMessageId: 'u1', assistantMessageId: 'a1', model: 'openai/gpt-4.1' } },
  { event: 'reasoning', data: { delta: 'Hmm… ' } },
  { event: 'text', data: { delta: 'Grüße ' } },
  { event: 'text', data: { delta: 'aus 🇩🇪 München\n\n```ts\nx\n```' } },
  { event: 'usage', data: { inputTokens: 12, outputTokens: 7 } },
  { event: 'title', data: { title: 'Grüße' } },
  { event: 'message_end', data: { status: 'complete' } },
]
const bytes = () => {
  const parts = events.map(sseFrame)
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let offset = 0
  for (const p of parts) {
    all.set(p, offset)
    offset += p.length
  }
  return all
}

function streamOf(chunks: Uint8Array[]) {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(c)
      controller.close()
    },
  })
}

async function collect(body: ReadableStream<Uint8Array>) {
  const out: ReplyEvent[] = []
  for await (const e of readSseEvents(body)) out.push(e)
  return out
}

describe('reading the reply stream', () => {
  test('frames split at every possible byte, even inside a character, come out whole and in order', async () => {
    const all = bytes()
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const chunks: Uint8Array[] = []
      for (let i = 0; i < all.length; i += size) chunks.push(all.slice(i, i + size))
      expect(await collect(streamOf(chunks))).toEqual(events)
    }
  })

  test('several frames in one chunk, CRLF line ends, comments and unknown events', async () => {
    const text =
      ': keep-alive\r\n\r\n' +
      'event: text\r\ndata: {"delta":"a"}\r\n\r\n' +
      'event: surprise\ndata: {}\n\n' +
      'event: text\ndata: not json\n\n' +
      'event: text\ndata: {"delta":"b"}\n\n' +
      'event: message_end\ndata: {"status":"stopped"}'
    const got = await collect(streamOf([new TextEncoder().encode(text)]))
    expect(got).toEqual([
      { event: 'text', data: { delta: 'a' } },
      { event: 'text', data: { delta: 'b' } },
      { event: 'message_end', data: { status: 'stopped' } },
    ])
  })

  test('a refusal before the stream is an ApiError with its code and status', async () => {
    const fetcher = (async () =>
      Response.json({ code: 'REPLY_IN_PROGRESS', message: 'busy', status: 409 }, { status: 409 })) as unknown as typeof fetch
    const run = streamReply({ kind: 'send', threadId: 't1', content: 'hi' }, new AbortController().signal, fetcher)
    const error = await run.next().then(
      () => null,
      (e: unknown) => e,
    )
    expect(isApiError(error) && error.code).toBe('REPLY_IN_PROGRESS')
    expect(isApiError(error) && error.status).toBe(409)
  })

  test('sends the message, replaceLast only when set, to the right endpoint', async () => {
    const calls: Array<{ url: string; body: string }> = []
    const fetcher = (async (url: string, init: RequestInit) => {
      calls.push({ url, body: String(init.body) })
      return new Response(streamOf([sseFrame({ event: 'message_end', data: { status: 'complete' } })]), {
        headers: { 'content-type': 'text/event-stream' },
      })
    }) as unknown as typeof fetch
    const signal = new AbortController().signal
    for await (const _ of streamReply({ kind: 'send', threadId: 'a/b', content: 'x' }, signal, fetcher));
    for await (const _ of streamReply({ kind: 'send', threadId: 't', content: 'y', replaceLast: true }, signal, fetcher));
    for await (const _ of streamReply({ kind: 'regenerate', threadId: 't' }, signal, fetcher));
    expect(calls).toEqual([
      { url: '/api/threads/a%2Fb/messages', body: '{"content":"x"}' },
      { url: '/api/threads/t/messages', body: '{"content":"y","replaceLast":true}' },
      { url: '/api/threads/t/regenerate', body: '{}' },
    ])
  })
})

describe('resuming a reply', () => {
  test("each event keeps its frame's id; attaching names the last one, and Stop posts to the reply", async () => {
    const text = 'id: 0.0.0\nevent: message_start\ndata: {"threadId":"t","userMessageId":null,"assistantMessageId":"a","model":"m"}\n\nid: 3.0.0\nevent: text\ndata: {"delta":"abc"}\n\n'
    const calls: Array<{ url: string; method: string; lastEventId: string | null }> = []
    const fetcher = (async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method ?? 'GET', lastEventId: new Headers(init.headers).get('last-event-id') })
      return init.method === 'POST' ? new Response(null, { status: 204 }) : new Response(streamOf([new TextEncoder().encode(text)]))
    }) as unknown as typeof fetch
    const got = []
    for await (const e of attachReply('t 1', 'a', '2.0.0', new AbortController().signal, fetcher)) got.push(e)
    expect(got.map((e) => e.id)).toEqual(['0.0.0', '3.0.0'])
    await requestStop('t 1', 'a', fetcher)
    expect(calls).toEqual([
      { url: '/api/threads/t%201/messages/a/stream', method: 'GET', lastEventId: '2.0.0' },
      { url: '/api/threads/t%201/messages/a/stop', method: 'POST', lastEventId: null },
    ])
  })
})

describe('math delimiters', () => {
  test('\\( \\) and \\[ \\] become $$, code is left alone, money is not math', () => {
    expect(hasMath('It costs $5 to $10')).toBe(false)
    expect(hasMath('Euler: \\(e^{i\\pi}+1=0\\)')).toBe(true)
    expect(normalizeMathDelimiters('a \\(x^2\\) b')).toBe('a $$x^2$$ b')
    expect(normalizeMathDelimiters('\\[\\int_0^1 x\\,dx\\]')).toBe('\n$$\n\\int_0^1 x\\,dx\n$$\n')
    expect(normalizeMathDelimiters('`\\(x\\)` and\n```\n\\[y\\]\n```')).toBe('`\\(x\\)` and\n```\n\\[y\\]\n```')
  })
})
