/**
 * Each official SDK, through its adapter and the gateway, against the fake provider server:
 * the same contract for every provider kind, including every scripted failure.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, spyOn, test } from 'bun:test'
import { fakeEmbedding, type FakeLlm, startFakeLlm } from '../../tests/support/fake-llm'
import { createProvider, ProviderError } from './index'
import { FIRST_BATCH } from './sse'
import { TextTemplate } from './text-template'
import type { ChatMessage, ChatProvider, ChatRequest, ProviderConfig, ProviderKind, StreamEvent } from './types'

let fake: FakeLlm
beforeAll(async () => {
  fake = await startFakeLlm()
})
afterAll(() => fake.close())
beforeEach(() => fake.reset())

const KINDS: ProviderKind[] = ['openai', 'openai-compatible', 'mistral', 'anthropic']
// Generous timeouts so a loaded CI machine does not trip them; the timeout tests set short ones.
const FAST = {
  timeouts: { firstTokenMs: 5000, idleMs: 5000, requestMs: 5000 },
  retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 300 },
}
const SHORT_TIMEOUTS = { timeouts: { firstTokenMs: 200, idleMs: 200, requestMs: 200 } }

function provider(kind: ProviderKind, overrides: Partial<ProviderConfig> = {}): ChatProvider {
  const baseUrl = kind === 'openai' ? `${fake.url}/v1` : fake.url
  return createProvider({ kind, apiKey: 'test-key', baseUrl, ...FAST, ...overrides })
}

const ask = (content: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'fake-chat',
  messages: [{ role: 'user', content }],
  ...extra,
})

async function collect(stream: AsyncIterable<StreamEvent>) {
  const events: StreamEvent[] = []
  let error: unknown
  try {
    for await (const event of stream) events.push(event)
  } catch (e) {
    error = e
  }
  const text = events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('')
  return { events, error, text }
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ProviderError)
  return error as ProviderError
}

const chatRequests = () => fake.requests.filter((r) => /\/(chat\/completions|messages)$/.test(r.path))

async function until(condition: () => boolean, ms = 2000) {
  const deadline = Date.now() + ms
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe.each(KINDS)('%s', (kind) => {
  describe('streaming', () => {
    test('streams the text in order, then usage and finish', async () => {
      const { events, error, text } = await collect(provider(kind).streamChat(ask('hello big world')))
      expect(error).toBeUndefined()
      expect(text).toBe('You said: hello big world')
      // A token per event from the provider; those that arrived in one network chunk come as one.
      expect(events.filter((e) => e.type === 'text').length).toBeWithin(1, 6)
      expect(events.slice(-2)).toEqual([
        { type: 'usage', inputTokens: 3, outputTokens: 5 },
        { type: 'finish', reason: 'stop' },
      ])
    })

    /** The provider's answer re-cut into chunks of two frames, all ready at once (a fast provider); `chunks` counts them. */
    function inTwos() {
      const cut = { chunks: 0, fetch: undefined as unknown as typeof fetch }
      cut.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const answer = await fetch(input, init)
        const frames = (await answer.text()).split(/(?<=\n\n)/)
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            for (let i = 0; i < frames.length; i += 2) controller.enqueue(new TextEncoder().encode(frames.slice(i, i + 2).join('')))
            cut.chunks = Math.ceil(frames.length / 2)
            controller.close()
          },
        })
        return new Response(body, { status: answer.status, headers: answer.headers })
      }) as typeof fetch
      return cut
    }

    test('tells the caller after the events of each network chunk', async () => {
      const cut = inTwos()
      const seen: string[] = []
      const stream = provider(kind, { fetch: cut.fetch }).streamChat(
        ask('hello big world', { onChunkEnd: () => void seen.push('|') }),
      )
      for await (const e of stream) seen.push(e.type)
      // Every chunk but perhaps the last one (which ends the reply) is followed by the signal.
      expect(seen.filter((s) => s === '|').length).toBeGreaterThanOrEqual(cut.chunks - 1)
      // The five tokens came in three chunks: each chunk's text is one event.
      expect(seen.join(' ')).not.toMatch(/text text/)
      expect(seen.filter((s) => s === 'text').length).toBe(3)
    })

    test('reads on after a chunk only once the promise the caller returned for it settles', async () => {
      // A relay returns one after a write, so that the write leaves before the rest is parsed.
      let release!: () => void
      let signals = 0
      const seen: string[] = []
      const stream = provider(kind, { fetch: inTwos().fetch }).streamChat(
        ask('hello big world', {
          onChunkEnd: () => {
            signals++
            if (signals === 1) return new Promise<void>((resolve) => (release = resolve))
          },
        }),
      )
      const reading = (async () => {
        for await (const e of stream) seen.push(e.type)
      })()
      await until(() => signals === 1)
      const before = seen.length
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0))
      expect(seen.length).toBe(before)
      expect(signals).toBe(1)
      release()
      await reading
      expect(signals).toBeGreaterThan(1)
      expect(seen.filter((s) => s === 'text').length).toBe(3)
    })

    test('system prompt, history and tools reach the model', async () => {
      const tools = [{ name: 'lookup', description: 'Look up', parameters: { type: 'object', properties: { q: { type: 'string' } } } }]
      const messages: ChatMessage[] = [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'answer' },
        { role: 'user', content: 'second' },
      ]
      await collect(provider(kind).streamChat({ model: 'fake-chat', messages, tools, maxTokens: 50, temperature: 0.2 }))
      const body = chatRequests()[0]!.body
      const text = JSON.stringify(body)
      if (kind === 'anthropic') expect(body.system).toBe('Be brief.')
      else expect(body.messages[0]).toMatchObject({ role: 'system', content: 'Be brief.' })
      for (const word of ['first', 'answer', 'second', 'lookup', 'Look up']) expect(text).toContain(word)
    })

    test('reasoning arrives as reasoning deltas before the text', async () => {
      const { events } = await collect(provider(kind).streamChat(ask('why [[fake:reasoning]]')))
      const reasoning = events.flatMap((e) => (e.type === 'reasoning' ? [e.delta] : [])).join('')
      expect(reasoning).toBe('Thinking about: why')
      expect(events.findIndex((e) => e.type === 'reasoning')).toBeLessThan(events.findIndex((e) => e.type === 'text'))
    })

    if (kind === 'anthropic') {
      test('signed thinking is reported and goes back with the assistant turn of a tool loop', async () => {
        const { events } = await collect(provider(kind).streamChat(ask('why [[fake:reasoning]]', { reasoning: 'low' })))
        expect(events).toContainEqual({ type: 'reasoning_signature', signature: 'fake-signature' })
        expect(chatRequests()[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 })
        const messages: ChatMessage[] = [
          { role: 'user', content: 'find' },
          {
            role: 'assistant',
            content: '',
            reasoning: 'I should look',
            reasoningSignature: 'sig',
            toolCalls: [{ id: 'toolu_1', name: 'lookup', arguments: '{}' }],
          },
          { role: 'tool', toolCallId: 'toolu_1', content: 'found' },
        ]
        await collect(provider(kind).streamChat({ model: 'fake-chat', messages, reasoning: 'low' }))
        expect(chatRequests()[1]!.body.messages[1].content[0]).toEqual({ type: 'thinking', thinking: 'I should look', signature: 'sig' })
      })
    }

    test('tool-call argument deltas are assembled into one complete call', async () => {
      const args = { q: 'x y z', n: [1, 2], nested: { ok: true } }
      const { events } = await collect(provider(kind).streamChat(ask(`find [[fake:tool=lookup:${JSON.stringify(args)}]]`)))
      const calls = events.filter((e) => e.type === 'tool_call')
      expect(calls).toHaveLength(1)
      expect(calls[0]).toMatchObject({ name: 'lookup', id: expect.any(String) })
      expect(JSON.parse((calls[0] as { arguments: string }).arguments)).toEqual(args)
      expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' })
    })

    test('a tool result goes back to the model in its own format', async () => {
      const messages: ChatMessage[] = [
        { role: 'user', content: 'find [[fake:tool=lookup:{"q":"a"}]]' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"q":"a"}' }] },
        { role: 'tool', toolCallId: 'call_1', content: '42 results' },
      ]
      const { text } = await collect(provider(kind).streamChat({ model: 'fake-chat', messages }))
      expect(text).toBe('Tool result: 42 results')
    })

    test('finish reason length is reported', async () => {
      const { events } = await collect(provider(kind).streamChat(ask('long [[fake:finish=length]]')))
      expect(events.at(-1)).toEqual({ type: 'finish', reason: 'length' })
    })
  })

  describe('completion, embeddings, models', () => {
    test('complete returns the whole reply', async () => {
      const result = await provider(kind).complete(ask('hi there [[fake:reasoning]]'))
      expect(result).toMatchObject({ text: 'You said: hi there', reasoning: 'Thinking about: hi there', finishReason: 'stop', toolCalls: [] })
      expect(result.usage?.inputTokens).toBe(2)
      const withTool = await provider(kind).complete(ask('[[fake:tool=lookup:{"q":"b"}]]'))
      expect(withTool.finishReason).toBe('tool_calls')
      expect(withTool.toolCalls).toEqual([{ id: expect.any(String), name: 'lookup', arguments: '{"q":"b"}' }])
    })

    if (kind === 'anthropic') {
      test('embeddings are refused with EMBEDDINGS_NOT_SUPPORTED', async () => {
        const error = await failure(provider(kind).embed({ model: 'any', input: ['x'] }))
        expect(error.code).toBe('EMBEDDINGS_NOT_SUPPORTED')
        expect(fake.requests).toHaveLength(0)
      })
    } else {
      test('embeddings are deterministic vectors, one per input', async () => {
        const input = ['the cat sat', 'the cat sat', 'a dog ran']
        const { vectors, usage } = await provider(kind).embed({ model: 'fake-embedding', input })
        expect(vectors).toHaveLength(3)
        expect(vectors[0]).toHaveLength(256)
        expect(vectors[0]).toEqual(vectors[1]!)
        expect(vectors[2]).not.toEqual(vectors[0]!)
        // float32 on the wire for some SDKs: compare with tolerance
        vectors[0]!.forEach((v, i) => expect(v).toBeCloseTo(fakeEmbedding('the cat sat')[i]!, 5))
        expect(usage?.inputTokens).toBe(9)
      })
    }

    test('listModels lists the server’s models', async () => {
      expect(await provider(kind).listModels()).toEqual(['fake-chat', 'fake-reasoner', 'fake-embedding'])
    })
  })

  describe('failures', () => {
    test.each([
      ['a refused key', { apiKey: 'wrong-key' }],
      ['no key', { apiKey: undefined }],
    ])('%s → PROVIDER_AUTH_FAILED, not retried', async (_, overrides) => {
      const { error } = await collect(provider(kind, overrides).streamChat(ask('hi')))
      expect(error).toMatchObject({ code: 'PROVIDER_AUTH_FAILED', status: 502 })
      expect(fake.requests).toHaveLength(1)
    })

    test('401 from the provider → PROVIDER_AUTH_FAILED', async () => {
      const { error } = await collect(provider(kind).streamChat(ask('hi [[fake:error=401]]')))
      expect((error as ProviderError).code).toBe('PROVIDER_AUTH_FAILED')
    })

    test('an unknown model → MODEL_NOT_FOUND_AT_PROVIDER', async () => {
      const { error } = await collect(provider(kind).streamChat(ask('hi', { model: 'unknown-model' })))
      expect((error as ProviderError).code).toBe('MODEL_NOT_FOUND_AT_PROVIDER')
      expect(chatRequests()).toHaveLength(1)
    })

    test('429 is retried and the second attempt succeeds', async () => {
      fake.script({ error: 429, retryAfterMs: 20 })
      const { error, text } = await collect(provider(kind).streamChat(ask('again')))
      expect(error).toBeUndefined()
      expect(text).toBe('You said: again')
      expect(chatRequests()).toHaveLength(2)
    })

    test('429 that persists → PROVIDER_RATE_LIMITED with retryAfter after 3 attempts', async () => {
      fake.script({ error: 429, retryAfterMs: 10 }, { error: 429, retryAfterMs: 10 }, { error: 429, retryAfterMs: 1500 })
      const { error } = await collect(provider(kind).streamChat(ask('again')))
      expect(error).toMatchObject({ code: 'PROVIDER_RATE_LIMITED', status: 429, retryAfter: 2 })
      expect(chatRequests()).toHaveLength(3)
    })

    test('a Retry-After beyond the cap is not waited for', async () => {
      fake.script({ error: 429, retryAfterMs: 60_000 })
      const { error } = await collect(provider(kind).streamChat(ask('again')))
      expect(error).toMatchObject({ code: 'PROVIDER_RATE_LIMITED', retryAfter: 60 })
      expect(chatRequests()).toHaveLength(1)
    })

    test('500 → retried, then PROVIDER_UNAVAILABLE with the spec’s message', async () => {
      const { error } = await collect(provider(kind).streamChat(ask('hi [[fake:error=500]]')))
      expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', status: 502, message: 'Error fetching response' })
      expect(chatRequests()).toHaveLength(3)
    })

    test('a slow first token → PROVIDER_TIMEOUT, not retried, upstream closed', async () => {
      const { error, events } = await collect(provider(kind, SHORT_TIMEOUTS).streamChat(ask('hi [[fake:slow-first-token=3000]]')))
      expect(error).toMatchObject({ code: 'PROVIDER_TIMEOUT', status: 504 })
      expect(events).toEqual([])
      expect(chatRequests()).toHaveLength(1)
      await until(() => chatRequests()[0]!.outcome === 'disconnected')
    })

    test('a stream that stalls between chunks → PROVIDER_TIMEOUT after what was streamed', async () => {
      const { error, text } = await collect(provider(kind, SHORT_TIMEOUTS).streamChat(ask('one two [[fake:delay=3000]]')))
      expect(text).toBe('You')
      expect(error).toMatchObject({ code: 'PROVIDER_TIMEOUT' })
      await until(() => chatRequests()[0]!.outcome === 'disconnected')
    })

    test('a stream cut after the first tokens → PROVIDER_STREAM_INTERRUPTED, not retried', async () => {
      const { error, text } = await collect(provider(kind).streamChat(ask('one two three four [[fake:cut-after=2]]')))
      expect(text).toBe('You said:')
      expect(error).toMatchObject({ code: 'PROVIDER_STREAM_INTERRUPTED', status: 502 })
      expect(chatRequests()).toHaveLength(1)
    })

    test('a stream cut before the first token is retried', async () => {
      fake.script({ cutAfter: 0 })
      const { error, text } = await collect(provider(kind).streamChat(ask('retry me')))
      expect(error).toBeUndefined()
      expect(text).toBe('You said: retry me')
      expect(chatRequests()).toHaveLength(2)
    })

    test('an error event inside the stream after the first tokens → PROVIDER_STREAM_INTERRUPTED, not retried', async () => {
      const { error, text } = await collect(provider(kind).streamChat(ask('one two three four [[fake:stream-error=2]]')))
      expect(text).toBe('You said:')
      expect(error).toMatchObject({ code: 'PROVIDER_STREAM_INTERRUPTED', status: 502 })
      expect(chatRequests()).toHaveLength(1)
    })

    test('an error event inside the stream before the first token → PROVIDER_UNAVAILABLE, retried only when its type says transient', async () => {
      const { error, events } = await collect(provider(kind).streamChat(ask('hi [[fake:stream-error=0]]')))
      expect(events).toEqual([])
      expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', message: 'Error fetching response' })
      // Anthropic names the kind (overloaded_error); OpenAI's and Mistral's error events say nothing retry-worthy.
      expect(chatRequests()).toHaveLength(kind === 'anthropic' ? 3 : 1)
    })

    test('a fast provider: each network chunk is read as one text event, the text exact', async () => {
      const { events, error, text } = await collect(provider(kind).streamChat(ask('[[fake:tokens=200]][[fake:burst=50]] go')))
      expect(error).toBeUndefined()
      expect(text).toBe(Array.from({ length: 200 }, (_, i) => `t${i}`).join(' '))
      // 200 tokens in chunks of 50 events (the first also carries the reply's start): at most five.
      expect(events.filter((e) => e.type === 'text').length).toBeWithin(1, 6)
    })

    test('the events that only carry a token are read by their text alone (the template engages on this provider\'s events)', async () => {
      const parse = JSON.parse
      let whole = 0
      JSON.parse = ((text: string, ...rest: []) => (String(text).startsWith('{') && whole++, parse(text, ...rest))) as typeof JSON.parse
      try {
        const { text } = await collect(provider(kind).streamChat(ask('[[fake:tokens=200]][[fake:burst=50]] go')))
        expect(text).toBe(Array.from({ length: 200 }, (_, i) => `t${i}`).join(' '))
      } finally {
        JSON.parse = parse
      }
      // The reply's start, its first token or two, the end and the usage: not one per token.
      expect(whole).toBeLessThan(10)
    })

    test('the events that only carry a token are taken where they stand in the chunk, not made into messages first (decision 0128)', async () => {
      const fromMessages = spyOn(TextTemplate.prototype, 'readInto')
      const inPlace = spyOn(TextTemplate.prototype, 'readRange')
      try {
        const { text } = await collect(provider(kind).streamChat(ask('[[fake:tokens=200]][[fake:burst=50]] go')))
        expect(text).toBe(Array.from({ length: 200 }, (_, i) => `t${i}`).join(' '))
        // readInto reads a message through readRange: those read in place are the difference. From
        // messages: the first batch, in which the template learns the event (at most FIRST_BATCH),
        // and the events that are not text (the start, the end, the usage).
        expect(inPlace.mock.calls.length - fromMessages.mock.calls.length).toBeGreaterThanOrEqual(150)
        expect(fromMessages.mock.calls.length).toBeLessThan(FIRST_BATCH + 8)
      } finally {
        fromMessages.mockRestore()
        inPlace.mockRestore()
      }
    })

    test('stopped while the events of one network chunk are passed on: none of the rest of them', async () => {
      const stop = new AbortController()
      const seen: string[] = []
      let error: unknown
      try {
        for await (const e of provider(kind).streamChat(ask('hi [[fake:reasoning]][[fake:burst=50]]', { signal: stop.signal }))) {
          seen.push(e.type)
          if (e.type === 'reasoning') stop.abort()
        }
      } catch (e) {
        error = e
      }
      // The chunk held the reasoning and the text: the text is not passed on after the stop.
      expect(seen).toEqual(['reasoning'])
      expect(error).toBeDefined()
    })

    test('an error event in the same network chunk as tokens: the tokens arrive, then the error', async () => {
      const { error, text } = await collect(provider(kind).streamChat(ask('one two three four [[fake:stream-error=2]][[fake:burst=10]]')))
      expect(text).toBe('You said:')
      expect(error).toMatchObject({ code: 'PROVIDER_STREAM_INTERRUPTED' })
    })

    test('an error event after the tokens taken in place in a later chunk: those tokens arrive, then the error', async () => {
      const { error, text } = await collect(provider(kind).streamChat(ask('[[fake:tokens=200]][[fake:burst=50]][[fake:stream-error=120]] go')))
      expect(text).toBe(Array.from({ length: 120 }, (_, i) => `t${i}`).join(' '))
      expect(error).toMatchObject({ code: 'PROVIDER_STREAM_INTERRUPTED' })
    })

    test('a malformed event after a token in the same network chunk: the token arrives, then PROVIDER_BAD_RESPONSE', async () => {
      const { error, text } = await collect(provider(kind).streamChat(ask('hi [[fake:malformed]][[fake:burst=10]]')))
      expect(text).toBe('You')
      expect(error).toMatchObject({ code: 'PROVIDER_BAD_RESPONSE' })
    })

    test('a malformed chunk → PROVIDER_BAD_RESPONSE, not retried', async () => {
      const { error } = await collect(provider(kind).streamChat(ask('hi [[fake:malformed]]')))
      expect(error).toMatchObject({ code: 'PROVIDER_BAD_RESPONSE' })
      expect(chatRequests()).toHaveLength(1)
    })

    test('400 → PROVIDER_REQUEST_REJECTED; a malformed answer to complete → PROVIDER_BAD_RESPONSE', async () => {
      const { error } = await collect(provider(kind).streamChat(ask('hi [[fake:error=400]]')))
      expect(error).toMatchObject({ code: 'PROVIDER_REQUEST_REJECTED', status: 502 })
      expect((await failure(provider(kind).complete(ask('hi [[fake:malformed]]')))).code).toBe('PROVIDER_BAD_RESPONSE')
      expect(chatRequests()).toHaveLength(2)
    })

    test('complete: 500 then success is retried; a slow answer times out', async () => {
      fake.script({ error: 500 })
      expect((await provider(kind).complete(ask('ok'))).text).toBe('You said: ok')
      const slow = provider(kind, SHORT_TIMEOUTS)
      const error = await failure(slow.complete(ask('hi [[fake:slow-first-token=3000]]')))
      expect(error.code).toBe('PROVIDER_TIMEOUT')
    })

    if (kind !== 'anthropic') {
      test('embeddings: 503 then success is retried; a refused key is not', async () => {
        fake.script({ for: 'embeddings', error: 503 })
        expect((await provider(kind).embed({ model: 'fake-embedding', input: ['a'] })).vectors).toHaveLength(1)
        const error = await failure(provider(kind, { apiKey: 'wrong-key' }).embed({ model: 'fake-embedding', input: ['a'] }))
        expect(error.code).toBe('PROVIDER_AUTH_FAILED')
        expect(fake.requests.filter((r) => r.path.endsWith('/embeddings'))).toHaveLength(3)
      })
    }
  })

  describe('abort', () => {
    test('aborting before the first token closes the upstream connection', async () => {
      const controller = new AbortController()
      const stream = provider(kind).streamChat(ask('hi [[fake:slow-first-token=5000]]', { signal: controller.signal }))
      setTimeout(() => controller.abort(), 100)
      const { error, events } = await collect(stream)
      expect((error as Error).name).toBe('AbortError')
      expect(events).toEqual([])
      await until(() => chatRequests()[0]?.outcome === 'disconnected')
      expect(chatRequests()).toHaveLength(1)
    })

    test('aborting mid-stream stops the reply and closes the upstream connection, also amid the events of one network chunk', async () => {
      const controller = new AbortController()
      // Four frames per network chunk: the events after the second came with it and must not follow.
      const stream = provider(kind).streamChat(ask('a b c d e f g h [[fake:delay=100]][[fake:burst=4]]', { signal: controller.signal }))
      const seen: StreamEvent[] = []
      const error = await (async () => {
        for await (const event of stream) {
          seen.push(event)
          if (seen.length === 2) controller.abort()
        }
      })().catch((e: Error) => e)
      expect(error?.name).toBe('AbortError')
      expect(seen).toHaveLength(2)
      await until(() => chatRequests()[0]?.outcome === 'disconnected')
    })

    test('a consumer that stops reading closes the upstream connection', async () => {
      for await (const event of provider(kind).streamChat(ask('a b c d e f [[fake:delay=100]]'))) {
        if (event.type === 'text') break
      }
      await until(() => chatRequests()[0]?.outcome === 'disconnected')
    })
  })
})

describe('mistral without its SDK', () => {
  test("a streamed request is the JSON the SDK's own serialiser writes", async () => {
    const { chatCompletionStreamRequestToJSON } = await import('@mistralai/mistralai/models/components')
    const { wireBody } = await import('./mistral')
    const req: ChatRequest = {
      model: 'mistral-large-latest',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Search it.' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'internet_search', arguments: '{"query":"kontor"}' }] },
        { role: 'tool', content: 'Results', toolCallId: 'c1' },
      ],
      tools: [{ name: 'internet_search', description: 'Search', parameters: { type: 'object', properties: { query: { type: 'string' } } } }],
      temperature: 0.3,
      maxTokens: 100,
      reasoning: 'high',
    }
    const sdk = chatCompletionStreamRequestToJSON({
      model: req.model,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Search it.' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'internet_search', arguments: '{"query":"kontor"}' } }] },
        { role: 'tool', content: 'Results', toolCallId: 'c1' },
      ],
      tools: req.tools!.map((t) => ({ type: 'function', function: t })),
      temperature: 0.3,
      maxTokens: 100,
      reasoningEffort: 'high',
      stream: true,
    })
    // The SDK adds `prefix: false` (the default) to assistant messages.
    const expected = JSON.parse(sdk)
    for (const m of expected.messages) delete m.prefix
    expect(JSON.parse(wireBody(req))).toEqual(expected)
  })
})
