import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { messages, outboxEmails } from '../../../db/schema'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { readSse, sseEvents, type SseEvent } from '../../../tests/support/sse'
import { BASE_URL, createTestApp, registerOrg, type TestClient } from '../../../tests/support/test-app'
import type { ChatProvider, ChatRequest } from '../../ai'
import type { ToolContext } from '../../ai/tools/types'
import { MAX_MODEL_CALLS, runToolLoop, startModelCall, type ReplyState } from './tool-loop'

type TestApp = Awaited<ReturnType<typeof createTestApp>>
let fake: FakeLlm
/** The app as deployed: no internal host allowed. */
let t: TestApp
/** An app whose operator allowed 127.0.0.1, for the tests that fetch pages from the local web server. */
let fetching: TestApp
let web: ReturnType<typeof Bun.serve>
let webUrl: string
const webHits: string[] = []
/** `/slow` answers only when a test resolves this. */
let slowGate = Promise.withResolvers<void>()

beforeAll(async () => {
  fake = await startFakeLlm()
  const env = { OPENAI_API_KEY: 'sk-tools', OPENAI_BASE_URL: `${fake.url}/v1`, ANTHROPIC_API_KEY: 'sk-ant-tools', ANTHROPIC_BASE_URL: fake.url }
  t = await createTestApp({ env })
  fetching = await createTestApp({ env: { ...env, KONTOR_FETCH_ALLOWED_HOSTS: '127.0.0.1' } })
  // The Bun entry resolves names; here a test resolver stands in for DNS.
  t.deps.resolveHost = async (host) => (host === 'intranet.test' ? ['10.0.0.5'] : ['93.184.216.34'])
  web = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname
      webHits.push(path)
      if (path === '/long') return new Response(`${'Lorem ipsum dolor sit amet. '.repeat(2000)}THE END`, { headers: { 'content-type': 'text/plain' } })
      if (path === '/slow') await slowGate.promise
      if (path === '/hang') await new Promise((r) => req.signal.addEventListener('abort', r))
      return new Response('A small page.', { headers: { 'content-type': 'text/plain' } })
    },
  })
  webUrl = `http://127.0.0.1:${web.port}`
})
afterAll(async () => {
  await t.close()
  await fetching.close()
  web.stop(true)
  fake.close()
})
beforeEach(() => {
  fake.reset()
  webHits.length = 0
})

/** A signed-in admin with one permitted model (OpenAI unless told) and a fresh thread. */
async function chatSetup(app = t, provider: 'openai' | 'anthropic' = 'openai') {
  const client = app.client()
  await registerOrg(client)
  await client.post('/api/models/providers/permitted', { providerId: provider, termsAccepted: true })
  const model = (await client.post('/api/models/permitted', { modelId: provider === 'openai' ? 'openai/gpt-4.1' : 'anthropic/claude-haiku-4-5' })).body
  const thread = (await client.post('/api/threads', { modelId: model.id })).body
  return { client, thread }
}

function send(app: TestApp, client: TestClient, threadId: string, content: string) {
  const cookie = client.cookieHeader()
  return app.app.request(`/api/threads/${threadId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: BASE_URL },
    body: JSON.stringify({ content }),
  })
}
const chat = async (app: TestApp, client: TestClient, threadId: string, content: string) => readSse(await send(app, client, threadId, content))

const of = (events: SseEvent[], name: string) => events.filter((e) => e.event === name).map((e) => e.data)
const textOf = (events: SseEvent[]) => of(events, 'text').map((d) => d.delta).join('')
/** The streamed model calls (the title is asked for without streaming). */
const modelCalls = () => fake.requests.filter((r) => r.body?.stream)
const lastReply = async (client: TestClient, threadId: string) => (await client.get(`/api/threads/${threadId}`)).body.messages.at(-1)

const draft = { to: 'anna@acme.test', subject: 'Lunch', body: 'Dear Anna,\n\nLunch on Friday?\n\nBest' }

describe('the tool loop', () => {
  test('a tool call streams, runs, goes back to the model, and is stored with its result as parts', async () => {
    const { client, thread } = await chatSetup()
    fake.script({ text: 'Let me draft that.', toolCalls: [{ name: 'send_email', arguments: draft }] }, { text: 'The draft is ready.' })
    const events = await chat(t, client, thread.id, 'Invite Anna to lunch')
    expect(events.map((e) => e.event).filter((n) => n !== 'text' && n !== 'usage')).toEqual(['message_start', 'tool_call', 'tool_result', 'title', 'message_end'])
    expect(textOf(events)).toBe('Let me draft that.The draft is ready.')
    const [callEvent] = of(events, 'tool_call')
    expect(callEvent).toEqual({ id: 'call_fake0', name: 'send_email', arguments: JSON.stringify(draft) })
    const [resultEvent] = of(events, 'tool_result')
    expect(resultEvent).toMatchObject({ id: 'call_fake0', name: 'send_email', isError: false, data: draft })
    expect(resultEvent.result).toMatch(/NOT been sent/)

    // Offered: website_content and send_email (no search backend configured here, no sources).
    const [first, second] = modelCalls()
    expect(first!.body.tools.map((x: { function: { name: string } }) => x.function.name)).toEqual(['website_content', 'send_email'])
    // The second call carries the assistant's tool call and the tool's result.
    expect(second!.body.messages.slice(-2)).toMatchObject([
      { role: 'assistant', content: 'Let me draft that.', tool_calls: [{ id: 'call_fake0', type: 'function', function: { name: 'send_email', arguments: JSON.stringify(draft) } }] },
      { role: 'tool', tool_call_id: 'call_fake0', content: resultEvent.result },
    ])

    const reply = await lastReply(client, thread.id)
    expect(reply).toMatchObject({ status: 'complete', content: 'Let me draft that.The draft is ready.' })
    expect(reply.parts).toEqual([
      { type: 'tool_call', id: 'call_fake0', name: 'send_email', arguments: JSON.stringify(draft), offset: 'Let me draft that.'.length },
      { type: 'tool_result', id: 'call_fake0', name: 'send_email', result: resultEvent.result, isError: false, data: draft },
    ])
    // Usage adds up over both calls; the last usage event is the total that is stored.
    expect(of(events, 'usage').at(-1)).toEqual(reply.usage)
    expect(reply.usage.outputTokens).toBeGreaterThan(of(events, 'usage')[0].outputTokens)
    // A draft only: no mail was sent, logged or queued (every mail Kontor sends passes the outbox).
    const mails = await t.deps.db.select().from(outboxEmails)
    expect(mails.filter((m) => m.to.includes('anna@acme.test') || m.subject === 'Lunch')).toEqual([])
  })

  test(`at most ${MAX_MODEL_CALLS} model calls: then Maximal number of iterations reached, keeping what streamed`, async () => {
    const { client, thread } = await chatSetup()
    fake.script(...Array.from({ length: 11 }, (_, i) => ({ text: `Step ${i + 1}. `, toolCalls: [{ name: 'send_email', arguments: { ...draft, subject: `Try ${i + 1}` } }] })))
    const events = await chat(t, client, thread.id, 'Loop forever')
    expect(modelCalls()).toHaveLength(10)
    expect(of(events, 'tool_call')).toHaveLength(9) // the tenth call's tools are not run: nobody would read their results
    expect(of(events, 'tool_result')).toHaveLength(9)
    expect(of(events, 'error')).toEqual([{ code: 'MAX_ITERATIONS_REACHED', message: 'Maximal number of iterations reached' }])
    expect(events.at(-1)).toEqual({ event: 'message_end', data: { status: 'failed' } })
    const reply = await lastReply(client, thread.id)
    expect(reply).toMatchObject({ status: 'failed', errorCode: 'MAX_ITERATIONS_REACHED', content: textOf(events) })
    expect(reply.content).toStartWith('Step 1. Step 2. ')
    expect(reply.content).toEndWith('Step 10. ')
    expect(reply.parts).toHaveLength(18)
    // Ids the provider repeated are made unique within the reply.
    expect(new Set(reply.parts.map((p: { id: string }) => p.id)).size).toBe(9)
  })

  test('an unknown tool: Tool not found goes back to the model and shows as an error result', async () => {
    const { client, thread } = await chatSetup()
    fake.script({ toolCalls: [{ name: 'launch_rockets', arguments: { count: 3 } }] }, { text: 'I cannot do that.' })
    const events = await chat(t, client, thread.id, 'Launch')
    const [result] = of(events, 'tool_result')
    expect(result).toMatchObject({ name: 'launch_rockets', isError: true, code: 'TOOL_NOT_FOUND' })
    expect(result.result).toStartWith('Tool not found')
    expect(modelCalls()[1]!.body.messages.at(-1)).toMatchObject({ role: 'tool', content: result.result })
    expect(await lastReply(client, thread.id)).toMatchObject({ status: 'complete', content: 'I cannot do that.' })
  })

  test('malformed and invalid arguments go back as errors, and the model corrects them on the next turn', async () => {
    const { client, thread } = await chatSetup()
    fake.script(
      { toolCalls: [{ name: 'send_email', arguments: '{"to": "anna@acme.test", "subject": "Lunch", "body": ' }] },
      { toolCalls: [{ name: 'send_email', arguments: { to: 'Anna', subject: 'Lunch' } }] },
      { toolCalls: [{ name: 'send_email', arguments: draft }] },
      { text: 'Done.' },
    )
    const events = await chat(t, client, thread.id, 'Mail Anna')
    const results = of(events, 'tool_result')
    expect(results.map((r) => [r.isError, r.code])).toEqual([
      [true, 'VALIDATION_FAILED'],
      [true, 'VALIDATION_FAILED'],
      [false, undefined],
    ])
    expect(results[0].result).toMatch(/not valid JSON/)
    expect(results[1].result).toMatch(/to: must be e-mail addresses.*body: /)
    // What the model read before its third try: the second error.
    expect(modelCalls()[2]!.body.messages.at(-1)).toMatchObject({ role: 'tool', content: results[1].result })
    expect(events.at(-1)!.data.status).toBe('complete')
  })

  test('the same from the fake model\'s markers: a tool call with broken JSON arguments', async () => {
    const { client, thread } = await chatSetup()
    const events = await chat(t, client, thread.id, 'Go [[fake:tool=send_email:{"to": oops}]]')
    expect(of(events, 'tool_result')[0]).toMatchObject({ isError: true, code: 'VALIDATION_FAILED' })
    // The fake answers a tool result with "Tool result: …", which ends the loop.
    expect(textOf(events)).toStartWith('Tool result: The arguments are not valid JSON')
  })
})

describe('website_content in a chat', () => {
  test('output over 20,000 characters is cut with a note, for the model and in the chat', async () => {
    const { client, thread } = await chatSetup(fetching)
    fake.script({ toolCalls: [{ name: 'website_content', arguments: { url: `${webUrl}/long` } }] }, { text: 'It is long.' })
    const events = await chat(fetching, client, thread.id, 'Read it')
    const [result] = of(events, 'tool_result')
    expect(result.isError).toBe(false)
    expect(result.result).toStartWith(`Source: ${webUrl}/long\n\nLorem ipsum`)
    expect(result.result).not.toContain('THE END')
    expect(result.result).toMatch(/\n\n\[Output cut: the tool returned 56,\d{3} characters; only the first 20,000 are shown\.\]$/)
    expect(modelCalls()[1]!.body.messages.at(-1).content).toBe(result.result)
    expect((await lastReply(client, thread.id)).parts[1].result).toBe(result.result)
  })

  test('a page that never answers ends after 5 s with a clear result, and the model goes on', async () => {
    const { client, thread } = await chatSetup(fetching)
    fake.script({ toolCalls: [{ name: 'website_content', arguments: { url: `${webUrl}/hang` } }] }, { text: 'The page did not load.' })
    const events = await chat(fetching, client, thread.id, 'Read the stuck page')
    expect(of(events, 'tool_result')[0]).toMatchObject({ isError: true, result: 'The page did not answer within 5 seconds.' })
    expect(events.at(-1)!.data.status).toBe('complete')
    expect(textOf(events)).toBe('The page did not load.')
  }, 15_000)

  test('private addresses are refused, also names resolving to them; the web server is never asked', async () => {
    const { client, thread } = await chatSetup()
    fake.script(
      {
        toolCalls: [
          { name: 'website_content', arguments: { url: `${webUrl}/page` } },
          { name: 'website_content', arguments: { url: 'http://169.254.169.254/latest/meta-data/' } },
          { name: 'website_content', arguments: { url: `http://intranet.test:${web.port}/page` } },
          { name: 'website_content', arguments: { url: 'http://10.0.0.5/admin' } },
          { name: 'website_content', arguments: { url: `http://[::1]:${web.port}/page` } },
        ],
      },
      { text: 'I cannot read those.' },
    )
    const events = await chat(t, client, thread.id, 'Read the intranet')
    const results = of(events, 'tool_result')
    expect(results.map((r) => [r.isError, r.result])).toEqual(Array(5).fill([true, 'This address points to a private or internal network and cannot be fetched.']))
    // Parallel calls: every call first, then every result, in order.
    expect(events.map((e) => e.event).filter((n) => n.startsWith('tool_'))).toEqual([...Array(5).fill('tool_call'), ...Array(5).fill('tool_result')])
    expect(webHits).toEqual([])
  })

  test('Stop while a tool runs: the fetch is abandoned and the reply kept as stopped with the call', async () => {
    const { client, thread } = await chatSetup(fetching)
    slowGate = Promise.withResolvers<void>()
    fake.script({ toolCalls: [{ name: 'website_content', arguments: { url: `${webUrl}/slow` } }] }, { text: 'never' })
    const res = await send(fetching, client, thread.id, 'Read slowly')
    const events = sseEvents(res.body!)
    const messageId = (await events.next()).value!.data.assistantMessageId as string
    // Until the first tool_call frame; a stream that ends before it fails the test instead of spinning.
    for (let e = await events.next(); e.value?.event !== 'tool_call'; e = await events.next()) if (e.done) throw new Error('the stream ended before a tool_call frame')
    while (!webHits.includes('/slow')) await new Promise((r) => setTimeout(r, 10))
    const stop = await fetching.app.request(`/api/threads/${thread.id}/messages/${messageId}/stop`, { method: 'POST', headers: { cookie: client.cookieHeader(), origin: BASE_URL } })
    expect(stop.status).toBe(204)
    const deadline = Date.now() + 5000
    while ((await fetching.deps.db.query.messages.findFirst({ where: eq(messages.threadId, thread.id), orderBy: (m, { desc }) => desc(m.seq) }))!.status !== 'stopped') {
      if (Date.now() > deadline) throw new Error('the reply was not stopped')
      await new Promise((r) => setTimeout(r, 25))
    }
    // Stopped while the page still had not answered: nobody waited for it.
    slowGate.resolve()
    const reply = await lastReply(client, thread.id)
    expect(reply.parts.map((p: { type: string }) => p.type)).toEqual(['tool_call'])
    expect(modelCalls()).toHaveLength(1)
  })
})

describe('Anthropic with thinking', () => {
  test("the turn's signed thinking goes back with its tool call", async () => {
    const { client, thread } = await chatSetup(t, 'anthropic')
    fake.script({ reasoning: 'The user wants a draft.', toolCalls: [{ name: 'send_email', arguments: draft }] }, { text: 'Drafted.' })
    const events = await chat(t, client, thread.id, 'Mail Anna')
    expect(of(events, 'reasoning').map((d) => d.delta).join('')).toBe('The user wants a draft.')
    const second = fake.requests.filter((r) => r.path.endsWith('/messages') && r.body?.stream)[1]!
    expect(second.body.messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'The user wants a draft.', signature: 'fake-signature' },
          { type: 'tool_use', id: 'toolu_fake0', name: 'send_email', input: draft },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_fake0', content: expect.stringMatching(/NOT been sent/) }] },
    ])
    expect(await lastReply(client, thread.id)).toMatchObject({ status: 'complete', content: 'Drafted.', reasoning: 'The user wants a draft.' })
  })
})

describe('the relay sets the pace', () => {
  /** A provider that answers in two chunks and keeps what it got back after the first. */
  function twoChunks(got: unknown[]): ChatProvider {
    const unused = () => Promise.reject(new Error('not used'))
    return {
      async *streamChat(req: ChatRequest) {
        yield { type: 'text', delta: 'a' }
        const pace = req.onChunkEnd?.()
        got.push(pace)
        await pace
        yield { type: 'text', delta: 'b' }
      },
      complete: unused,
      embed: unused,
      listModels: unused,
    }
  }

  test("what the relay's flush returns after a chunk reaches the provider, for a call started early and one started by the loop", async () => {
    // The promise a relay returns when it wrote: the provider waits for it before it reads on.
    const turn = Promise.resolve()
    const signal = new AbortController().signal
    const loop = (provider: ChatProvider, state: ReplyState) => ({
      provider,
      model: 'm',
      messages: [],
      tools: [],
      toolContext: { signal } as unknown as ToolContext,
      state,
      send: () => {},
      flush: () => turn,
      changed: () => {},
      checkpoint: async () => {},
    })
    const state = () => ({ content: '', reasoning: '', parts: [], inputTokens: null, outputTokens: null })

    const early: unknown[] = []
    const first = twoChunks(early)
    const firstState = state()
    await runToolLoop({ ...loop(first, firstState), firstCall: startModelCall(first, { model: 'm', messages: [], tools: [], signal }) })
    expect(early).toHaveLength(1)
    expect(early[0]).toBe(turn)
    expect(firstState.content).toBe('ab')

    const later: unknown[] = []
    const laterState = state()
    await runToolLoop(loop(twoChunks(later), laterState))
    expect(later).toHaveLength(1)
    expect(later[0]).toBe(turn)
    expect(laterState.content).toBe('ab')
  })
})
