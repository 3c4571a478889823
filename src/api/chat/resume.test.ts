/**
 * Resumable replies: a reply runs apart from the request that started it; a client attaches to it
 * from where it left off (`Last-Event-ID`), through the process that runs it or through another
 * one on the same database; Stop works through any of them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { messages, replyChunks, streamingReplies } from '../../../db/schema'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { replyNumber, replyParts } from '../../../tests/support/reply-parts'
import { readSse, sseEvents, type SseEvent } from '../../../tests/support/sse'
import { BASE_URL, createTestApp, enableOpenAiModels, registerOrg, type TestClient } from '../../../tests/support/test-app'
import { until, waitFor } from '../../../tests/support/wait-for'

type App = Awaited<ReturnType<typeof createTestApp>>
let fake: FakeLlm
/** Two apps on one database file: two server processes, as far as the database can tell. */
let one: App
let two: App
beforeAll(async () => {
  fake = await startFakeLlm()
  const env = { OPENAI_API_KEY: 'sk-resume', OPENAI_BASE_URL: `${fake.url}/v1` }
  one = await createTestApp({ env })
  two = await createTestApp({ env, databaseUrl: one.databaseUrl })
})
afterAll(async () => {
  await two.close()
  await one.close()
  fake.close()
})
beforeEach(() => fake.reset())

async function chatSetup() {
  const client = one.client()
  await registerOrg(client)
  await enableOpenAiModels(client, ['openai/gpt-4.1'])
  const thread = (await client.post('/api/threads', {})).body as { id: string }
  return { client, thread }
}

const send = (client: TestClient, threadId: string, content: string) =>
  one.app.request(`/api/threads/${threadId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: client.cookieHeader(), origin: BASE_URL },
    body: JSON.stringify({ content }),
  })

const attach = (app: App, client: TestClient, threadId: string, messageId: string, lastEventId?: string) =>
  app.app.request(`/api/threads/${threadId}/messages/${messageId}/stream`, {
    headers: { cookie: client.cookieHeader(), ...(lastEventId !== undefined && { 'last-event-id': lastEventId }) },
  })

const stop = (app: App, client: TestClient, threadId: string, messageId: string) =>
  app.app.request(`/api/threads/${threadId}/messages/${messageId}/stop`, { method: 'POST', headers: { cookie: client.cookieHeader(), origin: BASE_URL } })

const textOf = (events: SseEvent[]) => events.filter((e) => e.event === 'text').map((e) => e.data.delta).join('')
const tokens = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`).join(' ')
const reply = async (id: string) => (await one.deps.db.query.messages.findFirst({ where: eq(messages.id, id) }))!

/** Sends a slow message and reads its stream until `texts` text frames came; the rest of the stream is left unread (cancelled). */
async function leaveMidway(client: TestClient, threadId: string, content: string, texts: number) {
  const res = await send(client, threadId, content)
  const seen: SseEvent[] = []
  for await (const e of sseEvents(res.body!, { ids: true })) {
    seen.push(e)
    if (seen.filter((x) => x.event === 'text').length === texts) break // leaving the loop cancels the body
  }
  return { seen, messageId: seen[0]!.data.assistantMessageId as string, lastEventId: seen.at(-1)!.id! }
}

describe('a client that leaves mid-reply', () => {
  test('leaves the reply running; attaching with Last-Event-ID through the same process gives exactly what it missed, live, then the end', async () => {
    const { client, thread } = await chatSetup()
    // 300 tokens 15 ms apart: the reply still streams well after the client left, even on a busy machine.
    const { seen, messageId, lastEventId } = await leaveMidway(client, thread.id, '[[fake:tokens=300]] [[fake:delay=15]] story', 5)
    expect((await reply(messageId)).status).toBe('streaming')
    const res = await attach(one, client, thread.id, messageId, lastEventId)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/event-stream')
    const rest = await readSse(res, { ids: true })
    expect(rest[0]).toMatchObject({ event: 'message_start', data: { threadId: thread.id, assistantMessageId: messageId, userMessageId: null } })
    // No duplicates, no gaps: what the client had and what it was given make the whole reply.
    expect(textOf(seen) + textOf(rest)).toBe(tokens(300))
    expect(rest.at(-1)).toMatchObject({ event: 'message_end', data: { status: 'complete' } })
    expect(rest.some((e) => e.event === 'title')).toBe(true)
    // Each frame names where the client is after it.
    expect(rest.filter((e) => e.event === 'text').at(-1)!.id).toBe(`${tokens(300).length}.0.0`)
    expect(await reply(messageId)).toMatchObject({ status: 'complete', content: tokens(300) })
    expect(fake.requests.map((r) => r.outcome)).not.toContain('disconnected')
  }, 30_000)

  test("attached through the process that runs it, the stream gives the chat's title where it has one (named while the reply streams)", async () => {
    const { client, thread } = await chatSetup()
    const { messageId, lastEventId } = await leaveMidway(client, thread.id, '[[fake:tokens=300]] [[fake:delay=15]] story', 2)
    expect((await client.patch(`/api/threads/${thread.id}`, { title: 'Named meanwhile' })).status).toBe(200)
    // Still running in this process: the stream follows it there, not through the database.
    expect((await reply(messageId)).status).toBe('streaming')
    const rest = await readSse(await attach(one, client, thread.id, messageId, lastEventId))
    expect(rest.filter((e) => e.event === 'title')).toEqual([{ event: 'title', data: { title: 'Named meanwhile' } }])
    expect(rest.at(-1)).toEqual({ event: 'message_end', data: { status: 'complete' } })
  }, 30_000)

  test('is followed through another process on the same database, which reads the reply as it is written and ends with the final frame', async () => {
    const { client, thread } = await chatSetup()
    const { seen, messageId, lastEventId } = await leaveMidway(client, thread.id, '[[fake:tokens=300]] [[fake:delay=15]] story', 3)
    const rest = await readSse(await attach(two, client, thread.id, messageId, lastEventId), { ids: true })
    expect(textOf(seen) + textOf(rest)).toBe(tokens(300))
    // It came in several reads while the reply was written, not all at the end.
    expect(rest.filter((e) => e.event === 'text').length).toBeGreaterThan(1)
    expect(rest.slice(-3).map((e) => e.event)).toEqual(['usage', 'title', 'message_end'])
    expect(rest.at(-1)!.data).toEqual({ status: 'complete' })
    const ids = rest.filter((e) => e.event === 'text').map((e) => Number(e.id!.split('.')[0]))
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
  }, 30_000)

  test('a lone surrogate in what the model said is written as U+FFFD while the reply streams: the chat still reads', async () => {
    const { client, thread } = await chatSetup()
    // Half of a character (a model that cut an emoji in two), then the provider holds the rest back.
    fake.script({ text: `Hello \ud83d there ${tokens(20)}`, hold: true, burst: 4 })
    const res = await send(client, thread.id, 'hi')
    expect(res.status).toBe(200)
    // Opening the chat reads the reply's appended text (written every 300 ms) from the database.
    const shown = await until('the streaming reply to be read back', async () => {
      const got = await client.get(`/api/threads/${thread.id}`)
      expect(got.status).toBe(200)
      const content = (got.body as { messages: { content: string }[] }).messages.at(-1)!.content
      return content.startsWith('Hello') && content
    }, 10_000)
    expect(shown).toStartWith('Hello \uFFFD there')
    fake.release()
    const events = await readSse(res)
    expect(events.at(-1)!.data).toEqual({ status: 'complete' })
  }, 30_000)

  test('Stop through another process stops the reply; every client following it gets the stopped end', async () => {
    const { client, thread } = await chatSetup()
    const res = await send(client, thread.id, '[[fake:tokens=2000]] [[fake:delay=10]] endless')
    const first = sseEvents(res.body!)[Symbol.asyncIterator]()
    const messageId = (await first.next()).value!.data.assistantMessageId as string
    const follower = readSse(await attach(two, client, thread.id, messageId))
    // Until the first text frame; a stream that ends before it fails the test instead of spinning.
    for (let e = await first.next(); e.value?.event !== 'text'; e = await first.next()) if (e.done) throw new Error('the stream ended before a text frame')
    expect((await stop(two, client, thread.id, messageId)).status).toBe(204)
    const rest: SseEvent[] = []
    for (let e = await first.next(); !e.done; e = await first.next()) rest.push(e.value)
    expect(rest.at(-1)).toEqual({ event: 'message_end', data: { status: 'stopped' } })
    const stopped = await reply(messageId)
    expect(stopped.status).toBe('stopped')
    expect(stopped.content.length).toBeLessThan(tokens(2000).length)
    await waitFor(async () => fake.requests.some((r) => r.outcome === 'disconnected'))
    const followed = await follower
    expect(followed.at(-1)).toEqual({ event: 'message_end', data: { status: 'stopped' } })
    expect(textOf(followed)).toBe(stopped.content)
    // Stopping a reply that has ended changes nothing.
    expect((await stop(one, client, thread.id, messageId)).status).toBe(204)
    expect((await reply(messageId)).status).toBe('stopped')
  }, 30_000)

  test('Stop through the process that runs it, with nobody reading the reply', async () => {
    const { client, thread } = await chatSetup()
    const { messageId } = await leaveMidway(client, thread.id, '[[fake:tokens=2000]] [[fake:delay=10]] endless', 2)
    expect((await stop(one, client, thread.id, messageId)).status).toBe(204)
    await waitFor(async () => (await reply(messageId)).status === 'stopped')
  })
})

test('deleting a chat, through another process, stops its reply', async () => {
  const { client, thread } = await chatSetup()
  const { messageId } = await leaveMidway(client, thread.id, '[[fake:tokens=2000]] [[fake:delay=10]] endless', 2)
  // Its text so far is appended under its number (decision 0116).
  await waitFor(async () => (await replyParts(one.deps.db, messageId)).length > 0)
  const n = (await replyNumber(one.deps.db, messageId))!
  expect((await two.client().request('DELETE', `/api/threads/${thread.id}`, undefined, { cookie: client.cookieHeader(), origin: BASE_URL })).status).toBe(204)
  await waitFor(async () => fake.requests.some((r) => r.outcome === 'disconnected'))
  // Its number and appended parts went with it, and the ticks after wrote none for it.
  expect(await one.deps.db.select().from(streamingReplies).where(eq(streamingReplies.messageId, messageId))).toEqual([])
  expect(await one.deps.db.select().from(replyChunks).where(eq(replyChunks.replyN, n))).toEqual([])
}, 30_000)

describe('attaching to a reply that has ended', () => {
  test('answers at once: what the client lacks and the end; a garbage or foreign Last-Event-ID gets the whole reply', async () => {
    const { client, thread } = await chatSetup()
    const events = await readSse(await send(client, thread.id, 'hello there'), { ids: true })
    const messageId = events[0]!.data.assistantMessageId as string
    const whole = await readSse(await attach(two, client, thread.id, messageId), { ids: true })
    // The chat's title comes before the end, also where it had it before the client attached.
    expect(whole.map((e) => e.event)).toEqual(['message_start', 'text', 'usage', 'title', 'message_end'])
    expect(textOf(whole)).toBe('You said: hello there')
    expect(whole.at(-1)!.id).toBe(events.at(-1)!.id)
    const atTheEnd = await readSse(await attach(one, client, thread.id, messageId, events.at(-1)!.id))
    expect(atTheEnd.map((e) => e.event)).toEqual(['message_start', 'usage', 'title', 'message_end'])
    const midway = await readSse(await attach(one, client, thread.id, messageId, '4.0.0'))
    expect(textOf(midway)).toBe('said: hello there')
    for (const garbage of ['nonsense', '999999.0.0', '1.2.3.4', '']) {
      const again = await readSse(await attach(one, client, thread.id, messageId, garbage))
      expect(textOf(again)).toBe('You said: hello there')
    }
    // `after` does what the header does, for clients that cannot set it.
    const res = await one.app.request(`/api/threads/${thread.id}/messages/${messageId}/stream?after=4.0.0`, { headers: { cookie: client.cookieHeader() } })
    expect(textOf(await readSse(res))).toBe('said: hello there')
  }, 30_000)

  test('a client that read the chat before its first reply titled it (a reload while the reply ended) gets the title, through either process', async () => {
    const { client, thread } = await chatSetup()
    const { messageId, lastEventId } = await leaveMidway(client, thread.id, '[[fake:tokens=300]] [[fake:delay=15]] [[fake:title=Three hundred tokens]] count', 2)
    // The page reads the chat while the reply streams: no title yet.
    expect((await client.get(`/api/threads/${thread.id}`)).body.title).toBeNull()
    // 300 tokens 15 ms apart take 4.5 s at best: room on a loaded machine.
    await waitFor(async () => (await reply(messageId)).status === 'complete', 20_000)
    for (const app of [one, two]) {
      const rest = await readSse(await attach(app, client, thread.id, messageId, lastEventId))
      expect(rest.slice(-2)).toEqual([
        { event: 'title', data: { title: 'Three hundred tokens' } },
        { event: 'message_end', data: { status: 'complete' } },
      ])
    }
  }, 30_000)

  test('a reply with tool calls is replayed in order: text, the call where it was made, its result, the text after', async () => {
    const { client, thread } = await chatSetup()
    const draft = JSON.stringify({ to: 'a@acme.test', subject: 'Hi', body: 'Hello' })
    const events = await readSse(await send(client, thread.id, `[[fake:text=Let me draft it.]] [[fake:tool=send_email:${draft}]] [[fake:after-tool=Done.]] mail`))
    const messageId = events[0]!.data.assistantMessageId as string
    const order = (list: SseEvent[]) => list.filter((e) => ['text', 'tool_call', 'tool_result', 'message_end'].includes(e.event)).map((e) => (e.event === 'text' ? e.data.delta : e.event))
    const replayed = await readSse(await attach(two, client, thread.id, messageId))
    expect(order(replayed)).toEqual(['Let me draft it.', 'tool_call', 'tool_result', 'Done.', 'message_end'])
    expect(replayed.find((e) => e.event === 'tool_result')!.data).toEqual(events.find((e) => e.event === 'tool_result')!.data)
    // From just after the call: its result and what followed.
    const after = await readSse(await attach(two, client, thread.id, messageId, `${'Let me draft it.'.length}.0.1`))
    expect(order(after)).toEqual(['tool_result', 'Done.', 'message_end'])
  }, 30_000)

  test('a failed reply ends with its error; one whose process died ends interrupted', async () => {
    const { client, thread } = await chatSetup()
    fake.script({ error: 500 }, { error: 500 }, { error: 500 })
    const failed = (await readSse(await send(client, thread.id, 'fail')))[0]!.data.assistantMessageId as string
    const events = await readSse(await attach(two, client, thread.id, failed))
    expect(events.slice(-2)).toEqual([
      { event: 'error', data: { code: 'PROVIDER_UNAVAILABLE', message: 'Error fetching response' } },
      { event: 'message_end', data: { status: 'failed' } },
    ])
    // A reply left streaming by a process that is gone.
    const gone = crypto.randomUUID()
    await one.deps.db.insert(messages).values({ id: gone, threadId: thread.id, seq: 10, role: 'assistant', content: 'Half a', status: 'streaming', leaseOwner: 'gone/1', leaseUntil: new Date(Date.now() - 1) })
    const interrupted = await readSse(await attach(two, client, thread.id, gone))
    expect(textOf(interrupted)).toBe('Half a')
    expect(interrupted.at(-1)).toEqual({ event: 'message_end', data: { status: 'interrupted' } })
  })
})

describe('who may attach and stop', () => {
  test("only the chat's owner: another organisation, the wrong chat and unknown replies get 404", async () => {
    const { client, thread } = await chatSetup()
    const events = await readSse(await send(client, thread.id, 'mine'))
    const messageId = events[0]!.data.assistantMessageId as string
    const userMessageId = events[0]!.data.userMessageId as string
    const other = (await chatSetup()).client
    const otherThread = (await client.post('/api/threads', {})).body.id as string
    for (const [who, threadId, id, code] of [
      [other, thread.id, messageId, 'THREAD_NOT_FOUND'],
      [client, otherThread, messageId, 'MESSAGE_NOT_FOUND'],
      [client, thread.id, crypto.randomUUID(), 'MESSAGE_NOT_FOUND'],
      [client, thread.id, userMessageId, 'MESSAGE_NOT_FOUND'],
    ] as const) {
      for (const res of [await attach(two, who, threadId, id), await stop(one, who, threadId, id)]) {
        expect(res.status).toBe(404)
        expect((await res.json()).code).toBe(code)
      }
    }
    const signedOut = await one.app.request(`/api/threads/${thread.id}/messages/${messageId}/stream`)
    expect(signedOut.status).toBe(401)
  })
})
