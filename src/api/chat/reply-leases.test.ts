/**
 * Reply leases: a streaming reply belongs to the process writing it for as long as its lease in the
 * database holds. A reply whose process is gone is ended `interrupted` (its text kept) by whoever
 * finds it: reading the thread, sending, regenerating, editing, or a start (tests/security/crash-recovery.test.ts
 * kills a real server process). Replies of a live process are left alone.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { messages, replyChunks, streamingReplies } from '../../../db/schema'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { replyNumber, replyParts } from '../../../tests/support/reply-parts'
import { readSse, sseEvents } from '../../../tests/support/sse'
import { BASE_URL, createTestApp, registerOrg, type TestClient } from '../../../tests/support/test-app'
import type { Instance } from '../../lib/context'
import { indexAllWaiting } from '../search/index-later'
import { appendedText, endAbandonedReplies, REPLY_LEASE_MS } from '../threads/access'

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
let ownInstance: Instance
beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-leases', OPENAI_BASE_URL: `${fake.url}/v1` } })
  ownInstance = t.deps.instance
})
afterAll(async () => {
  await t.close()
  fake.close()
})
beforeEach(() => {
  fake.reset()
  t.deps.instance = ownInstance
})

async function chatSetup() {
  const client = t.client()
  await registerOrg(client)
  await client.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
  await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
  const thread = (await client.post('/api/threads', {})).body as { id: string }
  return { client, thread }
}

const post = (client: TestClient, path: string, body?: unknown) =>
  t.app.request(path, {
    method: 'POST',
    headers: { ...(body !== undefined && { 'content-type': 'application/json' }), cookie: client.cookieHeader(), origin: BASE_URL },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

/** A question and a reply left `streaming` with the given lease, as a process leaves it when it dies mid-reply. */
async function leftStreaming(threadId: string, lease: { owner: string | null; until: number | null }) {
  const now = Date.now()
  const replyId = crypto.randomUUID()
  await t.deps.db.insert(messages).values([
    { id: crypto.randomUUID(), threadId, seq: 1, role: 'user', content: 'Tell me a long story', status: 'complete', createdAt: new Date(now), updatedAt: new Date(now) },
    {
      id: replyId,
      threadId,
      seq: 2,
      role: 'assistant',
      content: 'Once',
      status: 'streaming',
      model: 'openai/gpt-4.1',
      createdAt: new Date(now),
      updatedAt: new Date(now),
      leaseOwner: lease.owner,
      leaseUntil: lease.until === null ? null : new Date(lease.until),
    },
  ])
  // The rest of its text as the writer appends it, under the number the reply got as it began
  // streaming (inserted out of order: their seq orders them).
  const replyN = await numberOf(replyId)
  await t.deps.db.insert(replyChunks).values([
    { replyN, seq: 2, content: ' a time' },
    { replyN, seq: 1, content: ' upon' },
  ])
  return replyId
}

const numberOf = async (id: string) => (await replyNumber(t.deps.db, id)) as number
/**
 * An ended reply's number: marked ended until the ended replies' parts go together (shortly after
 * its end, so possibly gone already), then gone with its parts (decision 0137).
 */
async function partsGone(n: number) {
  expect((await t.deps.db.select().from(streamingReplies).where(eq(streamingReplies.n, n))).map((r) => r.ended)).not.toContain(false)
  await indexAllWaiting(t.deps)
  expect(await t.deps.db.select().from(replyChunks).where(eq(replyChunks.replyN, n))).toEqual([])
  expect(await t.deps.db.select().from(streamingReplies).where(eq(streamingReplies.n, n))).toEqual([])
}
const partsOf = (id: string) => replyParts(t.deps.db, id)

const reply = async (id: string) => (await t.deps.db.query.messages.findFirst({ where: eq(messages.id, id) }))!
const statuses = async (client: TestClient, threadId: string) =>
  ((await client.get(`/api/threads/${threadId}`)).body.messages as { role: string; status: string }[]).map((m) => `${m.role}:${m.status}`)

describe('a reply whose process is gone', () => {
  test('is shown interrupted with its text when the thread is read, and a send goes through at once', async () => {
    const { client, thread } = await chatSetup()
    const id = await leftStreaming(thread.id, { owner: 'gone-host:3000/earlier', until: Date.now() - 1 })
    const n = await numberOf(id)
    const detail = (await client.get(`/api/threads/${thread.id}`)).body
    expect(detail.messages[1]).toMatchObject({ id, status: 'interrupted', content: 'Once upon a time', errorCode: null })
    expect((await reply(id)).status).toBe('interrupted')
    // Its appended parts were folded into its text; its number is ended (no read joins them any
    // more), and both go with the next ended replies' (decision 0137).
    expect(await numberOf(id)).toBeUndefined()
    await partsGone(n)

    const res = await post(client, `/api/threads/${thread.id}/messages`, { content: 'Go on' })
    expect(res.status).toBe(200)
    expect((await readSse(res)).at(-1)!.data).toEqual({ status: 'complete' })
    expect(await statuses(client, thread.id)).toEqual(['user:complete', 'assistant:interrupted', 'user:complete', 'assistant:complete'])
    // The partial reply is part of the history the model sees next.
    const sent = (fake.requests.find((r) => r.path.endsWith('/chat/completions'))!.body as { messages: { role: string; content: string }[] }).messages
    expect(sent.slice(1).map((m) => m.content)).toEqual(['Tell me a long story', 'Once upon a time', 'Go on'])
  })

  test('is ended by a send that finds it, without reading the thread first', async () => {
    const { client, thread } = await chatSetup()
    const id = await leftStreaming(thread.id, { owner: 'gone-host:3000/earlier', until: Date.now() - 1 })
    const res = await post(client, `/api/threads/${thread.id}/messages`, { content: 'Hello?' })
    expect(res.status).toBe(200)
    await readSse(res)
    expect(await reply(id)).toMatchObject({ status: 'interrupted', content: 'Once upon a time' })
  })

  test('can be retried: regenerate replaces it with a new reply', async () => {
    const { client, thread } = await chatSetup()
    const id = await leftStreaming(thread.id, { owner: 'gone-host:3000/earlier', until: Date.now() - 1 })
    const res = await post(client, `/api/threads/${thread.id}/regenerate`)
    expect(res.status).toBe(200)
    const events = await readSse(res)
    expect(events.at(-1)!.data).toEqual({ status: 'complete' })
    const detail = (await client.get(`/api/threads/${thread.id}`)).body
    expect(detail.messages.map((m: { status: string }) => m.status)).toEqual(['complete', 'complete'])
    expect(detail.messages[1].id).not.toBe(id)
    expect(detail.messages[1].content).toBe('You said: Tell me a long story')
  })

  test('can be edited and resent', async () => {
    const { client, thread } = await chatSetup()
    await leftStreaming(thread.id, { owner: 'gone-host:3000/earlier', until: Date.now() - 1 })
    const res = await post(client, `/api/threads/${thread.id}/messages`, { content: 'A short one, please', replaceLast: true })
    expect(res.status).toBe(200)
    await readSse(res)
    const detail = (await client.get(`/api/threads/${thread.id}`)).body
    expect(detail.messages.map((m: { content: string; status: string }) => [m.content, m.status])).toEqual([
      ['A short one, please', 'complete'],
      ['You said: A short one, please', 'complete'],
    ])
  })

  test('written before leases existed, counts from its last write', async () => {
    const { client, thread } = await chatSetup()
    const id = await leftStreaming(thread.id, { owner: null, until: null })
    await t.deps.db.update(messages).set({ updatedAt: new Date(Date.now() - REPLY_LEASE_MS - 1000) }).where(eq(messages.id, id))
    expect(await statuses(client, thread.id)).toEqual(['user:complete', 'assistant:interrupted'])
  })
})

describe('a reply of a live process', () => {
  test('is left streaming and keeps the thread busy until its lease runs out', async () => {
    const { client, thread } = await chatSetup()
    const id = await leftStreaming(thread.id, { owner: 'other-host:3000/running', until: Date.now() + REPLY_LEASE_MS })
    expect(await statuses(client, thread.id)).toEqual(['user:complete', 'assistant:streaming'])
    for (const [path, body] of [
      [`/api/threads/${thread.id}/messages`, { content: 'me too' }],
      [`/api/threads/${thread.id}/messages`, { content: 'edited', replaceLast: true }],
      [`/api/threads/${thread.id}/regenerate`, undefined],
    ] as const) {
      const res = await post(client, path, body)
      expect(res.status).toBe(409)
      expect((await res.json()).code).toBe('REPLY_IN_PROGRESS')
    }
    expect(await endAbandonedReplies(t.deps, thread.id)).toEqual([])
    expect((await reply(id)).status).toBe('streaming')

    // The other process stops renewing it (it died): the next send ends it and goes through.
    await t.deps.db.update(messages).set({ leaseUntil: new Date(Date.now() - 1) }).where(eq(messages.id, id))
    const res = await post(client, `/api/threads/${thread.id}/messages`, { content: 'me too' })
    expect(res.status).toBe(200)
    await readSse(res)
    expect(await statuses(client, thread.id)).toEqual(['user:complete', 'assistant:interrupted', 'user:complete', 'assistant:complete'])
  })

  test("a start ends at once the replies of its slot's earlier starts, and only those", async () => {
    const { thread } = await chatSetup()
    const second = (await chatSetup()).thread
    const third = (await chatSetup()).thread
    const until = Date.now() + REPLY_LEASE_MS
    const before = await leftStreaming(thread.id, { owner: 'kontor-1:3000/before-the-crash', until })
    const otherPort = await leftStreaming(second.id, { owner: 'kontor-1:30001/running', until })
    const otherHost = await leftStreaming(third.id, { owner: 'kontor-2:3000/running', until })
    // This process now serves on kontor-1:3000: whatever held that slot before is gone.
    t.deps.instance = { owner: 'kontor-1:3000/after-the-restart', slot: 'kontor-1:3000' }
    expect((await endAbandonedReplies(t.deps)).map((m) => m.id)).toContain(before)
    expect((await reply(before)).status).toBe('interrupted')
    expect((await reply(otherPort)).status).toBe('streaming')
    expect((await reply(otherHost)).status).toBe('streaming')
    // Its own replies are live, of course.
    const own = (await chatSetup()).thread
    const mine = await leftStreaming(own.id, { owner: 'kontor-1:3000/after-the-restart', until })
    await endAbandonedReplies(t.deps)
    expect((await reply(mine)).status).toBe('streaming')
    await t.deps.db.delete(messages).where(eq(messages.id, mine))
    await t.deps.db.delete(messages).where(eq(messages.id, otherPort))
    await t.deps.db.delete(messages).where(eq(messages.id, otherHost))
  })

  test("a send or a regenerate ends, in its own batch, the replies its slot's earlier starts left streaming, and no others", async () => {
    t.deps.instance = { owner: 'kontor-1:3000/after-the-restart', slot: 'kontor-1:3000' }
    const until = Date.now() + REPLY_LEASE_MS
    // The chats are not read first: reading one would end such a reply before the batch does.
    const a = await chatSetup()
    const before = await leftStreaming(a.thread.id, { owner: 'kontor-1:3000/before-the-crash', until })
    const sent = await post(a.client, `/api/threads/${a.thread.id}/messages`, { content: 'go on' })
    expect(sent.status).toBe(200)
    await readSse(sent)
    expect(await reply(before)).toMatchObject({ status: 'interrupted', content: 'Once upon a time' })

    const b = await chatSetup()
    const left = await leftStreaming(b.thread.id, { owner: 'kontor-1:3000/before-the-crash', until })
    const regenerated = await post(b.client, `/api/threads/${b.thread.id}/regenerate`)
    expect(regenerated.status).toBe(200)
    await readSse(regenerated)
    expect(await reply(left)).toMatchObject({ status: 'interrupted', onBranch: false })
    expect(await statuses(b.client, b.thread.id)).toEqual(['user:complete', 'assistant:complete'])

    // Another slot's reply, its lease running, is that process's: the send is refused and the reply left alone.
    const c = await chatSetup()
    const other = await leftStreaming(c.thread.id, { owner: 'kontor-2:3000/running', until })
    const refused = await post(c.client, `/api/threads/${c.thread.id}/messages`, { content: 'me too' })
    expect(refused.status).toBe(409)
    expect((await refused.json()).code).toBe('REPLY_IN_PROGRESS')
    expect((await reply(other)).status).toBe('streaming')
    await t.deps.db.delete(messages).where(eq(messages.id, other))
  })

  test('renews its lease while it streams, under this process as owner; its text is appended as it goes', async () => {
    const { client, thread } = await chatSetup()
    // Longer than one heartbeat (10 s).
    const res = await post(client, `/api/threads/${thread.id}/messages`, { content: '[[fake:tokens=400]] [[fake:delay=40]] renew' })
    const events = sseEvents(res.body!)[Symbol.asyncIterator]()
    const start = (await events.next()).value!
    const id = start.data.assistantMessageId as string
    const first = await reply(id)
    expect(first).toMatchObject({ status: 'streaming', leaseOwner: t.deps.instance.owner })
    expect(first.leaseUntil!.getTime()).toBeGreaterThan(Date.now())
    // The text so far is appended, not written into the message's row.
    let parts: Awaited<ReturnType<typeof partsOf>> = []
    while (parts.length < 2) {
      await Bun.sleep(50)
      parts = await partsOf(id)
    }
    const n = await numberOf(id)
    expect(parts.map((p) => p.seq)).toEqual(parts.map((_, i) => i + 1))
    expect(parts.map((p) => p.content).join('')).toStartWith('t0 t1')
    expect((await reply(id)).content).toBe('')
    expect((await client.get(`/api/threads/${thread.id}`)).body.messages[1].content).toStartWith(parts.map((p) => p.content).join(''))
    let later = first
    while (later.leaseUntil!.getTime() <= first.leaseUntil!.getTime()) {
      await Bun.sleep(100)
      later = await reply(id)
    }
    expect(later.status).toBe('streaming')
    while (!(await events.next()).done) {}
    const done = await reply(id)
    expect(done).toMatchObject({ status: 'complete', content: Array.from({ length: 400 }, (_, i) => `t${i}`).join(' ') })
    expect(await numberOf(id)).toBeUndefined()
    await partsGone(n)
  }, 40_000)
})

test("the statements that look for streaming replies carry 'streaming' in their text, not as a bound value (SQLite would prepare them anew at every run: decision 0099)", () => {
  t.deps.instance = { ...ownInstance, slot: 'host:3000' }
  for (const statement of [endAbandonedReplies(t.deps, 'thread-1'), endAbandonedReplies(t.deps), appendedText(t.deps, 'thread-1')]) {
    const { sql, params } = statement.toSQL()
    expect(sql).toContain(`"status" = 'streaming'`)
    expect(params).not.toContain('streaming')
  }
})
