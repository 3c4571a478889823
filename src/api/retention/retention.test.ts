/**
 * Retention: an organisation's periods for chats (since their last message) and uploaded files
 * (since their upload), the run that deletes what expired, and a member deleting all their chats.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { and, eq, inArray } from 'drizzle-orm'
import { auditEntries, messages, sourceChunks, sources, threads } from '../../../db/schema'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { readSse } from '../../../tests/support/sse'
import { BASE_URL, chatThrough, createTestApp, enableOpenAiModels, joinAsMember, registerOrg, type TestClient } from '../../../tests/support/test-app'
import { until } from '../../../tests/support/wait-for'
import { orphanVectors, vectorsOf } from '../../../tests/support/vectors'
import { processingIdle } from '../sources/process'
import { applyRetention, retentionUpkeep } from './job'

const DAY = 24 * 60 * 60 * 1000

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-retention', OPENAI_BASE_URL: `${fake.url}/v1` }, localFiles: true })
})
afterAll(async () => {
  await t.close()
  fake.close()
})
beforeEach(() => fake.reset())

/** An organisation with a chat and an embedding model; its admin signed in. */
async function org() {
  const admin = t.client()
  const registered = await registerOrg(admin)
  await enableOpenAiModels(admin, ['openai/gpt-4.1', 'openai/text-embedding-3-small'])
  return { admin, organizationId: registered.user.organization.id as string }
}

async function uploadTo(client: TestClient, path: string, fileName: string, text: string) {
  const form = new FormData()
  form.set('file', new File([text], fileName, { type: 'text/plain' }))
  const res = await t.app.request(path, { method: 'POST', headers: { cookie: client.cookieHeader(), origin: BASE_URL }, body: form })
  expect(res.status).toBe(201)
  await processingIdle()
  const id = ((await res.json()) as { id: string }).id
  const row = (await t.deps.db.select().from(sources).where(eq(sources.id, id)))[0]!
  expect(row.status).toBe('ready')
  return row
}

/** A chat with one exchange and one processed file. */
async function chatWithFile(client: TestClient, text = 'The gate opens at six.') {
  const id = (await client.post('/api/threads', {})).body.id as string
  await chatThrough(t.app, client, id, 'Hello')
  const file = await uploadTo(client, `/api/threads/${id}/sources/file`, 'notes.txt', text)
  return { id, file }
}

/** A new chat whose reply is streaming, held by the fake provider until `fake.release()`. */
async function chatWithHeldReply(client: TestClient) {
  const id = (await client.post('/api/threads', {})).body.id as string
  const reply = t.app.request(`/api/threads/${id}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: client.cookieHeader(), origin: BASE_URL },
    body: JSON.stringify({ content: '[[fake:tokens=50]][[fake:hold]] a long story' }),
  })
  await until('the reply streams', async () => (await t.deps.db.select().from(messages).where(and(eq(messages.threadId, id), eq(messages.status, 'streaming')))).length > 0)
  return { id, reply }
}

const chunksOf = (sourceIds: string[]) => t.deps.db.select().from(sourceChunks).where(inArray(sourceChunks.sourceId, sourceIds))
const entriesOf = (organizationId: string, action: string) =>
  t.deps.db.select().from(auditEntries).where(and(eq(auditEntries.organizationId, organizationId), eq(auditEntries.action, action)))

async function expectGone(file: typeof sources.$inferSelect) {
  expect(await t.deps.db.select().from(sources).where(eq(sources.id, file.id))).toEqual([])
  expect(await chunksOf([file.id])).toEqual([])
  // No vector is left in the index without its chunk.
  expect(await orphanVectors(t.deps.db)).toBe(0)
  expect(await t.deps.files.get(file.fileKey)).toBeNull()
}

async function expectKept(file: typeof sources.$inferSelect) {
  expect((await t.deps.db.select().from(sources).where(eq(sources.id, file.id))).length).toBe(1)
  const chunks = await chunksOf([file.id])
  expect(chunks.length).toBeGreaterThan(0)
  expect(await vectorsOf(t.deps.db, chunks.map((c) => c.id))).toBe(chunks.length)
  expect(await t.deps.files.get(file.fileKey)).not.toBeNull()
}

describe('retention settings', () => {
  test('kept for ever by default; an admin sets both periods, audited; members and other organisations cannot', async () => {
    const { admin, organizationId } = await org()
    const member = await joinAsMember(t, admin)
    const other = await org()
    expect((await admin.get('/api/organization/retention')).body).toEqual({ chatDays: null, fileDays: null })

    const set = await admin.put('/api/organization/retention', { chatDays: 30, fileDays: 3650 })
    expect(set.status).toBe(200)
    expect(set.body).toEqual({ chatDays: 30, fileDays: 3650 })
    expect((await admin.get('/api/organization/retention')).body).toEqual({ chatDays: 30, fileDays: 3650 })
    const [entry] = await entriesOf(organizationId, 'retention.changed')
    expect(JSON.parse(entry!.details)).toEqual({ chatDays: 30, fileDays: 3650, previousChatDays: 'never', previousFileDays: 'never' })

    expect((await admin.put('/api/organization/retention', { chatDays: null, fileDays: 1 })).body).toEqual({ chatDays: null, fileDays: 1 })

    const refused = await member.client.put('/api/organization/retention', { chatDays: 1, fileDays: 1 })
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('FORBIDDEN')
    expect((await member.client.get('/api/organization/retention')).status).toBe(403)
    expect((await t.client().put('/api/organization/retention', { chatDays: 1, fileDays: 1 })).status).toBe(401)
    expect((await other.admin.get('/api/organization/retention')).body).toEqual({ chatDays: null, fileDays: null })
    expect((await admin.get('/api/organization/retention')).body).toEqual({ chatDays: null, fileDays: 1 })
  })

  test('periods outside 1–3650 whole days, or missing, are refused per field and nothing changes', async () => {
    const { admin } = await org()
    await admin.put('/api/organization/retention', { chatDays: 90, fileDays: null })
    const cases: [unknown, unknown, string[]][] = [
      [0, null, ['chatDays']],
      [3651, null, ['chatDays']],
      [1.5, null, ['chatDays']],
      ['30', null, ['chatDays']],
      [-1, 0, ['chatDays', 'fileDays']],
      [30, undefined, ['fileDays']],
    ]
    for (const [chatDays, fileDays, fields] of cases) {
      const res = await admin.put('/api/organization/retention', { chatDays, fileDays })
      expect(res.status, JSON.stringify([chatDays, fileDays])).toBe(400)
      expect(res.body.code).toBe('VALIDATION_FAILED')
      expect(Object.keys(res.body.fields).sort()).toEqual(fields)
    }
    expect((await admin.get('/api/organization/retention')).body).toEqual({ chatDays: 90, fileDays: null })
  })
})

describe('the retention run', () => {
  test('deletes chats past their period with messages, files, passages, vectors and shares; keeps recent ones and other organisations', async () => {
    const acme = await org()
    const globex = await org()
    await acme.admin.put('/api/organization/retention', { chatDays: 30, fileDays: null })
    const old = await chatWithFile(acme.admin)
    const share = await acme.admin.post(`/api/threads/${old.id}/shares`, {})
    expect(share.status).toBe(201)
    const recent = await chatWithFile(acme.admin)
    const untouched = await chatWithFile(globex.admin)
    // The recent chat had activity 20 days after the others.
    const now = Date.now() + 31 * DAY
    await t.deps.db.update(threads).set({ lastMessageAt: new Date(Date.now() + 20 * DAY) }).where(eq(threads.id, recent.id))

    const results = await applyRetention(t.deps, now)
    expect(results.find((r) => r.organizationId === acme.organizationId)).toEqual({ organizationId: acme.organizationId, chats: 1, files: 1 })
    expect(results.find((r) => r.organizationId === globex.organizationId)).toBeUndefined()

    expect((await acme.admin.get(`/api/threads/${old.id}`)).body.code).toBe('THREAD_NOT_FOUND')
    expect(await t.deps.db.select().from(messages).where(eq(messages.threadId, old.id))).toEqual([])
    await expectGone(old.file)
    expect((await acme.admin.get(`/api/shares/${share.body.id}`)).body.code).toBe('SHARE_NOT_FOUND')
    expect((await acme.admin.get(`/api/threads/${recent.id}`)).status).toBe(200)
    await expectKept(recent.file)
    // "Never" keeps everything, however old.
    expect((await globex.admin.get(`/api/threads/${untouched.id}`)).status).toBe(200)
    await expectKept(untouched.file)

    const [entry] = await entriesOf(acme.organizationId, 'retention.applied')
    expect(entry).toMatchObject({ actorId: null, targetType: 'organization', targetId: acme.organizationId })
    expect(JSON.parse(entry!.details)).toEqual({ chats: 1, files: 1, chatDays: 30, fileDays: 'never' })
    expect(await entriesOf(globex.organizationId, 'retention.applied')).toEqual([])

    // A run with nothing to delete writes nothing.
    await applyRetention(t.deps, now)
    expect((await entriesOf(acme.organizationId, 'retention.applied')).length).toBe(1)
  }, 60_000)

  test('uploaded files go their period after the upload, from chats and collections; the chat and collection stay', async () => {
    const { admin, organizationId } = await org()
    await admin.put('/api/organization/retention', { chatDays: null, fileDays: 7 })
    const chat = await chatWithFile(admin)
    const collection = (await admin.post('/api/collections', { name: 'Handbook' })).body.id as string
    const handbook = await uploadTo(admin, `/api/collections/${collection}/files`, 'handbook.txt', 'Holidays are 30 days a year.')

    expect(await applyRetention(t.deps, Date.now() + 6 * DAY)).toEqual([])
    await expectKept(chat.file)
    await expectKept(handbook)

    const [result] = (await applyRetention(t.deps, Date.now() + 8 * DAY)).filter((r) => r.organizationId === organizationId)
    expect(result).toEqual({ organizationId, chats: 0, files: 2 })
    await expectGone(chat.file)
    await expectGone(handbook)
    expect((await admin.get(`/api/threads/${chat.id}`)).status).toBe(200)
    expect((await admin.get(`/api/collections/${collection}`)).body).toMatchObject({ files: 0 })
  }, 60_000)

  test('two runs at once delete each chat once and count it once', async () => {
    const { admin, organizationId } = await org()
    await admin.put('/api/organization/retention', { chatDays: 1, fileDays: 1 })
    const chats = [await chatWithFile(admin), await chatWithFile(admin), await chatWithFile(admin)]
    const now = Date.now() + 2 * DAY
    const [a, b] = await Promise.all([applyRetention(t.deps, now), applyRetention(t.deps, now)])
    const mine = [...a!, ...b!].filter((r) => r.organizationId === organizationId)
    expect(mine.reduce((n, r) => n + r.chats, 0)).toBe(3)
    expect(mine.reduce((n, r) => n + r.files, 0)).toBe(3)
    for (const chat of chats) await expectGone(chat.file)
    const entries = await entriesOf(organizationId, 'retention.applied')
    expect(entries.reduce((n, e) => n + JSON.parse(e.details).chats, 0)).toBe(3)
  }, 60_000)

  test('a chat whose reply is streaming stays until the reply has ended', async () => {
    const { admin, organizationId } = await org()
    await admin.put('/api/organization/retention', { chatDays: 1, fileDays: null })
    const { id, reply } = await chatWithHeldReply(admin)

    expect(await applyRetention(t.deps, Date.now() + 2 * DAY)).toEqual([])
    expect((await admin.get(`/api/threads/${id}`)).status).toBe(200)

    fake.release()
    const events = await readSse(await reply)
    expect(events.at(-1)).toEqual({ event: 'message_end', data: { status: 'complete' } })
    const [result] = (await applyRetention(t.deps, Date.now() + 2 * DAY)).filter((r) => r.organizationId === organizationId)
    expect(result).toEqual({ organizationId, chats: 1, files: 0 })
    expect((await admin.get(`/api/threads/${id}`)).status).toBe(404)
  }, 60_000)

  test('the daily upkeep lets one run a day through, whichever process asks', async () => {
    const { admin, organizationId } = await org()
    await admin.put('/api/organization/retention', { chatDays: 1, fileDays: null })
    const first = (await admin.post('/api/threads', {})).body.id as string
    const start = Date.now() + 2 * DAY
    await retentionUpkeep(t.deps, start)
    expect((await admin.get(`/api/threads/${first}`)).status).toBe(404)

    const second = (await admin.post('/api/threads', {})).body.id as string
    // Two hours on: past this process's hourly check, inside the day's window.
    await retentionUpkeep(t.deps, start + 2 * 60 * 60 * 1000)
    expect((await admin.get(`/api/threads/${second}`)).status).toBe(200)
    await retentionUpkeep(t.deps, start + DAY + 60_000)
    expect((await admin.get(`/api/threads/${second}`)).status).toBe(404)
    expect((await entriesOf(organizationId, 'retention.applied')).length).toBe(2)
  })
})

describe('deleting all of one’s chats', () => {
  test("deletes the caller's chats with files, passages and shares; other members' chats stay; audited", async () => {
    const { admin, organizationId } = await org()
    const member = await joinAsMember(t, admin)
    const mine = [await chatWithFile(member.client), await chatWithFile(member.client, 'The canteen opens at noon.')]
    const share = await member.client.post(`/api/threads/${mine[0]!.id}/shares`, {})
    const theirs = await chatWithFile(admin)

    const res = await member.client.request('DELETE', '/api/threads', { all: true })
    expect(res.status).toBe(204)
    expect((await member.client.get('/api/threads')).body.threads).toEqual([])
    for (const chat of mine) await expectGone(chat.file)
    expect((await admin.get(`/api/shares/${share.body.id}`)).body.code).toBe('SHARE_NOT_FOUND')
    expect((await admin.get(`/api/threads/${theirs.id}`)).status).toBe(200)
    await expectKept(theirs.file)

    const [entry] = await entriesOf(organizationId, 'chats.deleted')
    expect(entry).toMatchObject({ actorId: member.id, targetId: member.id })
    expect(JSON.parse(entry!.details)).toEqual({ count: 2, all: true })

    // Nothing left: still fine.
    expect((await member.client.request('DELETE', '/api/threads', { all: true })).status).toBe(204)
    expect((await t.client().request('DELETE', '/api/threads', { all: true })).status).toBe(401)
  }, 60_000)

  test('a chat whose reply is streaming goes too; the reply ends without leaving anything behind', async () => {
    const { admin } = await org()
    const { id, reply } = await chatWithHeldReply(admin)
    expect((await admin.request('DELETE', '/api/threads', { all: true })).status).toBe(204)
    fake.release()
    await readSse(await reply)
    expect(await t.deps.db.select().from(threads).where(eq(threads.id, id))).toEqual([])
    expect(await t.deps.db.select().from(messages).where(eq(messages.threadId, id))).toEqual([])
  }, 60_000)

  test('a body that names neither some chats nor all of them, or both, is refused', async () => {
    const { admin } = await org()
    const id = (await admin.post('/api/threads', {})).body.id as string
    for (const body of [{}, { all: false }, { all: 'yes' }, { ids: [id], all: true }]) {
      const res = await admin.request('DELETE', '/api/threads', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.code).toBe('VALIDATION_FAILED')
    }
    expect((await admin.get(`/api/threads/${id}`)).status).toBe(200)
  })
})
