/**
 * Search over the caller's own chats (`GET /api/search?q=`): ranked, with the matching passage as
 * parts, never anyone else's chats, and an index that follows every change of titles and messages.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { createClient } from '@libsql/client'
import { and, eq } from 'drizzle-orm'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { migrateDatabase } from '../../../db/migrate'
import { messages, replyChunks, streamingReplies } from '../../../db/schema'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { replyNumber, replyParts } from '../../../tests/support/reply-parts'
import { readSse } from '../../../tests/support/sse'
import { BASE_URL, createTestApp, enableOpenAiModels, joinAsMember, registerOrg, type TestClient } from '../../../tests/support/test-app'
import { migrationsCopy } from '../../../tests/support/test-db'
import { until } from '../../../tests/support/wait-for'
import { INDEX_TOGETHER, indexAllWaiting, indexingScheduled, indexLater, indexWaiting, PARTS_TOGETHER } from './index-later'
import type { SearchResult } from './schema'

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-search', OPENAI_BASE_URL: `${fake.url}/v1` } })
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
  await enableOpenAiModels(client, ['openai/gpt-4.1'])
  return client
}
const newThread = async (c: TestClient) => (await c.post('/api/threads', {})).body.id as string

/** Sends a message and reads the reply to its end. */
async function send(client: TestClient, threadId: string, content: string, extra: Record<string, unknown> = {}) {
  const res = await t.app.request(`/api/threads/${threadId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: client.cookieHeader(), origin: BASE_URL },
    body: JSON.stringify({ content, ...extra }),
  })
  expect(res.status).toBe(200)
  await readSse(res)
}

/** A chat with the given messages (user and reply in turn) written straight to the database. */
async function chatWith(client: TestClient, contents: string[]) {
  const threadId = await newThread(client)
  const at = Date.now()
  await t.deps.db.insert(messages).values(
    contents.map((content, i) => ({
      id: crypto.randomUUID(),
      threadId,
      seq: i + 1,
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content,
      status: 'complete' as const,
      createdAt: new Date(at + i),
      updatedAt: new Date(at + i),
    })),
  )
  return threadId
}

const search = (client: TestClient, q: string, extra = '') => client.get(`/api/search?q=${encodeURIComponent(q)}${extra}`)
const found = async (client: TestClient, q: string) => {
  const res = await search(client, q)
  expect(res.status).toBe(200)
  return res.body.results as SearchResult[]
}
const textOf = (r: SearchResult) => r.snippet.map((p) => p.text).join('')
const marked = (r: SearchResult) => r.snippet.filter((p) => p.match).map((p) => p.text.toLowerCase())

/** FTS5's own check of the index against the chats and messages it was built from. */
async function indexIsConsistent() {
  await t.deps.db.$client.execute("INSERT INTO chat_search (chat_search, rank) VALUES ('integrity-check', 1)")
  return true
}

/** The owner of the chats, a colleague in the same organisation, and a stranger of another (signing up is slow: once). */
let client: TestClient
let colleague: TestClient
let stranger: TestClient
beforeAll(async () => {
  client = await owner()
  colleague = (await joinAsMember(t, client)).client
  stranger = await owner()
}, 30_000)

describe('finding messages and titles', () => {
  test('every word must occur; the best match comes first, a title before a message; each result names its chat and message', async () => {
    const dense = await chatWith(client, ['Which quokka facts do you know?', 'Quokka, quokka: the quokka lives on Rottnest.'])
    const sparse = await chatWith(client, ['Tell me about marsupials', `Marsupials of Australia include the kangaroo, the koala, the wombat and ${'many others, '.repeat(20)}the quokka.`])
    const titled = await newThread(client)
    await client.patch(`/api/threads/${titled}`, { title: 'Quokka photos' })

    const results = await found(client, 'quokka')
    expect(results.map((r) => [r.threadId, r.role])).toEqual([
      [titled, null],
      [dense, 'assistant'],
      [dense, 'user'],
      [sparse, 'assistant'],
    ])
    const [title, best] = results
    expect(title).toMatchObject({ threadId: titled, title: 'Quokka photos', messageId: null, role: null })
    const detail = (await client.get(`/api/threads/${dense}`)).body
    expect(best).toMatchObject({ threadId: dense, title: null, messageId: detail.messages[1].id, role: 'assistant', at: detail.messages[1].createdAt })

    // All words: only the long reply speaks of both.
    expect((await found(client, 'quokka wombat')).map((r) => r.threadId)).toEqual([sparse])
    expect(await found(client, 'quokka platypus')).toEqual([])
        expect((await search(client, 'quokka', '&limit=2')).body.results.length).toBe(2)
  })

  test('words match whatever their case and accents; the last word matches as a beginning while it is typed', async () => {
    const id = await chatWith(client, ['Wie heißt die Straße zum Café Größenwahn?', 'Die Straße heißt Hauptstraße.'])
    expect((await found(client, 'CAFE')).map((r) => r.threadId)).toEqual([id])
    expect((await found(client, 'grossenwahn')).length).toBe(0)
    expect((await found(client, 'größenwahn')).map((r) => r.threadId)).toEqual([id])
    expect((await found(client, 'cafe größen')).map((r) => r.threadId)).toEqual([id])
    // A finished word (a space after it) is a whole word; short beginnings are whole words too.
    expect(await found(client, 'cafe größen ')).toEqual([])
    expect(await found(client, 'gr')).toEqual([])
  })

  test('the passage comes in parts with the matching words marked; markup in a message is plain text in them', async () => {
    const html = '<img src=x onerror="alert(1)"> <b>pangolin</b> & the <script>alert(2)</script> scales'
    await chatWith(client, [`${'Filler words before the match. '.repeat(10)}The pangolin is covered in scales. ${'And filler after it. '.repeat(10)}`, html])
    const [reply, question] = await found(client, 'pangolin scales')
    for (const r of [reply!, question!]) {
      expect(r.snippet.some((p) => p.match)).toBe(true)
      expect(marked(r).every((w) => w === 'pangolin' || w === 'scales')).toBe(true)
      expect(textOf(r)).not.toMatch(/[\uE000\uE001]/)
    }
    // A long message gives a passage around the match, cut with an ellipsis.
    expect(textOf(question!)).toMatch(/^….*The pangolin is covered in scales\..*…$/)
    expect(textOf(question!).length).toBeLessThan(300)
    // The markup is text, exactly as written (the web renders parts as text).
    expect(textOf(reply!)).toBe(html)
    expect(reply!.snippet).toContainEqual({ text: 'pangolin', match: true })
  })
})

describe('only the caller’s own chats', () => {
  test('a colleague, another organisation and a signed-out visitor find nothing of them', async () => {
    await chatWith(client, ['The secret word is axolotl', 'Axolotl noted.'])
    const titled = await newThread(client)
    await client.patch(`/api/threads/${titled}`, { title: 'Axolotl plans' })
    expect((await found(client, 'axolotl')).length).toBe(3)

    expect(await found(colleague, 'axolotl')).toEqual([])
    expect(await found(stranger, 'axolotl')).toEqual([])
    // Their own chats with the same word are theirs alone.
    const theirs = await chatWith(stranger, ['My axolotl'])
    expect((await found(stranger, 'axolotl')).map((r) => r.threadId)).toEqual([theirs])
    expect((await found(client, 'axolotl')).length).toBe(3)

    const signedOut = await t.client().get('/api/search?q=axolotl')
    expect(signedOut.status).toBe(401)
    expect(signedOut.body.code).toBe('UNAUTHORIZED')
  })
})

describe('the index follows the chats', () => {
  test('a rename replaces the old title; removing words of it finds the chat no more', async () => {
    const id = await newThread(client)
    await client.patch(`/api/threads/${id}`, { title: 'Narwhal trip' })
    expect((await found(client, 'narwhal')).map((r) => r.threadId)).toEqual([id])
    await client.patch(`/api/threads/${id}`, { title: 'Beluga trip' })
    expect(await found(client, 'narwhal')).toEqual([])
    expect((await found(client, 'beluga')).map((r) => [r.threadId, r.title])).toEqual([[id, 'Beluga trip']])
    // Pinning changes no title: still found once.
    await client.patch(`/api/threads/${id}`, { pinned: true })
    expect((await found(client, 'beluga')).length).toBe(1)
    expect(await indexIsConsistent()).toBe(true)
  })

  test('a sent message and its reply are found once the reply is complete; the chat gets its title', async () => {
    const id = await newThread(client)
    await send(client, id, 'Where do ocelots live? [[fake:text=Ocelots live in the rainforest canopy.]] [[fake:title=Ocelot habitats]]')
    expect((await found(client, 'ocelots')).map((r) => r.role).sort()).toEqual(['assistant', 'user'])
    await until('the title', async () => (await found(client, 'habitats')).some((r) => r.messageId === null))
    expect(await indexIsConsistent()).toBe(true)
  })

  test('a streaming reply is found only once it ends, with all its text', async () => {
    const id = await newThread(client)
    const res = await t.app.request(`/api/threads/${id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader(), origin: BASE_URL },
      // The reply says t0 t1 … t59.
      body: JSON.stringify({ content: 'Count gecko [[fake:delay=30]] [[fake:tokens=60]]' }),
    })
    // Its text reaches the database while it streams (appended parts)…
    const replyOf = async () => (await t.deps.db.select({ id: messages.id }).from(messages).where(and(eq(messages.threadId, id), eq(messages.role, 'assistant'))))[0]?.id
    await until('appended text', async () => {
      const reply = await replyOf()
      return reply !== undefined && (await replyParts(t.deps.db, reply)).length > 0
    })
    // …but the index does not hold it before its end.
    expect(await found(client, 't0')).toEqual([])
    expect((await found(client, 'gecko')).map((r) => r.role)).toEqual(['user'])
    await readSse(res)
    // (The chat's title is made from the reply, too.)
    const inMessages = async (q: string) => (await found(client, q)).filter((r) => r.messageId).map((r) => [r.threadId, r.role])
    expect(await inMessages('t0')).toEqual([[id, 'assistant']])
    expect(await inMessages('t0 t59')).toEqual([[id, 'assistant']])
    expect(await indexIsConsistent()).toBe(true)
  })

  test('a reply whose server died is found with the text it had appended, once it is ended', async () => {
    const id = await newThread(client)
    const replyId = crypto.randomUUID()
    const long = new Date(Date.now() - 3_600_000)
    await t.deps.db.insert(messages).values([
      { id: crypto.randomUUID(), threadId: id, seq: 1, role: 'user', content: 'Tell me about tapirs', status: 'complete', createdAt: long, updatedAt: long },
      { id: replyId, threadId: id, seq: 2, role: 'assistant', content: 'Tapirs ', status: 'streaming', createdAt: long, updatedAt: long, leaseOwner: 'gone', leaseUntil: long },
    ])
    const replyN = (await replyNumber(t.deps.db, replyId))!
    await t.deps.db.insert(replyChunks).values([
      { replyN, seq: 1, content: 'browse in the ' },
      { replyN, seq: 2, content: 'lowland forest' },
    ])
    expect((await found(client, 'tapirs')).map((r) => r.role)).toEqual(['user'])
    // Reading the chat ends the reply (interrupted) with its appended text.
    expect((await client.get(`/api/threads/${id}`)).body.messages[1]).toMatchObject({ status: 'interrupted', content: 'Tapirs browse in the lowland forest' })
    expect((await found(client, 'lowland')).map((r) => [r.messageId, textOf(r)])).toEqual([[replyId, 'Tapirs browse in the lowland forest']])
    expect(await indexIsConsistent()).toBe(true)
  })

  test('edit and resend, and regenerate, replace what they replace in the index', async () => {
    const id = await newThread(client)
    await send(client, id, 'Describe the okapi [[fake:text=The okapi is a giraffid.]]')
    await send(client, id, 'Describe the dugong [[fake:text=A dugong grazes seagrass.]]', { replaceLast: true })
    // The chat keeps the title its first reply gave it; the messages are replaced.
    const messagesFound = async (q: string) => (await found(client, q)).filter((r) => r.messageId !== null).map((r) => r.role)
    expect(await messagesFound('okapi')).toEqual([])
    expect(await messagesFound('giraffid')).toEqual([])
    expect((await messagesFound('dugong')).sort()).toEqual(['assistant', 'user'])

    const replyBefore = (await client.get(`/api/threads/${id}`)).body.messages[1].id
    const regenerated = await t.app.request(`/api/threads/${id}/regenerate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader(), origin: BASE_URL },
      body: '{}',
    })
    expect(regenerated.status).toBe(200)
    await readSse(regenerated)
    // The new reply (the same words from the fake) is found in place of the one it replaced.
    const replyAfter = (await client.get(`/api/threads/${id}`)).body.messages[1].id
    expect(replyAfter).not.toBe(replyBefore)
    const replies = (await found(client, 'seagrass')).filter((r) => r.role === 'assistant').map((r) => r.messageId)
    expect(replies).toEqual([replyAfter])
    expect(await indexIsConsistent()).toBe(true)
  })

  test('while a new reply streams, the one it replaces is left out; it leaves the index once the new one ends, however it ends', async () => {
    const id = await newThread(client)
    await send(client, id, 'Tell me of narwhals [[fake:text=Narwhals carry a spiral tusk.]]')
    // Whether a message's text is in the index (its entry there, checked against it by indexIsConsistent).
    const indexed = async (messageId: string) =>
      Number((await t.deps.db.$client.execute({ sql: 'SELECT count(*) AS n FROM chat_search_docs WHERE message_id = ?', args: [messageId] })).rows[0]!.n)
    const replies = async (q: string) => (await found(client, q)).filter((r) => r.role === 'assistant').map((r) => r.messageId)
    const regenerate = () =>
      t.app.request(`/api/threads/${id}/regenerate`, { method: 'POST', headers: { cookie: client.cookieHeader(), origin: BASE_URL } })
    const first = (await client.get(`/api/threads/${id}`)).body.messages[1].id as string
    // It ended: it is indexed with others that end about then, or by the next search.
    await indexAllWaiting(t.deps)

    fake.script({ text: 'Narwhals live in arctic waters.', hold: true })
    const asked = fake.requests.length
    const streaming = await regenerate()
    expect(streaming.status).toBe(200)
    // Its own request, held: released before it came, it would wait for the next release.
    await until('the new reply streams', async () => fake.requests.slice(asked).some((r) => r.body?.stream === true))
    // The replaced reply is still in the index (taking it out would hold back the first token) but not found.
    expect(await indexed(first)).toBe(1)
    expect(await replies('spiral')).toEqual([])
    expect(await indexIsConsistent()).toBe(true)
    fake.release()
    await readSse(streaming)
    const second = (await client.get(`/api/threads/${id}`)).body.messages[1].id as string
    expect(await indexed(first)).toBe(0)
    expect(await replies('arctic')).toEqual([second])

    // A new reply that breaks off also takes the one it replaced out.
    fake.script({ text: 'Narwhals are toothed whales.', cutAfter: 1 })
    await readSse(await regenerate())
    expect((await client.get(`/api/threads/${id}`)).body.messages[1]).toMatchObject({ status: 'failed' })
    expect(await indexed(second)).toBe(0)
    expect(await indexIsConsistent()).toBe(true)

    // Shown again, a replaced version is found again, once.
    expect((await client.put(`/api/threads/${id}/branch`, { messageId: first })).status).toBe(204)
    expect(await replies('spiral')).toEqual([first])
    expect(await indexed(first)).toBe(1)
    expect(await indexIsConsistent()).toBe(true)
  })

  test('a replaced first message without a parent (older chats, shared ones continued) leaves the index too, and comes back once when shown', async () => {
    const id = await newThread(client)
    const first = crypto.randomUUID()
    await t.deps.db.insert(messages).values({ id: first, threadId: id, seq: 1, role: 'assistant', content: 'Lemurs leap between trees.', status: 'complete' })
    const indexed = async (messageId: string) =>
      Number((await t.deps.db.$client.execute({ sql: 'SELECT count(*) AS n FROM chat_search_docs WHERE message_id = ?', args: [messageId] })).rows[0]!.n)
    expect(await indexed(first)).toBe(1)
    fake.script({ text: 'Lemurs live on Madagascar.' })
    const res = await t.app.request(`/api/threads/${id}/regenerate`, { method: 'POST', headers: { cookie: client.cookieHeader(), origin: BASE_URL } })
    expect(res.status).toBe(200)
    await readSse(res)
    expect(await indexed(first)).toBe(0)
    expect((await found(client, 'leap')).filter((r) => r.messageId)).toEqual([])
    expect((await client.put(`/api/threads/${id}/branch`, { messageId: first })).status).toBe(204)
    expect(await indexed(first)).toBe(1)
    expect((await found(client, 'leap')).map((r) => r.messageId)).toEqual([first])
    expect(await indexIsConsistent()).toBe(true)
  })

  test('deleting a chat, or several at once, takes its title and messages out of the index', async () => {
    const one = await chatWith(client, ['Caracal question', 'Caracal answer'])
    const two = await chatWith(client, ['Caracal again'])
    const three = await chatWith(client, ['Caracal thrice'])
    await client.patch(`/api/threads/${two}`, { title: 'Caracal chat' })
    expect((await found(client, 'caracal')).length).toBe(5)

    expect((await client.delete(`/api/threads/${one}`)).status).toBe(204)
    expect(new Set((await found(client, 'caracal')).map((r) => r.threadId))).toEqual(new Set([two, three]))
    expect((await client.request('DELETE', '/api/threads', { ids: [two, three] })).status).toBe(204)
    expect(await found(client, 'caracal')).toEqual([])
    expect(await indexIsConsistent()).toBe(true)
  })

  test('a message changed in place is found by its new text only', async () => {
    const id = await chatWith(client, ['The margay climbs'])
    const [message] = await t.deps.db.select().from(messages).where(eq(messages.threadId, id))
    await t.deps.db.update(messages).set({ content: 'The serval jumps' }).where(eq(messages.id, message!.id))
    expect(await found(client, 'margay')).toEqual([])
    expect((await found(client, 'serval')).map((r) => r.messageId)).toEqual([message!.id])
    await t.deps.db.delete(messages).where(eq(messages.id, message!.id))
    expect(await found(client, 'serval')).toEqual([])
    expect(await indexIsConsistent()).toBe(true)
  })
})

describe('replies are indexed together (decision 0107)', () => {
  const waiting = async () => (await t.deps.db.$client.execute('SELECT message_id FROM chat_search_waiting ORDER BY rowid')).rows.map((r) => String(r.message_id))
  const docsOf = async (ids: string[]) =>
    (await t.deps.db.$client.execute({ sql: `SELECT message_id, id FROM chat_search_docs WHERE message_id IN (${ids.map(() => '?').join(', ')}) ORDER BY id`, args: ids })).rows.map((r) => String(r.message_id))
  /** Nothing waits, and no indexing is set to run in this process: what a test writes next stays waiting until it indexes. */
  const quiet = async () => {
    await until('no indexing set to run', async () => !indexingScheduled(t.deps))
    await indexAllWaiting(t.deps)
  }
  /** Replies written straight to the database as streaming, each then ended, in this order (each waits to be indexed). */
  async function endedReplies(c: TestClient, texts: string[]) {
    const threadId = await newThread(c)
    const at = new Date()
    const ids = texts.map(() => crypto.randomUUID())
    // One reply of a chat streams at a time.
    for (const [i, id] of ids.entries()) {
      await t.deps.db.insert(messages).values({ id, threadId, seq: i + 1, role: 'assistant', content: texts[i]!, status: 'streaming', createdAt: at, updatedAt: at })
      await t.deps.db.update(messages).set({ status: 'complete' }).where(eq(messages.id, id))
    }
    return { threadId, ids }
  }

  test('a reply that ends waits; it is indexed shortly after without a search, and at once by one', async () => {
    await quiet()
    const id = await newThread(client)
    await send(client, id, 'Where do quokkas live? [[fake:text=Quokkas live on Rottnest Island.]]')
    const reply = (await client.get(`/api/threads/${id}`)).body.messages[1].id as string
    await until('indexed without a search', async () => (await docsOf([reply])).length === 1 && !(await waiting()).includes(reply))
    expect(await indexIsConsistent()).toBe(true)

    // Ended this moment (as a reply found abandoned is ended, not through a reply's own end): a search indexes it first.
    await quiet()
    const [wombats] = (await endedReplies(client, ['Wombats dig burrows.'])).ids as [string]
    expect(await waiting()).toContain(wombats)
    expect((await found(client, 'wombats')).map((r) => r.messageId)).toEqual([wombats])
    expect(await waiting()).toEqual([])
  })

  test('an ended reply’s appended parts are read no more and go with the next transaction; a reply that streams again starts without them', async () => {
    await quiet()
    const threadId = await newThread(client)
    const id = crypto.randomUUID()
    const at = new Date()
    await t.deps.db.insert(messages).values({ id, threadId, seq: 1, role: 'assistant', content: 'Kiwis ', status: 'streaming', createdAt: at, updatedAt: at })
    const n = (await replyNumber(t.deps.db, id))!
    await t.deps.db.insert(replyChunks).values([
      { replyN: n, seq: 1, content: 'are ' },
      { replyN: n, seq: 2, content: 'flightless' },
    ])
    const partsOf = async () => (await t.deps.db.select().from(replyChunks).where(eq(replyChunks.replyN, n))).length
    const numbers = () => t.deps.db.select().from(streamingReplies).where(eq(streamingReplies.messageId, id))
    // Its end writes the whole text and only marks its number ended (decision 0137).
    await t.deps.db.update(messages).set({ status: 'complete', content: 'Kiwis are flightless.' }).where(eq(messages.id, id))
    expect(await numbers()).toEqual([{ n, messageId: id, ended: true }])
    expect(await partsOf()).toBe(2)
    expect(await replyNumber(t.deps.db, id)).toBeUndefined()
    expect((await client.get(`/api/threads/${threadId}`)).body.messages[0]).toMatchObject({ id, status: 'complete', content: 'Kiwis are flightless.' })
    // The transaction that indexes it deletes its parts and its number.
    expect(await indexWaiting(t.deps.db.$client)).toBe(false)
    expect(await partsOf()).toBe(0)
    expect(await numbers()).toEqual([])
    expect((await found(client, 'flightless')).map((r) => r.messageId)).toEqual([id])

    // Ended and set streaming again before its parts went: it starts with none, under a number of its own.
    await t.deps.db.insert(streamingReplies).values({ messageId: id, ended: true })
    const old = (await numbers())[0]!.n
    await t.deps.db.insert(replyChunks).values({ replyN: old, seq: 1, content: ' and nocturnal' })
    await t.deps.db.update(messages).set({ status: 'streaming' }).where(eq(messages.id, id))
    expect((await numbers()).map((r) => r.ended)).toEqual([false])
    expect(await t.deps.db.select().from(replyChunks).where(eq(replyChunks.replyN, old))).toEqual([])
    expect(await replyParts(t.deps.db, id)).toEqual([])
    // Ended again, for the tests after: nothing of it waits.
    await t.deps.db.update(messages).set({ status: 'complete' }).where(eq(messages.id, id))
    await indexAllWaiting(t.deps)
  })

  test('ended replies’ parts go PARTS_TOGETHER at a time, also those of replies left out of the index', async () => {
    await quiet()
    // Replies written as streaming, each then ended, in one transaction (one streams at a time in a chat).
    const threadId = await newThread(client)
    const ids = Array.from({ length: PARTS_TOGETHER + 3 }, () => crypto.randomUUID())
    const at = Date.now()
    await t.deps.db.$client.batch(
      ids.flatMap((id, i) => [
        { sql: `INSERT INTO messages (id, thread_id, seq, role, content, status, created_at, updated_at) VALUES (?, ?, ?, 'assistant', ?, 'streaming', ?, ?)`, args: [id, threadId, i + 1, `Quoll note ${i}`, at, at] },
        { sql: `UPDATE messages SET status = 'complete' WHERE id = ?`, args: [id] },
      ]),
      'write',
    )
    // Off the branch: not indexed, and its parts go all the same.
    await t.deps.db.update(messages).set({ onBranch: false }).where(eq(messages.id, ids[0]!))
    const ended = async () => (await t.deps.db.$client.execute('SELECT count(*) AS n FROM streaming_replies WHERE ended = 1')).rows[0]!.n
    expect(await ended()).toBe(PARTS_TOGETHER + 3)
    expect(await indexWaiting(t.deps.db.$client)).toBe(true)
    expect(await ended()).toBe(3)
    await indexAllWaiting(t.deps)
    expect(await ended()).toBe(0)
    expect(await waiting()).toEqual([])
    expect(await indexIsConsistent()).toBe(true)
  })

  test('one transaction indexes at most INDEX_TOGETHER replies, each owner’s newer rows higher in the order they ended', async () => {
    await quiet()
    const other = await owner()
    const texts = Array.from({ length: INDEX_TOGETHER + 6 }, (_, i) => `Platypus fact ${i}`)
    const mine = await endedReplies(client, texts.slice(0, 40))
    const theirs = await endedReplies(other, texts.slice(40))
    expect((await waiting()).length).toBe(INDEX_TOGETHER + 6)
    expect(await indexWaiting(t.deps.db.$client)).toBe(true)
    expect(await waiting()).toEqual(theirs.ids.slice(INDEX_TOGETHER - 40))
    expect(await indexWaiting(t.deps.db.$client)).toBe(false)
    expect(await docsOf(mine.ids)).toEqual(mine.ids)
    expect(await docsOf(theirs.ids)).toEqual(theirs.ids)
    expect((await found(client, 'platypus')).length).toBe(20)
    expect((await found(other, 'platypus')).length).toBe(20)
    expect(await indexIsConsistent()).toBe(true)
  })

  test('more than INDEX_TOGETHER waiting, some needing nothing on either side of the first INDEX_TOGETHER: each is indexed once or not at all', async () => {
    await quiet()
    const { ids } = await endedReplies(client, Array.from({ length: INDEX_TOGETHER + 4 }, (_, i) => `Numbat note ${i}`))
    const [deleted, hiddenEarly] = [ids[0]!, ids[1]!]
    const [changedLate, hiddenLate] = [ids[INDEX_TOGETHER + 1]!, ids[INDEX_TOGETHER + 2]!]
    await t.deps.db.delete(messages).where(eq(messages.id, deleted))
    await t.deps.db.update(messages).set({ onBranch: false }).where(eq(messages.id, hiddenEarly))
    await t.deps.db.update(messages).set({ content: 'Numbat note changed' }).where(eq(messages.id, changedLate))
    await t.deps.db.update(messages).set({ onBranch: false }).where(eq(messages.id, hiddenLate))
    // The first transaction drops all four from the queue and indexes the first INDEX_TOGETHER of the rest.
    expect(await indexWaiting(t.deps.db.$client)).toBe(false)
    expect(await waiting()).toEqual([])
    const shown = ids.filter((id) => ![deleted, hiddenEarly, hiddenLate].includes(id))
    expect((await docsOf(ids)).sort()).toEqual(shown.sort())
    expect(await indexIsConsistent()).toBe(true)
  })

  test('a waiting reply deleted, put off the branch or changed in place meanwhile is indexed as it stands, or not at all', async () => {
    await quiet()
    const { threadId, ids } = await endedReplies(client, ['Echidnas lay eggs.', 'Echidnas eat ants.', 'Echidnas have spines.'])
    const [deleted, hidden, changed] = ids as [string, string, string]
    await t.deps.db.delete(messages).where(eq(messages.id, deleted))
    await t.deps.db.update(messages).set({ onBranch: false }).where(eq(messages.id, hidden))
    await t.deps.db.update(messages).set({ content: 'Echidnas have electroreceptors.' }).where(eq(messages.id, changed))
    // Changed in place: indexed at once, as any change of a message that is not streaming.
    expect(await docsOf([changed])).toEqual([changed])
    expect(await indexWaiting(t.deps.db.$client)).toBe(false)
    expect(await waiting()).toEqual([])
    expect(await docsOf(ids)).toEqual([changed])
    expect((await found(client, 'echidnas')).map((r) => [r.threadId, r.messageId])).toEqual([[threadId, changed]])
    expect(await indexIsConsistent()).toBe(true)
  })

  test('where a timer belongs to its request (Workers), a reply is indexed as it ends', async () => {
    await quiet()
    const { ids } = await endedReplies(client, ['Kiwis cannot fly.'])
    await indexLater({ ...t.deps, writesTogether: false })
    expect(await waiting()).toEqual([])
    expect(await docsOf(ids)).toEqual(ids)
    expect(await indexIsConsistent()).toBe(true)
  })
})

describe('bad input', () => {
  test('FTS5 syntax is searched as plain words, never an error', async () => {
    const id = await chatWith(client, ['Is the ibex NEAR the col? Title: "ibex-photos" (draft) AND more * OR less'])
    for (const q of [
      '"ibex',
      'ibex"',
      '"ibex"',
      'ibex*',
      '*ibex',
      '*',
      '"',
      '""',
      '(ibex',
      'ibex)',
      '()',
      '-ibex',
      'ibex -col',
      'title:ibex',
      'body:ibex',
      ':',
      '{title}: ibex',
      'NEAR(ibex col)',
      'NEAR',
      'ibex AND col',
      'ibex OR col',
      'ibex NOT col',
      'AND',
      'OR',
      'NOT',
      '^ibex',
      'ibex + col',
      "ibex's",
      'ibex\\',
      '\u0000ibex',
      'ibex \uE000 col',
      '🦌 ibex',
      '🦌',
      'ibex'.repeat(50),
    ]) {
      const res = await search(client, q)
      expect({ q, status: res.status }).toEqual({ q, status: 200 })
      expect(Array.isArray(res.body.results)).toBe(true)
    }
    expect((await found(client, 'NEAR(ibex col)')).map((r) => r.threadId)).toEqual([id])
    expect((await found(client, '"ibex-photos"')).map((r) => r.threadId)).toEqual([id])
    expect((await found(client, 'ibex AND more * OR less')).map((r) => r.threadId)).toEqual([id])
    expect((await found(client, 'ibex NEAR col')).map((r) => r.threadId)).toEqual([id])
    expect(await found(client, 'ibex NOT col')).toEqual([])
    expect(await found(client, '*')).toEqual([])
  })

  test('an empty search, one of spaces only, one over 200 characters or a bad limit is refused with the field named', async () => {
    for (const [query, field, message] of [
      ['', 'q', 'Search text is required'],
      ['?q=', 'q', 'Search text is required'],
      ['?q=%20%20%20', 'q', 'Search text is required'],
      [`?q=${'x'.repeat(201)}`, 'q', 'Search text must be at most 200 characters'],
      [`?q=${'word '.repeat(1000)}`, 'q', 'Search text must be at most 200 characters'],
      ['?q=ibex&limit=0', 'limit', expect.any(String)],
      ['?q=ibex&limit=51', 'limit', expect.any(String)],
      ['?q=ibex&limit=many', 'limit', expect.any(String)],
    ] as const) {
      const res = await client.get(`/api/search${query}`)
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'VALIDATION_FAILED' })
      expect(res.body.fields[field]).toEqual(message)
    }
    expect((await search(client, 'x'.repeat(200))).status).toBe(200)
  })
})

describe('an existing database', () => {
  test('the migration indexes the titles and messages already there, but not a reply still streaming', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kontor-search-migration-'))
    // The migrations before this one, then chats written in them, then this one.
    const before = migrationsCopy(join(dir, 'before'), (entries) => entries.filter((e) => e.tag < '0014_chat_search'))
    const db = createClient({ url: `file:${join(dir, 'kontor.db')}` })
    await migrateDatabase(db, before)
    const at = Date.now()
    await db.batch([
      { sql: "INSERT INTO organizations (id, name, created_at) VALUES ('o1', 'Old Org', ?)", args: [at] },
      { sql: "INSERT INTO users (id, name, email, organization_id, created_at, updated_at) VALUES ('u1', 'Old', 'old@acme.test', 'o1', ?, ?)", args: [at, at] },
      { sql: "INSERT INTO threads (id, organization_id, user_id, title, created_at, last_message_at) VALUES ('t1', 'o1', 'u1', 'Lynx notes', ?, ?)", args: [at, at] },
      { sql: "INSERT INTO threads (id, organization_id, user_id, created_at, last_message_at) VALUES ('t2', 'o1', 'u1', ?, ?)", args: [at, at] },
      ...[
        ['m1', 't1', 1, 'user', 'Where does the lynx hunt?', 'complete'],
        ['m2', 't1', 2, 'assistant', 'The lynx hunts hares at dusk.', 'complete'],
        ['m3', 't2', 1, 'user', 'And the lynx cubs?', 'complete'],
        ['m4', 't2', 2, 'assistant', 'Lynx cubs stay', 'streaming'],
      ].map((m) => ({ sql: 'INSERT INTO messages (id, thread_id, seq, role, content, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', args: [...m, at, at] })),
    ], 'write')
    await migrateDatabase(db, resolve(import.meta.dir, '../../../drizzle'))

    const hits = await db.execute("SELECT d.thread_id, d.message_id FROM chat_search f JOIN chat_search_docs d ON d.id = f.rowid WHERE chat_search MATCH 'lynx' ORDER BY d.message_id")
    expect(hits.rows.map((r) => [r.thread_id, r.message_id])).toEqual([['t1', null], ['t1', 'm1'], ['t1', 'm2'], ['t2', 'm3']])
    // The streaming reply joins the index when it ends.
    await db.execute("UPDATE messages SET status = 'complete', content = 'Lynx cubs stay with their mother' WHERE id = 'm4'")
    // With the others that end about then (migration 0031).
    expect((await db.execute("SELECT message_id FROM chat_search_waiting")).rows.map((r) => r.message_id)).toEqual(['m4'])
    expect(await indexWaiting(db)).toBe(false)
    expect((await db.execute("SELECT count(*) AS n FROM chat_search WHERE chat_search MATCH 'mother'")).rows[0]!.n).toBe(1)
    await db.execute("INSERT INTO chat_search (chat_search, rank) VALUES ('integrity-check', 1)")
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })
})
