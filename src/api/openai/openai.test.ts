/**
 * The OpenAI-compatible API through the official `openai` package (and curl) against the running
 * app, with the fake provider behind it in each provider's wire format.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { createTestApp, registerOrg, type TestClient } from '../../../tests/support/test-app'
import { eq } from 'drizzle-orm'
import { rateLimits, usageEvents } from '../../../db/schema'
import { API_BODY_LIMIT } from './routes'
import { FIRST_EVENT_WAIT_MS } from './stream'
import { until, waitFor } from '../../../tests/support/wait-for'
import { recordLogs } from '../../../tests/support/logs'

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
let server: ReturnType<typeof Bun.serve>
let baseURL: string
/** An organisation permitting one model of each provider and an embedding model, and its admin's key. */
let org: { admin: TestClient; key: string; keyId: string }

beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({
    env: {
      OPENAI_API_KEY: 'sk-api',
      OPENAI_BASE_URL: `${fake.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-api',
      ANTHROPIC_BASE_URL: fake.url,
      MISTRAL_API_KEY: 'mistral-api',
      MISTRAL_BASE_URL: fake.url,
    },
  })
  // As the app's server runs (src/server.ts): a response may take long to start (a late first token).
  server = Bun.serve({ hostname: '127.0.0.1', port: 0, idleTimeout: 0, fetch: (request) => t.app.fetch(request) })
  baseURL = `http://127.0.0.1:${server.port}/v1`
  const admin = t.client()
  await registerOrg(admin)
  for (const providerId of ['openai', 'anthropic', 'mistral']) await admin.post('/api/models/providers/permitted', { providerId, termsAccepted: true })
  for (const modelId of ['openai/gpt-4.1', 'anthropic/claude-haiku-4-5', 'mistral/mistral-small-latest', 'openai/text-embedding-3-small']) {
    expect((await admin.post('/api/models/permitted', { modelId })).status).toBe(201)
  }
  const created = (await admin.post('/api/api-keys', { name: 'Tests' })).body
  org = { admin, key: created.key, keyId: created.id }
})
afterAll(async () => {
  server.stop(true)
  await t.close()
  fake.close()
})
beforeEach(() => fake.reset())

const client = (apiKey = org.key) => new OpenAI({ apiKey, baseURL, maxRetries: 0 })
const lastChat = () => fake.requests.findLast((r) => r.method === 'POST' && /chat\/completions|messages$/.test(r.path))!

async function errorOf(call: Promise<unknown>) {
  try {
    await call
  } catch (error) {
    return error as InstanceType<typeof OpenAI.APIError>
  }
  throw new Error('the call succeeded')
}

describe('the openai package against /v1', () => {
  test('lists the models the key owner may use, and the organisation\'s embedding model', async () => {
    const ids = []
    for await (const model of client().models.list()) ids.push(model.id)
    expect(ids.sort()).toEqual(['anthropic/claude-haiku-4-5', 'mistral/mistral-small-latest', 'openai/gpt-4.1', 'openai/text-embedding-3-small'])
    expect((await client().models.retrieve('openai/gpt-4.1')).id).toBe('openai/gpt-4.1')
    expect((await errorOf(client().models.retrieve('openai/gpt-4o'))).status).toBe(404)
  })

  for (const model of ['openai/gpt-4.1', 'anthropic/claude-haiku-4-5', 'mistral/mistral-small-latest']) {
    test(`${model}: a plain and a streamed completion, with temperature, max tokens and stop passed on`, async () => {
      const plain = await client().chat.completions.create({
        model,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hello there' },
        ],
        temperature: 0.5,
        max_tokens: 50,
        stop: ['END'],
      })
      expect(plain).toMatchObject({ object: 'chat.completion', model, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'You said: Hello there' } }] })
      expect(plain.usage!.total_tokens).toBeGreaterThan(0)
      const sent = lastChat().body
      if (model.startsWith('anthropic')) expect(sent).toMatchObject({ temperature: 0.5, max_tokens: 50, stop_sequences: ['END'], system: 'Be brief.' })
      else expect(sent).toMatchObject({ temperature: 0.5, stop: ['END'] })

      const stream = await client().chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'Stream this please' }],
        max_completion_tokens: 40,
        stream: true,
        stream_options: { include_usage: true },
      })
      const chunks: OpenAI.ChatCompletionChunk[] = []
      for await (const chunk of stream) chunks.push(chunk)
      expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant')
      expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('You said: Stream this please')
      expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop')
      expect(chunks.at(-1)!.choices).toEqual([])
      expect(chunks.at(-1)!.usage!.completion_tokens).toBeGreaterThan(0)
      expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.id === chunks[0]!.id && c.model === model)).toBe(true)
    })

    test(`${model}: a tool call round trip, with tools and tool_choice passed on`, async () => {
      const tools = [
        {
          type: 'function' as const,
          function: { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
        },
      ]
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Berlin? [[fake:tool=get_weather:{"city":"Berlin"}]]' }]
      const first = await client().chat.completions.create({ model, messages, tools, tool_choice: { type: 'function', function: { name: 'get_weather' } } })
      const sent = lastChat().body
      if (model.startsWith('anthropic')) {
        expect(sent.tool_choice).toEqual({ type: 'tool', name: 'get_weather' })
        expect(sent.tools[0]).toMatchObject({ name: 'get_weather', input_schema: { properties: { city: { type: 'string' } } } })
      } else {
        expect(sent.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } })
        expect(sent.tools[0].function).toMatchObject({ name: 'get_weather', parameters: { required: ['city'] } })
      }
      const choice = first.choices[0]!
      expect(choice.finish_reason).toBe('tool_calls')
      const call = choice.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall
      expect([call.function.name, JSON.parse(call.function.arguments)]).toEqual(['get_weather', { city: 'Berlin' }])

      messages.push(choice.message, { role: 'tool', tool_call_id: call.id, content: 'Sunny, 21 °C' })
      const stream = await client().chat.completions.create({ model, messages, tools, tool_choice: 'auto', stream: true })
      let text = ''
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
      expect(text).toBe('Tool result: Sunny, 21 °C')
    })
  }

  test(`a streamed completion whose first token takes longer than ${FIRST_EVENT_WAIT_MS / 1000} s starts before it and reads as any other`, async () => {
    // The provider sends its first network chunk (the role, no text) and then holds its first token until released.
    try {
      const stream = await client().chat.completions.create({ model: 'openai/gpt-4.1', messages: [{ role: 'user', content: 'Think hard [[fake:hold]]' }], stream: true })
      // The answer (its status and headers) came while the provider still held its first token.
      expect(lastChat().outcome).toBe('pending')
      fake.release()
      let text = ''
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
      expect(text).toBe('You said: Think hard')
    } finally {
      fake.release()
    }
  }, 60_000)

  test('a streamed tool call arrives as a tool_calls delta', async () => {
    const stream = await client().chat.completions.create({
      model: 'openai/gpt-4.1',
      messages: [{ role: 'user', content: 'Go [[fake:tool=lookup:{"q":"x"}]]' }],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
      tool_choice: 'required',
      stream: true,
    })
    const deltas = []
    for await (const chunk of stream) deltas.push(chunk.choices[0])
    expect(lastChat().body.tool_choice).toBe('required')
    expect(deltas.flatMap((d) => d?.delta.tool_calls ?? [])).toEqual([{ index: 0, id: 'call_fake0', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }])
    expect(deltas.at(-1)!.finish_reason).toBe('tool_calls')
  })

  test('embeddings with the organisation\'s embedding model, as floats and as base64', async () => {
    const floats = await client().embeddings.create({ model: 'openai/text-embedding-3-small', input: ['one', 'two'], encoding_format: 'float' })
    expect(floats.data.map((d) => d.index)).toEqual([0, 1])
    expect(floats.data[0]!.embedding.length).toBeGreaterThan(0)
    // The package asks for base64 unless told otherwise, and decodes it.
    const decoded = await client().embeddings.create({ model: 'openai/text-embedding-3-small', input: 'one' })
    expect(decoded.data[0]!.embedding.map((x) => Math.fround(x))).toEqual(floats.data[0]!.embedding.map((x) => Math.fround(x)))
    const refused = await errorOf(client().embeddings.create({ model: 'openai/gpt-4.1', input: 'one' }))
    expect([refused.status, refused.code, refused.param]).toEqual([404, 'model_not_found', 'model'])
  })

  test("every call counts as the key owner's usage, like the web app's", async () => {
    const owner = (await org.admin.get('/api/auth/me')).body.id as string
    const before = await t.deps.db.select().from(usageEvents).where(eq(usageEvents.userId, owner))
    await client().chat.completions.create({ model: 'openai/gpt-4.1', messages: [{ role: 'user', content: 'Count me' }] })
    const stream = await client().chat.completions.create({ model: 'anthropic/claude-haiku-4-5', stream: true, messages: [{ role: 'user', content: 'And me' }] })
    for await (const _ of stream);
    await client().embeddings.create({ model: 'openai/text-embedding-3-small', input: 'me too', encoding_format: 'float' })
    const after = await t.deps.db.select().from(usageEvents).where(eq(usageEvents.userId, owner))
    const added = after.filter((row) => !before.some((b) => b.id === row.id))
    expect(added.map((r) => [r.modelRef, r.threadId]).sort()).toEqual([
      ['anthropic/claude-haiku-4-5', null],
      ['openai/gpt-4.1', null],
      ['openai/text-embedding-3-small', null],
    ])
    expect(added.every((r) => r.inputTokens > 0)).toBe(true)
    // And each is in the organisation's audit log with its key, endpoint and model.
    const audit = (await org.admin.get('/api/audit-log?action=api.called')).body.entries as { target: { type: string; id: string }; details: { endpoint: string; model: string } }[]
    const mine = audit.slice(0, 3).map((e) => [e.target.type, e.target.id, e.details.endpoint, e.details.model])
    expect(mine.sort()).toEqual([
      ['api_key', org.keyId, '/v1/chat/completions', 'anthropic/claude-haiku-4-5'],
      ['api_key', org.keyId, '/v1/chat/completions', 'openai/gpt-4.1'],
      ['api_key', org.keyId, '/v1/embeddings', 'openai/text-embedding-3-small'],
    ])
  })
})

/**
 * An API call has no reply to come back to (unlike the chat's, decision 0071): a client that leaves
 * ends the provider call, and the budget reservation the call held ends with it.
 */
describe('a client that disconnects ends the provider call', () => {
  let budgetId: string
  beforeAll(async () => {
    budgetId = (await org.admin.put('/api/budgets', { scope: 'organization', metric: 'tokens', limit: 10_000_000 })).body.id
  })
  afterAll(async () => {
    expect((await org.admin.delete(`/api/budgets/${budgetId}`)).status).toBe(204)
  })
  /** The usage rows added since `before` (ids), once there are any. */
  const waitForUsage = (before: string[]) =>
    until('a usage row', async () => {
      const added = (await t.deps.db.select().from(usageEvents)).filter((row) => !before.includes(row.id))
      return added.length > 0 && added
    }, 10_000)
  const reservations = async () => Number((await t.deps.db.run('SELECT count(*) AS n FROM budget_reservations')).rows[0]!.n)

  for (const model of ['openai/gpt-4.1', 'anthropic/claude-haiku-4-5', 'mistral/mistral-small-latest']) {
    test(`${model}: a streamed completion, left after its first text, counts what it used`, async () => {
      const before = (await t.deps.db.select({ id: usageEvents.id }).from(usageEvents)).map((r) => r.id)
      const logs = recordLogs(t.deps.logger)
      try {
        const words = Array.from({ length: 50 }, (_, i) => `w${i}`).join(' ')
        const stream = await client().chat.completions.create({ model, messages: [{ role: 'user', content: `${words} [[fake:delay=100]]` }], stream: true })
        let text = ''
        for await (const chunk of stream) {
          text += chunk.choices[0]?.delta.content ?? ''
          if (!text) continue
          expect(await reservations()).toBe(1) // the answer is still coming: its reservation holds
          break // leaving the loop aborts the client's request, as a client that goes does
        }
        expect(text).not.toBe('')
        await waitFor(async () => lastChat().outcome === 'disconnected', 10_000)
        await waitFor(async () => (await reservations()) === 0, 10_000)
        // The provider charges for what it sent: the call is in the usage, its output estimated from the text.
        const added = await waitForUsage(before)
        expect(added.map((r) => [r.modelRef, r.threadId, r.estimated])).toEqual([[model, null, true]])
        expect(added[0]!.outputTokens).toBeGreaterThan(0)
        // A client that goes is no failure of Kontor's.
        expect(logs.problems()).toEqual([])
      } finally {
        logs.restore()
      }
    }, 30_000)
  }

  test('a completion that does not stream, left while the provider is still working', async () => {
    const logs = recordLogs(t.deps.logger)
    try {
      const abort = new AbortController()
      const call = client().chat.completions.create({ model: 'openai/gpt-4.1', messages: [{ role: 'user', content: 'Take your time [[fake:slow-first-token=20000]]' }] }, { signal: abort.signal })
      call.catch(() => undefined)
      await waitFor(async () => fake.requests.some((r) => r.method === 'POST' && r.path.endsWith('/chat/completions')), 10_000)
      expect(lastChat().outcome).toBe('pending')
      expect(await reservations()).toBe(1)
      abort.abort()
      expect(await errorOf(call)).toBeInstanceOf(OpenAI.APIUserAbortError)
      await waitFor(async () => lastChat().outcome === 'disconnected', 10_000)
      await waitFor(async () => (await reservations()) === 0, 10_000)
      // Answered as a call its client left, not as a failure of Kontor's.
      await waitFor(async () => logs.entries.some((e) => e.msg === 'the client left before its answer'), 10_000)
      expect(logs.problems()).toEqual([])
    } finally {
      logs.restore()
    }
  }, 30_000)
})

describe('errors in OpenAI\'s format', () => {
  test('a missing or wrong key is 401 invalid_api_key', async () => {
    const wrong = await errorOf(client('kontor_' + 'x'.repeat(64)).models.list())
    expect(wrong).toBeInstanceOf(OpenAI.AuthenticationError)
    expect([wrong.status, wrong.code, wrong.type]).toEqual([401, 'invalid_api_key', 'invalid_request_error'])
    for (const headers of [{} as Record<string, string>, { authorization: `Basic ${btoa('a:b')}` }, { authorization: 'Bearer ' }, { authorization: `Bearer ${'k'.repeat(500)}` }]) {
      const res = await fetch(`${baseURL}/models`, { headers })
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', code: 'invalid_api_key', param: null } })
    }
  })

  test('a call from a browser on another site is judged by its key, not refused as cross-site', async () => {
    const headers = { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }
    const body = JSON.stringify({ model: 'openai/gpt-4.1', messages: [{ role: 'developer', content: 'Be brief.' }, { role: 'user', content: 'Hi' }] })
    const without = await fetch(`${baseURL}/chat/completions`, { method: 'POST', headers, body })
    expect([without.status, (await without.json()).error.code]).toEqual([401, 'invalid_api_key'])
    const withKey = await fetch(`${baseURL}/chat/completions`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${org.key}` }, body })
    expect(withKey.status).toBe(200)
    expect(lastChat().body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' })
  })

  test('a model that is unknown or not permitted is 404 model_not_found', async () => {
    for (const model of ['openai/gpt-4o', 'nope', 'openai/text-embedding-3-small']) {
      const error = await errorOf(client().chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }))
      expect(error).toBeInstanceOf(OpenAI.NotFoundError)
      expect([error.code, error.param]).toEqual(['model_not_found', 'model'])
    }
    expect(fake.requests).toEqual([])
    // The audit entry names the model as asked for, cut to a model id's length.
    expect((await errorOf(client().chat.completions.create({ model: 'x'.repeat(5000), messages: [{ role: 'user', content: 'hi' }] }))).code).toBe('model_not_found')
    const [entry] = (await org.admin.get('/api/audit-log?action=api.called')).body.entries
    expect(entry.details.model).toBe('x'.repeat(200))
  })

  test('bodies OpenAI would refuse are 400 with the parameter named', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ messages: [{ role: 'user', content: 'hi' }] }, 'model'],
      [{ model: 'openai/gpt-4.1' }, 'messages'],
      [{ model: 'openai/gpt-4.1', messages: [] }, 'messages'],
      [{ model: 'openai/gpt-4.1', messages: [{ role: 'robot', content: 'hi' }] }, 'messages[0].role'],
      [{ model: 'openai/gpt-4.1', messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id'],
      [{ model: 'openai/gpt-4.1', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }] }, 'messages[0].content'],
      [{ model: 'openai/gpt-4.1', messages: [{ role: 'user', content: 'hi' }], temperature: 3 }, 'temperature'],
      [{ model: 'openai/gpt-4.1', messages: [{ role: 'user', content: 'hi' }], max_tokens: 0 }, 'max_tokens'],
      [{ model: 'openai/gpt-4.1', messages: [{ role: 'user', content: 'hi' }], stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
      [{ model: 'openai/gpt-4.1', messages: [{ role: 'user', content: 'hi' }], tool_choice: 'required' }, 'tool_choice'],
      [{ model: 'openai/gpt-4.1', messages: [{ role: 'user', content: 'hi' }], n: 2 }, 'n'],
    ]
    for (const [body, param] of cases) {
      const error = await errorOf(client().chat.completions.create(body as never))
      expect({ param: error.param, status: error.status, type: error.type }).toEqual({ param, status: 400, type: 'invalid_request_error' })
      expect(error.message).toContain(`'${param}'`)
    }
    const res = await fetch(`${baseURL}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' }, body: '{"model":' })
    expect(res.status).toBe(400)
    expect((await res.json()).error).toMatchObject({ type: 'invalid_request_error', code: null })
    expect(fake.requests).toEqual([])
  })

  test('an oversized request is 413, an unknown path 404, both in OpenAI\'s format', async () => {
    const big = JSON.stringify({ model: 'openai/gpt-4.1', messages: [{ role: 'user', content: 'x'.repeat(API_BODY_LIMIT) }] })
    const res = await fetch(`${baseURL}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' }, body: big })
    expect(res.status).toBe(413)
    expect((await res.json()).error.code).toBe('request_too_large')
    const unknown = await fetch(`${baseURL}/completions`, { method: 'POST', headers: { authorization: `Bearer ${org.key}` }, body: '{}' })
    expect([unknown.status, (await unknown.json()).error.code]).toEqual([404, 'unknown_url'])
  })

  test('a provider failure is reported in OpenAI\'s format: before the stream as a status, during it as an error chunk', async () => {
    const before = await errorOf(client().chat.completions.create({ model: 'openai/gpt-4.1', messages: [{ role: 'user', content: 'x [[fake:error=401]]' }], stream: true }))
    expect([before.status, before.type, before.code]).toEqual([502, 'api_error', 'provider_auth_failed'])
    const stream = await client().chat.completions.create({ model: 'openai/gpt-4.1', messages: [{ role: 'user', content: 'one two three four five six [[fake:stream-error=2]]' }], stream: true })
    const during = await errorOf((async () => { for await (const _ of stream); })())
    expect(during.message).toContain('broke off')
  })

  test('the key\'s rate limit is 429 with Retry-After', async () => {
    const key = (await org.admin.post('/api/api-keys', { name: 'Limited' })).body
    await t.deps.db.insert(rateLimits).values({ key: `api-key:${key.id}`, count: t.deps.config.apiRateLimitPerMinute, resetAt: Date.now() + 60_000 })
    const res = await fetch(`${baseURL}/models`, { headers: { authorization: `Bearer ${key.key}` } })
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await res.json()).error).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded' })
    // Another key of the same user has its own limit.
    expect((await fetch(`${baseURL}/models`, { headers: { authorization: `Bearer ${org.key}` } })).status).toBe(200)
  })
})

test('curl: a streamed completion ends with data: [DONE]', async () => {
  const proc = Bun.spawn(
    [
      'curl', '-sS', '-N', `${baseURL}/chat/completions`,
      '-H', `Authorization: Bearer ${org.key}`,
      '-H', 'Content-Type: application/json',
      '-d', JSON.stringify({ model: 'openai/gpt-4.1', messages: [{ role: 'user', content: 'Hi from curl' }], stream: true }),
    ],
    { stdout: 'pipe', stderr: 'pipe' },
  )
  const out = await new Response(proc.stdout).text()
  expect(await proc.exited).toBe(0)
  const data = out.split('\n\n').filter(Boolean).map((frame) => frame.replace(/^data: /, ''))
  expect(data.at(-1)).toBe('[DONE]')
  expect(data.slice(0, -1).map((d) => JSON.parse(d).choices[0]?.delta.content ?? '').join('')).toBe('You said: Hi from curl')
})

test('in the cloud, completions and embeddings need a subscription (402 in OpenAI\'s format); the model list does not', async () => {
  const cloud = await createTestApp({ env: { KONTOR_CLOUD: 'true', KONTOR_TRIAL_MESSAGES: '5', OPENAI_API_KEY: 'sk-api', OPENAI_BASE_URL: `${fake.url}/v1` } })
  const cloudServer = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request) => cloud.app.fetch(request) })
  try {
    const admin = cloud.client()
    await registerOrg(admin)
    await admin.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
    for (const modelId of ['openai/gpt-4.1', 'openai/text-embedding-3-small']) expect((await admin.post('/api/models/permitted', { modelId })).status).toBe(201)
    const key = (await admin.post('/api/api-keys', { name: 'Cloud' })).body.key as string
    const api = new OpenAI({ apiKey: key, baseURL: `http://127.0.0.1:${cloudServer.port}/v1`, maxRetries: 0 })
    const calls = () => fake.requests.filter((r) => r.method === 'POST').length
    const before = calls()

    expect((await api.models.list()).data.map((m) => m.id)).toContain('openai/gpt-4.1')
    // One after the other: a call made before the previous refusal is awaited would reject unobserved.
    for (const call of [
      () => api.chat.completions.create({ model: 'openai/gpt-4.1', messages: [{ role: 'user', content: 'Free ride?' }] }),
      () => api.embeddings.create({ model: 'openai/text-embedding-3-small', input: 'Free ride?' }),
    ]) {
      const refused = await errorOf(call())
      expect([refused.status, refused.type, refused.code]).toEqual([402, 'insufficient_quota', 'subscription_required'])
    }
    expect(calls()).toBe(before)

    await admin.post('/api/subscriptions', { companyName: 'Acme', street: 'Main', houseNumber: '1', postalCode: '10115', city: 'Berlin', country: 'Germany', noOfSeats: 1 })
    const reply = await api.chat.completions.create({ model: 'openai/gpt-4.1', messages: [{ role: 'user', content: 'Paid now' }] })
    expect(reply.choices[0]!.message.content).toBeTruthy()
  } finally {
    cloudServer.stop(true)
    await cloud.close()
  }
})
