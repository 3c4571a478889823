import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { messages } from '../../../db/schema'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { readSse, sseEvents } from '../../../tests/support/sse'
import { BASE_URL, createTestApp, PASSWORD, registerOrg, type TestClient } from '../../../tests/support/test-app'
import { waitFor } from '../../../tests/support/wait-for'
import { MAX_PINNED_THREADS, titleFromMessage } from './limits'

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-organise', OPENAI_BASE_URL: `${fake.url}/v1` } })
})
afterAll(async () => {
  await t.close()
  fake.close()
})
beforeEach(() => fake.reset())

/** A signed-in admin of a new organisation with one permitted model. */
async function owner() {
  const client = t.client()
  await registerOrg(client)
  await client.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
  await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
  return client
}
const newThread = async (c: TestClient) => (await c.post('/api/threads', {})).body.id as string

/** The owner of the chats, a colleague in the same organisation, and a stranger of another (signing up is slow: once). */
let client: TestClient
let colleague: TestClient
let stranger: TestClient
beforeAll(async () => {
  client = await owner()
  const invite = await client.post('/api/invites', { email: `c-${crypto.randomUUID().slice(0, 6)}@acme.test`, role: 'admin' })
  colleague = t.client()
  await colleague.post('/api/invites/accept', { token: new URL(invite.body.acceptUrl).searchParams.get('token'), name: 'C', password: PASSWORD, passwordConfirmation: PASSWORD })
  stranger = await owner()
}, 30_000)

const ids = (res: { body: { threads: { id: string }[] } }) => res.body.threads.map((x) => x.id)

function send(client: TestClient, threadId: string, content: string) {
  return t.app.request(`/api/threads/${threadId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: client.cookieHeader(), origin: BASE_URL },
    body: JSON.stringify({ content }),
  })
}

describe('renaming a chat', () => {
  test('the new title is stored on one line and shown in the chat and the list', async () => {
    const id = await newThread(client)
    const res = await client.patch(`/api/threads/${id}`, { title: '  Quarterly\n  report   2026 ' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id, title: 'Quarterly report 2026', pinnedAt: null })
    expect((await client.get(`/api/threads/${id}`)).body.title).toBe('Quarterly report 2026')
    expect((await client.get('/api/threads')).body.threads[0].title).toBe('Quarterly report 2026')
    const longest = 'x'.repeat(200)
    expect((await client.patch(`/api/threads/${id}`, { title: longest })).body.title).toBe(longest)
  })

  test('an empty, blank or too long title, or no change at all, is refused with the field named; nothing changes', async () => {
    const id = await newThread(client)
    await client.patch(`/api/threads/${id}`, { title: 'Kept' })
    for (const [body, field, message] of [
      [{ title: '' }, 'title', 'Title is required'],
      [{ title: ' \n\t ' }, 'title', 'Title is required'],
      [{ title: 'x'.repeat(201) }, 'title', 'Title must be at most 200 characters'],
      [{ title: 'x'.repeat(5000) }, 'title', 'Title must be at most 200 characters'],
      [{ title: 42 }, 'title', expect.any(String)],
      [{ pinned: 'yes' }, 'pinned', expect.any(String)],
      [{}, '_', 'Give a title or pinned'],
    ] as const) {
      const res = await client.patch(`/api/threads/${id}`, body)
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'VALIDATION_FAILED' })
      expect(res.body.fields[field]).toEqual(message)
    }
    expect((await client.get(`/api/threads/${id}`)).body.title).toBe('Kept')
  })

  test("a colleague's or another organisation's chat cannot be renamed or pinned: 404, nothing changes", async () => {
    const id = await newThread(client)
    for (const other of [colleague, stranger]) {
      const res = await other.patch(`/api/threads/${id}`, { title: 'Mine now', pinned: true })
      expect(res.status).toBe(404)
      expect(res.body).toMatchObject({ code: 'THREAD_NOT_FOUND', status: 404 })
    }
    expect((await client.get(`/api/threads/${id}`)).body).toMatchObject({ title: null, pinnedAt: null })
    expect((await client.patch('/api/threads/no-such-chat', { title: 'X' })).status).toBe(404)
  })
})

describe('pinning chats', () => {
  test('pinned chats lead the first page, last pinned first; the pages go on through the others', async () => {
    // A user of their own: the list holds these chats only.
    const client = await owner()
    const [a, b, c, d] = [await newThread(client), await newThread(client), await newThread(client), await newThread(client)]
    expect(ids(await client.get('/api/threads'))).toEqual([d, c, b, a])

    const pinned = await client.patch(`/api/threads/${a}`, { pinned: true })
    expect(pinned.status).toBe(200)
    expect(Date.parse(pinned.body.pinnedAt)).toBeGreaterThan(0)
    await client.patch(`/api/threads/${b}`, { pinned: true })
    expect(ids(await client.get('/api/threads'))).toEqual([b, a, d, c])

    // Pinning again keeps the pin's time (and so its place).
    expect((await client.patch(`/api/threads/${a}`, { pinned: true })).body.pinnedAt).toBe(pinned.body.pinnedAt)

    const first = await client.get('/api/threads?limit=1')
    expect(ids(first)).toEqual([b, a, d])
    const second = await client.get(`/api/threads?limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`)
    expect(ids(second)).toEqual([c])
    expect(second.body.nextCursor).toBeNull()

    const unpinned = await client.patch(`/api/threads/${b}`, { pinned: false })
    expect(unpinned.body.pinnedAt).toBeNull()
    expect(ids(await client.get('/api/threads'))).toEqual([a, d, c, b])
  }, 15_000)

  test(`at most ${MAX_PINNED_THREADS} chats can be pinned`, async () => {
    const client = await owner()
    for (let i = 0; i < MAX_PINNED_THREADS; i++) expect((await client.patch(`/api/threads/${await newThread(client)}`, { pinned: true })).status).toBe(200)
    const extra = await newThread(client)
    const refused = await client.patch(`/api/threads/${extra}`, { pinned: true, title: 'Not this one' })
    expect(refused.status).toBe(409)
    expect(refused.body.code).toBe('TOO_MANY_PINNED')
    expect((await client.get(`/api/threads/${extra}`)).body).toMatchObject({ title: null, pinnedAt: null })
    // Renaming a chat is not pinning it.
    expect((await client.patch(`/api/threads/${extra}`, { title: 'Fine' })).status).toBe(200)
  }, 30_000)
})

describe('deleting several chats', () => {
  test("the caller's chats go at once; with one that is not theirs, none goes", async () => {
    const client = await owner()
    const [a, b, c] = [await newThread(client), await newThread(client), await newThread(client)]
    const theirs = await newThread(colleague)
    const foreign = await newThread(stranger)

    for (const other of [theirs, foreign, 'no-such-chat']) {
      const res = await client.request('DELETE', '/api/threads', { ids: [a, other] })
      expect(res.status).toBe(404)
      expect(res.body.code).toBe('THREAD_NOT_FOUND')
    }
    expect((await colleague.request('DELETE', '/api/threads', { ids: [a] })).status).toBe(404)
    expect((await stranger.request('DELETE', '/api/threads', { ids: [a] })).status).toBe(404)
    expect(ids(await client.get('/api/threads')).sort()).toEqual([a, b, c].sort())

    expect((await client.request('DELETE', '/api/threads', { ids: [a, b, a] })).status).toBe(204)
    expect(ids(await client.get('/api/threads'))).toEqual([c])
    expect((await client.get(`/api/threads/${a}`)).status).toBe(404)
    expect(ids(await colleague.get('/api/threads'))).toContain(theirs)
  }, 15_000)

  test('no chats, too many, or no body at all is refused', async () => {
    for (const body of [{ ids: [] }, { ids: Array.from({ length: 101 }, (_, i) => `t${i}`) }, { ids: [''] }, {}]) {
      const res = await client.request('DELETE', '/api/threads', body)
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
    }
  })
})

describe('titles of first replies', () => {
  test('a first reply that is stopped still titles the chat, from the user message', async () => {
    const id = await newThread(client)
    const message = '[[fake:tokens=400]] [[fake:delay=20]] Plan   the offsite\nfor the sales team in the spring please'
    const res = await send(client, id, message)
    let texts = 0
    let messageId = ''
    for await (const e of sseEvents(res.body!)) {
      if (e.event === 'message_start') messageId = e.data.assistantMessageId
      if (e.event === 'text' && ++texts === 3) break
    }
    expect((await client.post(`/api/threads/${id}/messages/${messageId}/stop`)).status).toBe(204)
    await waitFor(async () => (await t.deps.db.query.messages.findFirst({ where: eq(messages.threadId, id), orderBy: (m, { desc }) => desc(m.seq) }))!.status === 'stopped')
    await waitFor(async () => (await client.get(`/api/threads/${id}`)).body.title !== null)
    const title = (await client.get(`/api/threads/${id}`)).body.title
    expect(title).toBe(titleFromMessage(message))
    expect(title).toBe('[[fake:tokens=400]] [[fake:delay=20]] Plan the of…')
    // No model was asked for a title after the stop.
    expect(fake.requests.filter((r) => r.path.endsWith('/chat/completions') && !r.body?.stream)).toHaveLength(0)
  })

  test('a chat renamed while its first reply is written keeps the name the user gave it', async () => {
    const id = await newThread(client)
    const res = await send(client, id, '[[fake:tokens=40]] [[fake:delay=20]] hello')
    const events = sseEvents(res.body!)
    const seen: string[] = []
    for await (const e of events) {
      seen.push(e.event)
      if (e.event === 'text' && seen.filter((n) => n === 'text').length === 2) expect((await client.patch(`/api/threads/${id}`, { title: 'My name' })).status).toBe(200)
    }
    expect(seen.at(-1)).toBe('message_end')
    expect(seen).not.toContain('title')
    expect((await client.get(`/api/threads/${id}`)).body.title).toBe('My name')
  })
})

test('the new routes are in the OpenAPI document', async () => {
  const doc = (await t.client().get('/api/docs')).body
  expect(Object.keys(doc.paths['/api/threads/{id}'])).toContain('patch')
  expect(Object.keys(doc.paths['/api/threads'])).toContain('delete')
})
