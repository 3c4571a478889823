import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { join } from 'node:path'
import { agents, messages } from '../../../db/schema'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { readSse, sseEvents, type SseEvent } from '../../../tests/support/sse'
import { BASE_URL, createTestApp, PASSWORD, registerOrg, type TestClient } from '../../../tests/support/test-app'
import { waitFor } from '../../../tests/support/wait-for'
import { MAX_UNREAD_BYTES } from './reply-relay'
import { processingIdle } from '../sources/process'
import { FIRST_BATCH } from '../../ai/sse'

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  fake = await startFakeLlm()
  // Files attached to chats on local disk, as the Bun entry keeps them.
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-chat', OPENAI_BASE_URL: `${fake.url}/v1` }, localFiles: true })
})
afterAll(async () => {
  await processingIdle()
  await t.close()
  fake.close()
})
beforeEach(() => fake.reset())

/** A signed-in admin whose organisation permits one OpenAI model, and a fresh thread. */
async function chatSetup() {
  const client = t.client()
  const org = await registerOrg(client)
  await client.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
  const model = (await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })).body
  const thread = (await client.post('/api/threads', {})).body
  return { client, org, model, thread }
}

/** POSTs a message and returns the raw streaming response (cookies of the client). */
function send(client: TestClient, threadId: string, content: string, extra: Record<string, unknown> = {}) {
  const cookie = client.cookieHeader()
  return t.app.request(`/api/threads/${threadId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: BASE_URL },
    body: JSON.stringify({ content, ...extra }),
  })
}

const textOf = (events: { event: string; data: any }[]) => events.filter((e) => e.event === 'text').map((e) => e.data.delta).join('')
describe('threads', () => {
  test('a new thread gets the default model; it is listed, read and deleted by its owner only', async () => {
    const { client, model, thread } = await chatSetup()
    expect(thread).toMatchObject({ modelId: model.id, agentId: null, title: null })
    expect((await client.get('/api/threads')).body.threads.map((x: { id: string }) => x.id)).toEqual([thread.id])
    const detail = await client.get(`/api/threads/${thread.id}`)
    expect(detail.body).toMatchObject({ id: thread.id, messages: [], model: { id: model.id, modelId: 'openai/gpt-4.1' } })

    // A colleague in the same organisation cannot see it.
    const invite = await client.post('/api/invites', { email: `c-${crypto.randomUUID().slice(0, 6)}@acme.test`, role: 'admin' })
    const colleague = t.client()
    await colleague.post('/api/invites/accept', { token: new URL(invite.body.acceptUrl).searchParams.get('token'), name: 'C', password: PASSWORD, passwordConfirmation: PASSWORD })
    expect((await colleague.get(`/api/threads/${thread.id}`)).status).toBe(404)
    expect((await colleague.delete(`/api/threads/${thread.id}`)).body.code).toBe('THREAD_NOT_FOUND')
    expect((await colleague.get('/api/threads')).body.threads).toEqual([])
    expect((await send(colleague, thread.id, 'hi')).status).toBe(404)

    expect((await client.delete(`/api/threads/${thread.id}`)).status).toBe(204)
    expect((await client.get(`/api/threads/${thread.id}`)).status).toBe(404)
  })

  test('without any permitted model a thread cannot start: No model found', async () => {
    const client = t.client()
    await registerOrg(client)
    const res = await client.post('/api/threads', {})
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ code: 'NO_MODEL_FOUND', message: 'No model found', status: 404 })
  })

  test('the list is ordered by latest activity and paginated', async () => {
    const { client, thread: first } = await chatSetup()
    const second = (await client.post('/api/threads', {})).body
    const third = (await client.post('/api/threads', {})).body
    await readSse(await send(client, first.id, 'bump'))
    const page1 = await client.get('/api/threads?limit=2')
    expect(page1.body.threads.map((x: { id: string }) => x.id)).toEqual([first.id, third.id])
    const page2 = await client.get(`/api/threads?limit=2&cursor=${page1.body.nextCursor}`)
    expect(page2.body.threads.map((x: { id: string }) => x.id)).toEqual([second.id])
    expect(page2.body.nextCursor).toBeNull()
  })
})

describe('sending a message', () => {
  test('streams deltas in order, stores both messages, and titles the chat', async () => {
    const { client, thread } = await chatSetup()
    const res = await send(client, thread.id, 'Hello there, how are you?')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/event-stream')
    const events = await readSse(res)
    const names = events.map((e) => e.event)
    expect(names[0]).toBe('message_start')
    expect(names.at(-1)).toBe('message_end')
    expect(names.filter((n) => n === 'text').length).toBeGreaterThanOrEqual(1)
    expect(names.indexOf('title')).toBeGreaterThan(names.lastIndexOf('text'))
    expect(textOf(events)).toBe('You said: Hello there, how are you?')
    const title = events.find((e) => e.event === 'title')!.data.title
    expect(title.length).toBeLessThanOrEqual(50)
    expect(events.at(-1)!.data).toEqual({ status: 'complete' })

    const detail = (await client.get(`/api/threads/${thread.id}`)).body
    expect(detail.title).toBe(title)
    expect(detail.messages.map((m: { role: string; status: string }) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
    ])
    expect(detail.messages[1]).toMatchObject({ content: 'You said: Hello there, how are you?', model: 'openai/gpt-4.1' })
    expect(detail.messages[1].usage.outputTokens).toBeGreaterThan(0)

    // The system prompt starts with the date; the history reaches the model on the next turn.
    const second = await readSse(await send(client, thread.id, 'And again'))
    expect(second.some((e) => e.event === 'title')).toBe(false)
    const request = fake.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1)!
    const sent = (request.body as { messages: { role: string; content: string }[] }).messages
    expect(sent[0]!.role).toBe('system')
    expect(sent[0]!.content).toContain('Current date and time')
    expect(sent.slice(1).map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
  })

  test('what one network chunk of the provider brings reaches the client before the next one, merged into one frame', async () => {
    const { client, thread } = await chatSetup()
    // 20 frames per network chunk (fewer than the SSE reader's first batch); the provider then waits until released.
    const res = await send(client, thread.id, '[[fake:tokens=400]][[fake:burst=20]][[fake:hold]] go')
    const events = sseEvents(res.body!)
    const seen: SseEvent[] = []
    // Read by hand: leaving a for-await loop would close the stream.
    while (seen.at(-1)?.event !== 'text') {
      const next = await events.next()
      if (next.done) break
      seen.push(next.value)
    }
    // The role frame and 19 words came in the first chunk: they arrive now, as one text frame.
    const words = Array.from({ length: 400 }, (_, i) => `t${i}`)
    expect(seen.map((e) => e.event)).toEqual(['message_start', 'text'])
    expect(seen[1]!.data.delta).toBe(words.slice(0, 19).join(' '))
    fake.release()
    for await (const e of events) seen.push(e)
    expect(textOf(seen)).toBe(words.join(' '))
    // Merged per chunk: at most one text frame for each of the provider's chunks.
    expect(seen.filter((e) => e.event === 'text').length).toBeLessThanOrEqual(Math.ceil(404 / 20))
    expect(seen.at(-1)).toEqual({ event: 'message_end', data: { status: 'complete' } })
  })

  test('a network chunk of many frames (a fast answer that piled up) reaches the client in steps: a few words first, then the rest', async () => {
    const { client, thread } = await chatSetup()
    // 200 frames in the first network chunk: the role frame and 199 words; the provider then waits until released.
    const res = await send(client, thread.id, '[[fake:tokens=400]][[fake:burst=200]][[fake:hold]] go')
    const events = sseEvents(res.body!)
    const seen: SseEvent[] = []
    while (seen.filter((e) => e.event === 'text').length < 2) {
      const next = await events.next()
      if (next.done) break
      seen.push(next.value)
    }
    const words = Array.from({ length: 400 }, (_, i) => `t${i}`)
    // FIRST_BATCH messages first (the role frame and 31 words), then the rest of the chunk.
    const texts = seen.filter((e) => e.event === 'text').map((e) => e.data.delta as string)
    expect(texts[0]).toBe(words.slice(0, FIRST_BATCH - 1).join(' '))
    expect(texts[1]).toBe(` ${words.slice(FIRST_BATCH - 1, 199).join(' ')}`)
    fake.release()
    for await (const e of events) seen.push(e)
    expect(textOf(seen)).toBe(words.join(' '))
  })

  test('a provider failure before the first token: error event, reply failed, the user message kept', async () => {
    const { client, thread } = await chatSetup()
    fake.script({ error: 500 }, { error: 500 }, { error: 500 })
    const events = await readSse(await send(client, thread.id, 'hi'))
    expect(events.find((e) => e.event === 'error')!.data).toEqual({ code: 'PROVIDER_UNAVAILABLE', message: 'Error fetching response' })
    expect(events.at(-1)!.data.status).toBe('failed')
    const detail = (await client.get(`/api/threads/${thread.id}`)).body
    expect(detail.messages.map((m: { status: string }) => m.status)).toEqual(['complete', 'failed'])
    expect(detail.messages[1].errorCode).toBe('PROVIDER_UNAVAILABLE')
  })

  test('a stream cut after the first tokens keeps what arrived, marked failed', async () => {
    const { client, thread } = await chatSetup()
    const events = await readSse(await send(client, thread.id, 'one two three four five six seven [[fake:cut-after=3]]'))
    expect(textOf(events).length).toBeGreaterThan(0)
    expect(events.find((e) => e.event === 'error')!.data.code).toBe('PROVIDER_STREAM_INTERRUPTED')
    const reply = (await client.get(`/api/threads/${thread.id}`)).body.messages[1]
    expect(reply).toMatchObject({ status: 'failed', content: textOf(events) })
  })

  test('a failed reply can be retried with regenerate', async () => {
    const { client, thread } = await chatSetup()
    fake.script({ error: 500 }, { error: 500 }, { error: 500 })
    await readSse(await send(client, thread.id, 'retry me'))
    const cookie = client.cookieHeader()
    const res = await t.app.request(`/api/threads/${thread.id}/regenerate`, { method: 'POST', headers: { cookie, origin: BASE_URL } })
    const events = await readSse(res)
    expect(textOf(events)).toBe('You said: retry me')
    const detail = (await client.get(`/api/threads/${thread.id}`)).body
    expect(detail.messages.map((m: { role: string; status: string }) => `${m.role}:${m.status}`)).toEqual(['user:complete', 'assistant:complete'])
  })

  test('closing the stream leaves the reply running: it is written to the end', async () => {
    const { client, thread } = await chatSetup()
    const res = await send(client, thread.id, '[[fake:tokens=60]] [[fake:delay=10]] go')
    const iterator = sseEvents(res.body!)
    let texts = 0
    for await (const e of iterator) if (e.event === 'text' && ++texts === 3) break // leaving the loop cancels the body
    const last = async () => (await t.deps.db.query.messages.findFirst({ where: eq(messages.threadId, thread.id), orderBy: (m, { desc }) => desc(m.seq) }))!
    await waitFor(async () => (await last()).status !== 'streaming', 15_000)
    expect(await last()).toMatchObject({ status: 'complete', content: Array.from({ length: 60 }, (_, i) => `t${i}`).join(' ') })
    expect(fake.requests.map((r) => r.outcome)).not.toContain('disconnected')
  })

  test('a client that does not read its reply has its stream stopped once a megabyte waits for it, with a clear end; the reply goes on, and attaching again gives the rest', async () => {
    const { client, thread } = await chatSetup()
    // About 2 MB of text from a fast provider; the response body is not read while the reply runs.
    const res = await send(client, thread.id, '[[fake:tokens=300000]][[fake:burst=1000]] go')
    expect(res.status).toBe(200)
    const last = async () => (await t.deps.db.query.messages.findFirst({ where: eq(messages.threadId, thread.id), orderBy: (m, { desc }) => desc(m.seq) }))!
    await waitFor(async () => (await last()).status !== 'streaming', 30_000)
    const reply = await last()
    expect(reply.status).toBe('complete')
    expect(reply.content.length).toBeGreaterThan(2 * MAX_UNREAD_BYTES)
    // What waited (a megabyte or so, not the whole reply), then the end of this stream: not of the reply.
    const events = await readSse(res, { ids: true })
    expect(events.at(-1)).toEqual({ event: 'stream_stopped', data: { reason: 'unread' }, id: undefined })
    expect(events.some((e) => e.event === 'message_end')).toBe(false)
    const first = textOf(events)
    expect(first.length).toBeGreaterThan(MAX_UNREAD_BYTES / 2)
    expect(first.length).toBeLessThan(MAX_UNREAD_BYTES + 64 * 1024)
    expect(reply.content.startsWith(first)).toBe(true)
    // Attached again from the last frame's id (again while a megabyte comes at once, as the web
    // client does): the rest, to the reply's end, without a gap or a repeat.
    let text = first
    let lastId = events.findLast((e) => e.id !== undefined)!.id!
    let end: SseEvent | undefined
    for (let attached = 0; !end && attached < 4; attached++) {
      const more = await readSse(await t.app.request(`/api/threads/${thread.id}/messages/${reply.id}/stream`, { headers: { cookie: client.cookieHeader(), 'last-event-id': lastId } }), { ids: true })
      expect(['stream_stopped', 'message_end']).toContain(more.at(-1)!.event)
      text += textOf(more)
      lastId = more.findLast((e) => e.id !== undefined)?.id ?? lastId
      end = more.find((e) => e.event === 'message_end')
    }
    expect(end?.data).toEqual({ status: 'complete' })
    expect(text).toBe(reply.content)
  }, 60_000)

  test('while a reply streams, a reload shows it so far, and a second send is refused', async () => {
    const { client, thread } = await chatSetup()
    const res = await send(client, thread.id, '[[fake:tokens=150]] [[fake:delay=15]] slow')
    const iterator = sseEvents(res.body!)[Symbol.asyncIterator]()
    for (let texts = 0; texts < 30; ) if ((await iterator.next()).value?.event === 'text') texts++
    // The text so far reaches the database at the next persist interval, while the reply streams.
    let midway = (await client.get(`/api/threads/${thread.id}`)).body.messages[1]
    while (midway.status === 'streaming' && midway.content.length === 0) {
      await Bun.sleep(25)
      midway = (await client.get(`/api/threads/${thread.id}`)).body.messages[1]
    }
    expect(midway.status).toBe('streaming')
    expect(midway.content.length).toBeGreaterThan(0)
    const second = await send(client, thread.id, 'me too')
    expect(second.status).toBe(409)
    expect((await second.json()).code).toBe('REPLY_IN_PROGRESS')
    // Neither may an edit replace, nor a regenerate drop, the reply that is streaming.
    const edit = await send(client, thread.id, 'edited', { replaceLast: true })
    expect(edit.status).toBe(409)
    expect((await edit.json()).code).toBe('REPLY_IN_PROGRESS')
    const cookie = client.cookieHeader()
    const regenerate = await t.app.request(`/api/threads/${thread.id}/regenerate`, { method: 'POST', headers: { cookie, origin: BASE_URL } })
    expect(regenerate.status).toBe(409)
    expect((await regenerate.json()).code).toBe('REPLY_IN_PROGRESS')
    const during = (await client.get(`/api/threads/${thread.id}`)).body.messages
    expect(during.map((m: { role: string; status: string }) => `${m.role}:${m.status}`)).toEqual(['user:complete', 'assistant:streaming'])
    while (!(await iterator.next()).done) {}
    const after = (await client.get(`/api/threads/${thread.id}`)).body.messages
    expect(after.map((m: { status: string }) => m.status)).toEqual(['complete', 'complete'])
  })

  test('replies streaming at once are each written while they stream, and completely at the end', async () => {
    const { client, thread } = await chatSetup()
    const ids = [thread.id, (await client.post('/api/threads', {})).body.id, (await client.post('/api/threads', {})).body.id]
    const streams = await Promise.all(ids.map(async (id) => sseEvents((await send(client, id, '[[fake:tokens=120]] [[fake:delay=15]] together')).body!)[Symbol.asyncIterator]()))
    for (const events of streams) for (let texts = 0; texts < 20; ) if ((await events.next()).value?.event === 'text') texts++
    // Each reply's text reaches the database while it still streams (the next persist interval).
    for (const id of ids) {
      let midway = (await client.get(`/api/threads/${id}`)).body.messages[1]
      while (midway.status === 'streaming' && !midway.content.startsWith('t0 t1 t2')) {
        await Bun.sleep(25)
        midway = (await client.get(`/api/threads/${id}`)).body.messages[1]
      }
      expect(midway.status).toBe('streaming')
      expect(midway.content).toStartWith('t0 t1 t2')
    }
    for (const events of streams) while (!(await events.next()).done) {}
    const expected = Array.from({ length: 120 }, (_, i) => `t${i}`).join(' ')
    for (const id of ids) expect((await client.get(`/api/threads/${id}`)).body.messages[1]).toMatchObject({ status: 'complete', content: expected })
  })

  test('concurrent sends to one thread: exactly one streams, nothing orphaned', async () => {
    const { client, thread } = await chatSetup()
    const results = await Promise.all([1, 2, 3].map((i) => send(client, thread.id, `race ${i} [[fake:delay=5]]`)))
    const ok = results.filter((r) => r.status === 200)
    expect(ok).toHaveLength(1)
    expect(results.filter((r) => r.status === 409)).toHaveLength(2)
    await readSse(ok[0]!)
    expect((await client.get(`/api/threads/${thread.id}`)).body.messages).toHaveLength(2)
  })

  test('edit and resend replaces the last user message and its reply', async () => {
    const { client, thread } = await chatSetup()
    await readSse(await send(client, thread.id, 'first'))
    await readSse(await send(client, thread.id, 'typo'))
    await readSse(await send(client, thread.id, 'fixed', { replaceLast: true }))
    const contents = (await client.get(`/api/threads/${thread.id}`)).body.messages.map((m: { content: string }) => m.content)
    expect(contents).toEqual(['first', 'You said: first', 'fixed', 'You said: fixed'])
  })
})

describe('titles', () => {
  /** The request that asked for the title (the only one that does not stream). */
  const titleRequest = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions') && !r.body?.stream).at(-1)!

  test("the model's title is asked for in the thread's language and cut to 50 characters", async () => {
    const { client, thread } = await chatSetup()
    const long = 'Die Wartung der Turbine im kommenden Geschäftsjahr und ihre Kosten im Überblick'
    fake.script({ text: 'Die Wartung kostet 40.000 Euro im Jahr.' }, { text: `"${long}"` })
    const events = await readSse(await send(client, thread.id, 'Was kostet die Wartung der Turbine im nächsten Jahr?'))
    const asked = titleRequest().body.messages as { role: string; content: string }[]
    expect(asked[0]!.content).toContain('at most 50 characters')
    expect(asked[0]!.content).toContain('in the language the user wrote in')
    expect(asked[1]!.content).toBe('User: Was kostet die Wartung der Turbine im nächsten Jahr?\n\nAssistant: Die Wartung kostet 40.000 Euro im Jahr.')
    const title = events.find((e) => e.event === 'title')!.data.title as string
    expect(title).toHaveLength(50)
    expect(title).toBe(`${long.slice(0, 49).trimEnd()}…`)
    expect((await client.get(`/api/threads/${thread.id}`)).body.title).toBe(title)
    expect((await client.get('/api/threads')).body.threads[0].title).toBe(title)
  })

  test('when the model cannot give a title, the start of the first message serves', async () => {
    const { client, thread } = await chatSetup()
    fake.script({ text: 'Sure.' }, { error: 400 })
    const events = await readSse(await send(client, thread.id, 'Please   summarise\nthe quarterly report for the board meeting next Tuesday morning'))
    expect(events.find((e) => e.event === 'title')!.data.title).toBe('Please summarise the quarterly report for the boa…')
    expect(events.at(-1)!.data).toEqual({ status: 'complete' })
  })

  test('a reply that failed gets no title; the next successful exchange does', async () => {
    const { client, thread } = await chatSetup()
    fake.script({ error: 500 }, { error: 500 }, { error: 500 })
    const failed = await readSse(await send(client, thread.id, 'First try'))
    expect(failed.some((e) => e.event === 'title')).toBe(false)
    expect((await client.get(`/api/threads/${thread.id}`)).body.title).toBeNull()
    fake.script({ text: 'Now it works.' }, { text: 'Second try' })
    const next = await readSse(await send(client, thread.id, 'Second try'))
    expect(next.find((e) => e.event === 'title')!.data.title).toBe('Second try')
    expect((await client.get(`/api/threads/${thread.id}`)).body.title).toBe('Second try')
  })
})

describe('changing the model or the agent of a chat', () => {
  test('the next reply comes from the chosen model, then from the agent; without the agent the chat keeps a model', async () => {
    const { client, org, thread } = await chatSetup()
    const mini = (await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1-mini' })).body
    const lastModel = () => fake.requests.filter((r) => r.body?.stream).at(-1)!.body.model
    const changed = await client.patch(`/api/threads/${thread.id}/model`, { modelId: mini.id })
    expect(changed.status).toBe(200)
    expect(changed.body).toMatchObject({ modelId: mini.id, model: { id: mini.id, modelId: 'openai/gpt-4.1-mini' }, agent: null })
    await readSse(await send(client, thread.id, 'one'))
    expect(lastModel()).toBe('gpt-4.1-mini')

    const agentId = crypto.randomUUID()
    const gpt = (await client.get('/api/models/permitted/language-models')).body.find((m: { model: string }) => m.model === 'gpt-4.1')
    await t.deps.db.insert(agents).values({ id: agentId, organizationId: org.user.organization.id, userId: org.user.id, name: 'Poet', instructions: 'Answer in rhymes.', modelId: gpt.id })
    const withAgent = await client.patch(`/api/threads/${thread.id}/agent`, { agentId })
    expect(withAgent.body).toMatchObject({ agentId, agent: { id: agentId, name: 'Poet' }, model: { id: gpt.id } })
    await readSse(await send(client, thread.id, 'two'))
    expect(lastModel()).toBe('gpt-4.1')
    expect(fake.requests.filter((r) => r.body?.stream).at(-1)!.body.messages[0].content).toContain('Answer in rhymes.')

    const without = await client.patch(`/api/threads/${thread.id}/agent`, { agentId: null })
    expect(without.body).toMatchObject({ agentId: null, agent: null, modelId: mini.id, model: { id: mini.id } })
    await readSse(await send(client, thread.id, 'three'))
    expect(lastModel()).toBe('gpt-4.1-mini')
  })

  test("a chat started with an agent goes on with the agent's model once the agent is removed", async () => {
    const { client, org } = await chatSetup()
    const mini = (await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1-mini' })).body
    const agentId = crypto.randomUUID()
    await t.deps.db.insert(agents).values({ id: agentId, organizationId: org.user.organization.id, userId: org.user.id, name: 'Mini', instructions: 'Be brief.', modelId: mini.id })
    const thread = (await client.post('/api/threads', { agentId })).body
    expect(thread).toMatchObject({ agentId, modelId: null })
    const without = await client.patch(`/api/threads/${thread.id}/agent`, { agentId: null })
    expect(without.body).toMatchObject({ agentId: null, modelId: mini.id, model: { id: mini.id } })
  })

  test('an embedding model is no chat model; a missing body is a validation error', async () => {
    const { client, thread } = await chatSetup()
    const embedding = (await client.post('/api/models/permitted', { modelId: 'openai/text-embedding-3-small' })).body
    const res = await client.patch(`/api/threads/${thread.id}/model`, { modelId: embedding.id })
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('NOT_A_LANGUAGE_MODEL')
    const missing = await client.patch(`/api/threads/${thread.id}/agent`, {})
    expect(missing.status).toBe(400)
    expect(missing.body.code).toBe('VALIDATION_FAILED')
  })
})

describe('bad input', () => {
  test('empty, blank and oversized messages are refused, and nothing is stored', async () => {
    const { client, thread } = await chatSetup()
    for (const content of ['', '   ', 'x'.repeat(32_001)]) {
      const res = await send(client, thread.id, content)
      expect(res.status).toBe(400)
      expect((await res.json()).code).toBe('VALIDATION_FAILED')
    }
    expect((await client.get(`/api/threads/${thread.id}`)).body.messages).toEqual([])
  })

  test('a model the organisation no longer permits: No model found, nothing stored', async () => {
    const { client, model, thread } = await chatSetup()
    await client.delete(`/api/models/permitted/${model.id}`)
    const res = await send(client, thread.id, 'hello')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ code: 'NO_MODEL_FOUND', message: 'No model found', status: 404 })
    expect((await client.get(`/api/threads/${thread.id}`)).body.messages).toEqual([])
  })

  test('unknown threads, models and agents', async () => {
    const { client, thread } = await chatSetup()
    expect((await send(client, 'nope', 'hi')).status).toBe(404)
    expect((await client.post('/api/threads', { modelId: 'nope' })).body.code).toBe('MODEL_NOT_FOUND')
    expect((await client.post('/api/threads', { agentId: 'nope' })).body.code).toBe('AGENT_NOT_FOUND')
    expect((await client.patch(`/api/threads/${thread.id}/model`, { modelId: 'nope' })).body.code).toBe('MODEL_NOT_FOUND')
    expect((await client.patch(`/api/threads/${thread.id}/agent`, { agentId: 'nope' })).body.code).toBe('AGENT_NOT_FOUND')
  })
})

describe('agents in chats', () => {
  test("the agent's model wins and its instructions follow the date in the system prompt", async () => {
    const { client, org, model } = await chatSetup()
    await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1-mini' })
    const agentId = crypto.randomUUID()
    await t.deps.db.insert(agents).values({
      id: agentId,
      organizationId: org.user.organization.id,
      userId: org.user.id,
      name: 'Pirate',
      instructions: 'Always answer like a pirate.',
      modelId: model.id,
    })
    const mini = (await client.get('/api/models/permitted/language-models')).body.find((m: { model: string }) => m.model === 'gpt-4.1-mini')
    const thread = (await client.post('/api/threads', { agentId, modelId: mini.id })).body
    const events = await readSse(await send(client, thread.id, 'Ahoy'))
    expect(events[0]!.data.model).toBe('openai/gpt-4.1')
    const request = fake.requests.filter((r) => r.path.endsWith('/chat/completions'))[0]!
    const body = request.body as { model: string; messages: { content: string }[] }
    expect(body.model).toBe('gpt-4.1')
    expect(body.messages[0]!.content).toMatch(/^Current date and time: .*\n\nAlways answer like a pirate\.$/s)
    const detail = (await client.get(`/api/threads/${thread.id}`)).body
    expect(detail.agent).toEqual({ id: agentId, name: 'Pirate' })
  })
})

describe('files in the system prompt', () => {
  /** The last streamed chat request (not the one for the title). */
  const replyRequest = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions') && r.body?.stream).at(-1)!

  /** Attaches a text file to the thread as the browser does. */
  async function attach(client: TestClient, threadId: string, file: { text: string; fileName: string; name?: string; description?: string }) {
    const form = new FormData()
    form.set('file', new File([file.text], file.fileName, { type: 'text/plain' }))
    if (file.name) form.set('name', file.name)
    if (file.description) form.set('description', file.description)
    const cookie = client.cookieHeader()
    const res = await t.app.request(`/api/threads/${threadId}/sources/file`, { method: 'POST', headers: { cookie, origin: BASE_URL }, body: form })
    expect(res.status).toBe(201)
  }

  test('the model is told which files are attached to the chat, and which of them it can search', async () => {
    const { client, thread } = await chatSetup()
    await client.post('/api/models/permitted', { modelId: 'openai/text-embedding-3-small' })
    await attach(client, thread.id, { text: 'Walruses rest on the ice of the bay.', fileName: 'walruses.txt', name: 'Walrus field notes', description: 'Counts from\nthe 2024 season' })
    await attach(client, thread.id, { text: ' \n\t ', fileName: 'blank.txt' })
    await processingIdle()
    // Its embedding answers slowly, so it is still being processed when the message is sent.
    await attach(client, thread.id, { text: 'Harbour crane manual [[fake:slow-first-token=2000]]', fileName: 'crane.txt' })

    await readSse(await send(client, thread.id, 'What do my files say?'))
    const request = replyRequest()
    const system = (request.body as { messages: { role: string; content: string }[] }).messages[0]!
    expect(system.role).toBe('system')
    expect(system.content).toStartWith('Current date and time: ')
    expect(system.content).toContain('\n\nFiles attached to this chat (search the ready ones with the source_query tool):\n')
    expect(system.content).toContain('- Walrus field notes (walruses.txt): ready — Counts from the 2024 season\n')
    expect(system.content).toContain('- blank.txt: failed, could not be read\n')
    expect(system.content).toEndWith('- crane.txt: processing, not searchable yet')
    expect((request.body as { tools?: { function: { name: string } }[] }).tools?.map((x) => x.function.name)).toContain('source_query')
    await processingIdle()
  })

  test('a chat whose files are still processing or failed is not offered source_query', async () => {
    const { client, thread } = await chatSetup()
    await client.post('/api/models/permitted', { modelId: 'openai/text-embedding-3-small' })
    await attach(client, thread.id, { text: ' \n\t ', fileName: 'blank.txt' })
    await processingIdle()
    await attach(client, thread.id, { text: 'Harbour crane manual [[fake:slow-first-token=2000]]', fileName: 'crane.txt' })

    await readSse(await send(client, thread.id, 'What do my files say?'))
    const request = replyRequest()
    expect((request.body as { messages: { content: string }[] }).messages[0]!.content).toContain('- blank.txt: failed, could not be read\n')
    expect((request.body as { tools?: { function: { name: string } }[] }).tools?.map((x) => x.function.name) ?? []).not.toContain('source_query')
    await processingIdle()
  })

  test('a chat without files says nothing about files', async () => {
    const { client, thread } = await chatSetup()
    await readSse(await send(client, thread.id, 'hello'))
    const request = replyRequest()
    expect((request.body as { messages: { content: string }[] }).messages[0]!.content).not.toContain('Files attached')
  })
})
