/**
 * A long chat opens with its newest messages (`GET /threads/{id}?last=n`) and the ones before are
 * read a page at a time (`GET /threads/{id}/messages?before=cursor`); without `last` the whole
 * chat comes as before.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { messages } from '../../../db/schema'
import { createTestApp, registerOrg, type TestClient } from '../../../tests/support/test-app'

type Message = { id: string; content: string; role: string }
type Detail = { messages: Message[]; olderCursor: number | null }

let t: Awaited<ReturnType<typeof createTestApp>>
let owner: TestClient
let threadId: string
const COUNT = 125

beforeAll(async () => {
  // A model to start the chat with; nothing here asks it anything.
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-pages', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } })
  owner = t.client()
  await registerOrg(owner)
  await owner.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
  await owner.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
  threadId = ((await owner.post('/api/threads', {})).body as { id: string }).id
  const at = Date.now() - COUNT * 1000
  await t.deps.db.insert(messages).values(
    Array.from({ length: COUNT }, (_, i) => ({
      id: crypto.randomUUID(),
      threadId,
      seq: i + 1,
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `Message ${i + 1}`,
      status: 'complete' as const,
      createdAt: new Date(at + i * 1000),
      updatedAt: new Date(at + i * 1000),
    })),
  )
})
afterAll(() => t.close())

const contents = (list: Message[]) => list.map((m) => m.content)
const numbered = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `Message ${from + i}`)

describe('pages of a long chat', () => {
  test('without `last` the chat comes whole, with no cursor', async () => {
    const res = await owner.get(`/api/threads/${threadId}`)
    expect(res.status).toBe(200)
    const body = res.body as Detail
    expect(contents(body.messages)).toEqual(numbered(1, COUNT))
    expect(body.olderCursor).toBeNull()
  })

  test('the newest page first, then the pages before it, oldest first, until there is none', async () => {
    const first = (await owner.get(`/api/threads/${threadId}?last=50`)).body as Detail
    expect(contents(first.messages)).toEqual(numbered(76, 125))
    expect(first.olderCursor).not.toBeNull()

    const second = (await owner.get(`/api/threads/${threadId}/messages?before=${first.olderCursor}&limit=50`)).body as Detail
    expect(contents(second.messages)).toEqual(numbered(26, 75))
    expect(second.olderCursor).not.toBeNull()

    const last = (await owner.get(`/api/threads/${threadId}/messages?before=${second.olderCursor}&limit=50`)).body as Detail
    expect(contents(last.messages)).toEqual(numbered(1, 25))
    expect(last.olderCursor).toBeNull()
  })

  test('a page that holds the whole chat has no cursor', async () => {
    const body = (await owner.get(`/api/threads/${threadId}?last=${COUNT}`)).body as Detail
    expect(body.messages).toHaveLength(COUNT)
    expect(body.olderCursor).toBeNull()
    const before = (await owner.get(`/api/threads/${threadId}/messages?before=1`)).body as Detail
    expect(before).toEqual({ messages: [], olderCursor: null })
  })

  test('`through` reaches back to a message (a search result) so that the page holds it; older pages go on from there', async () => {
    const whole = (await owner.get(`/api/threads/${threadId}`)).body as Detail
    // The 40th message, with the 20 before it.
    const fortieth = whole.messages[39]!.id
    const page = (await owner.get(`/api/threads/${threadId}?last=50&through=${fortieth}`)).body as Detail
    expect(contents(page.messages)).toEqual(numbered(20, COUNT))
    const rest = (await owner.get(`/api/threads/${threadId}/messages?before=${page.olderCursor}`)).body as Detail
    expect(contents(rest.messages)).toEqual(numbered(1, 19))
    // Near the start, the page holds the whole chat.
    const tenth = whole.messages[9]!.id
    const start = (await owner.get(`/api/threads/${threadId}?last=50&through=${tenth}`)).body as Detail
    expect(contents(start.messages)).toEqual(numbered(1, COUNT))
    expect(start.olderCursor).toBeNull()
    // A message within the newest page changes nothing; one that is not in this chat is ignored.
    const recent = whole.messages[COUNT - 3]!.id
    expect(contents(((await owner.get(`/api/threads/${threadId}?last=50&through=${recent}`)).body as Detail).messages)).toEqual(numbered(76, COUNT))
    const otherChat = ((await owner.post('/api/threads', {})).body as { id: string }).id
    for (const query of [`?last=50&through=${crypto.randomUUID()}`, `?last=50&through=x'%20OR%201=1`]) {
      const res = await owner.get(`/api/threads/${threadId}${query}`)
      expect(res.status).toBe(200)
      expect(contents((res.body as Detail).messages)).toEqual(numbered(76, COUNT))
    }
    expect(((await owner.get(`/api/threads/${otherChat}?last=50&through=${tenth}`)).body as Detail).messages).toEqual([])
    // Without `last` the whole chat comes, as always.
    expect(((await owner.get(`/api/threads/${threadId}?through=${tenth}`)).body as Detail).messages).toHaveLength(COUNT)
  })

  test('bad page parameters are refused with VALIDATION_FAILED, never a 500', async () => {
    for (const query of ['?last=0', '?last=501', '?last=abc', '?last=1.5', '?last=5&through=', `?last=5&through=${'x'.repeat(65)}`]) {
      const res = await owner.get(`/api/threads/${threadId}${query}`)
      expect(res.status, query).toBe(400)
      expect((res.body as { code: string }).code).toBe('VALIDATION_FAILED')
    }
    for (const query of ['', '?before=-1', '?before=x', '?before=10&limit=0', '?before=10&limit=9999', '?before=1e400']) {
      const res = await owner.get(`/api/threads/${threadId}/messages${query}`)
      expect(res.status, query).toBe(400)
      expect((res.body as { code: string }).code).toBe('VALIDATION_FAILED')
    }
  })

  test("another organisation's admin finds neither the chat nor its pages", async () => {
    const other = t.client()
    await registerOrg(other)
    expect((await other.get(`/api/threads/${threadId}?last=10`)).status).toBe(404)
    expect((await other.get(`/api/threads/${threadId}/messages?before=100`)).status).toBe(404)
  })
})
