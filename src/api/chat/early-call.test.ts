/**
 * The model call starts as soon as its messages are known, while the reply's rows are written
 * (send.ts): proven by holding the write that begins the reply and seeing the provider asked
 * meanwhile. What the writes find decides: history that changed meanwhile (written through
 * another connection, as another tab's send would be) starts the call again with it; a reply
 * begun meanwhile refuses the send and ends the call.
 */
import { createClient as createDatabaseClient, type Client, type InStatement, type TransactionMode } from '@libsql/client'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { readSse } from '../../../tests/support/sse'
import { BASE_URL, createTestApp, enableOpenAiModels, registerOrg } from '../../../tests/support/test-app'
import { waitFor } from '../../../tests/support/wait-for'

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
let other: Client

/**
 * Armed, the next write that begins a reply (a send's batch, a regenerate's transaction) waits
 * until the test opens it; what the database does is unchanged.
 */
let gate: { opened: ReturnType<typeof Promise.withResolvers<void>>; reached: boolean } | null = null
const holdWrites = () => (gate = { opened: Promise.withResolvers<void>(), reached: false })
/** Told when a write that begins a reply starts. */
let onWrites: (() => void) | null = null
const beginsReply = (stmts: InStatement[]) => stmts.some((s) => /^insert into "?messages"? /i.test(typeof s === 'string' ? s : s.sql))
const held = async () => {
  const g = gate
  if (!g) return
  gate = null
  g.reached = true
  await g.opened.promise
}
const holding = (client: Client): Client =>
  new Proxy(client, {
    get(target, key) {
      if (key === 'batch')
        return async (stmts: InStatement[], mode?: TransactionMode) => (beginsReply(stmts) && (onWrites?.(), await held()), target.batch(stmts, mode))
      if (key === 'transaction') return async (mode?: TransactionMode) => (await held(), target.transaction(mode))
      const value = Reflect.get(target, key, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })

beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-early', OPENAI_BASE_URL: `${fake.url}/v1` }, client: holding })
  other = createDatabaseClient({ url: t.databaseUrl })
})
afterAll(async () => {
  other.close()
  await t.close()
  fake.close()
})
beforeEach(() => {
  fake.reset()
  gate = null
})

async function chatSetup() {
  const client = t.client()
  await registerOrg(client)
  await enableOpenAiModels(client, ['openai/gpt-4.1'])
  const thread = (await client.post('/api/threads', {})).body as { id: string }
  const send = (content: string) =>
    t.app.request(`/api/threads/${thread.id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader(), origin: BASE_URL },
      body: JSON.stringify({ content }),
    })
  return { client, thread, send }
}

/**
 * A chat with one exchange, and a regenerate of its reply (the provider answers as `script` says)
 * held at the write that begins it, its model call on its way.
 */
async function regenerateHeld(script: Parameters<FakeLlm['script']>[0]) {
  const { client, thread, send } = await chatSetup()
  await readSse(await send('Tell me something'))
  fake.reset()
  fake.script(script)
  const writes = holdWrites()
  const pending = t.app.request(`/api/threads/${thread.id}/regenerate`, { method: 'POST', headers: { cookie: client.cookieHeader(), origin: BASE_URL } })
  await waitFor(async () => writes.reached && streamedCalls().length === 1)
  return { client, thread, writes, pending }
}

/** The streamed chat calls the provider got (a new chat's title is asked for without streaming). */
const streamedCalls = () => fake.requests.filter((r) => r.body?.stream === true)
const contentsOf = (call: { body: { messages: Array<{ role: string; content: unknown }> } }) => call.body.messages.filter((m) => m.role !== 'system').map((m) => m.content)
const messageCount = async (threadId: string) => Number((await other.execute({ sql: 'SELECT count(*) AS n FROM messages WHERE thread_id = ?', args: [threadId] })).rows[0]!.n)
const textOf = (events: Array<{ event: string; data: unknown }>) => events.filter((e) => e.event === 'text').map((e) => (e.data as { delta: string }).delta).join('')
/** Another tab's (or process's) message, written straight to the database. */
const writeMessage = (threadId: string, seq: number, columns: { role: 'user' | 'assistant'; content: string; status: string; leaseUntil?: number }) => {
  const now = Date.now()
  return other.execute({
    sql: 'INSERT INTO messages (id, thread_id, seq, role, content, status, created_at, updated_at, shown_at, on_branch, lease_owner, lease_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)',
    args: [crypto.randomUUID(), threadId, seq, columns.role, columns.content, columns.status, now, now, now, columns.leaseUntil ? 'elsewhere:1/1' : null, columns.leaseUntil ?? null],
  })
}

describe('the model call starts while the reply is written', () => {
  test('a send: the provider is asked while the write that begins the reply waits; the reply follows once it is done', async () => {
    const { client, thread, send } = await chatSetup()
    fake.script({ text: 'Early and complete.' })
    const writes = holdWrites()
    const pending = send('Hello')
    await waitFor(async () => writes.reached && streamedCalls().length === 1)
    // The call went out while nothing of this send is written.
    expect(await messageCount(thread.id)).toBe(0)
    expect(contentsOf(streamedCalls()[0]!)).toEqual(['Hello'])
    writes.opened.resolve()

    const res = await pending
    expect(res.status).toBe(200)
    const events = await readSse(res)
    expect(textOf(events)).toBe('Early and complete.')
    expect(events.at(-1)).toMatchObject({ event: 'message_end', data: { status: 'complete' } })
    const stored = (await client.get(`/api/threads/${thread.id}`)).body.messages as Array<{ role: string; content: string; status: string }>
    expect(stored.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'Hello', 'complete'],
      ['assistant', 'Early and complete.', 'complete'],
    ])
    // The early call was the one used.
    expect(streamedCalls()).toHaveLength(1)
  }, 30_000)

  test("the call's request leaves before the writes begin (on a database file they run without a pause once begun)", async () => {
    const { thread, send } = await chatSetup()
    fake.script({ text: 'In order.' })
    const order: string[] = []
    const { fetch: realFetch } = globalThis
    globalThis.fetch = Object.assign((input: string | URL | Request, init?: RequestInit) => {
      if (String(input instanceof Request ? input.url : input).endsWith('/chat/completions')) order.push('request')
      return realFetch(input, init)
    }, realFetch)
    onWrites = () => order.push('writes')
    try {
      const res = await send('Hello')
      expect(res.status).toBe(200)
      await readSse(res)
    } finally {
      globalThis.fetch = realFetch
      onWrites = null
    }
    expect(order.slice(0, 2)).toEqual(['request', 'writes'])
    expect(await messageCount(thread.id)).toBe(2)
  }, 30_000)

  test('a regenerate: the provider is asked with the history before the reply it replaces, while that write waits', async () => {
    const { client, thread, writes, pending } = await regenerateHeld({ text: 'Something else.' })
    expect(contentsOf(streamedCalls()[0]!)).toEqual(['Tell me something'])
    expect(await messageCount(thread.id)).toBe(2)
    writes.opened.resolve()

    expect(textOf(await readSse(await pending))).toBe('Something else.')
    const stored = (await client.get(`/api/threads/${thread.id}`)).body.messages as Array<{ content: string }>
    expect(stored.map((m) => m.content)).toEqual(['Tell me something', 'Something else.'])
    expect(streamedCalls()).toHaveLength(1)
  }, 30_000)

  test('a message that arrived meanwhile (another tab) is in the history: the call starts again with it', async () => {
    const { client, thread, send } = await chatSetup()
    fake.script({ text: 'The first, cancelled.', hold: true }, { text: 'Answered with both.' })
    const writes = holdWrites()
    const pending = send('Second question')
    await waitFor(async () => writes.reached && streamedCalls().length === 1)
    await writeMessage(thread.id, 1, { role: 'user', content: 'First question', status: 'complete' })
    writes.opened.resolve()

    expect(textOf(await readSse(await pending))).toBe('Answered with both.')
    const [early, used] = streamedCalls()
    expect(contentsOf(early!)).toEqual(['Second question'])
    expect(contentsOf(used!)).toEqual(['First question', 'Second question'])
    // The first call was ended, not read on.
    await waitFor(async () => early!.outcome === 'disconnected')
    const stored = (await client.get(`/api/threads/${thread.id}`)).body.messages as Array<{ content: string }>
    expect(stored.map((m) => m.content)).toEqual(['First question', 'Second question', 'Answered with both.'])
    fake.release()
  }, 30_000)

  test('a reply begun meanwhile elsewhere: the send is refused and the call it started is ended', async () => {
    const { thread, send } = await chatSetup()
    fake.script({ text: 'Never shown.', hold: true })
    const writes = holdWrites()
    const pending = send('Hello')
    await waitFor(async () => writes.reached && streamedCalls().length === 1)
    // Another process began a reply in this chat; its lease is alive.
    await writeMessage(thread.id, 1, { role: 'assistant', content: '', status: 'streaming', leaseUntil: Date.now() + 60_000 })
    writes.opened.resolve()

    const res = await pending
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({ code: 'REPLY_IN_PROGRESS' })
    await waitFor(async () => streamedCalls()[0]!.outcome === 'disconnected')
    // Nothing of the refused send was kept.
    expect(await messageCount(thread.id)).toBe(1)
    fake.release()
  }, 30_000)

  test('a reply begun meanwhile elsewhere: a regenerate is refused, and the reply it would replace stays on the branch', async () => {
    const { thread, writes, pending } = await regenerateHeld({ text: 'Never shown.', hold: true })
    // After the regenerate read the chat, another process began a reply in it.
    await writeMessage(thread.id, 3, { role: 'assistant', content: '', status: 'streaming', leaseUntil: Date.now() + 60_000 })
    writes.opened.resolve()

    const res = await pending
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({ code: 'REPLY_IN_PROGRESS' })
    await waitFor(async () => streamedCalls()[0]!.outcome === 'disconnected')
    const rows = await other.execute({ sql: 'SELECT seq, status, on_branch FROM messages WHERE thread_id = ? ORDER BY seq', args: [thread.id] })
    expect(rows.rows.map((r) => [r.seq, r.status, r.on_branch])).toEqual([
      [1, 'complete', 1],
      [2, 'complete', 1],
      [3, 'streaming', 1],
    ])
    fake.release()
  }, 30_000)

  test('a message sent meanwhile elsewhere: the regenerate reads the chat again and refuses, as there is no reply to replace', async () => {
    const { thread, writes, pending } = await regenerateHeld({ text: 'Never shown.', hold: true })
    await writeMessage(thread.id, 3, { role: 'user', content: 'Another question', status: 'complete' })
    writes.opened.resolve()

    const res = await pending
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({ code: 'NOTHING_TO_REGENERATE' })
    expect(await messageCount(thread.id)).toBe(3)
    fake.release()
  }, 30_000)
})
