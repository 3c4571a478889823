import { afterAll, beforeAll, expect, test } from 'bun:test'
import { eq, inArray } from 'drizzle-orm'
import { collections, sourceChunks, sources } from '../../../db/schema'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { createTestApp, enableOpenAiModels, registerOrg } from '../../../tests/support/test-app'
import { keywordSearch } from './retrieve'

// Its own app (and database): keyword search counts a database's chunks at most once a minute, and
// this test needs a large one from the start.
let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-keywords', OPENAI_BASE_URL: `${fake.url}/v1` } })
})
afterAll(async () => {
  await t.close()
  fake.close()
})

async function org() {
  const admin = t.client()
  await registerOrg(admin)
  await enableOpenAiModels(admin, ['openai/gpt-4.1', 'openai/text-embedding-3-small'])
  return { admin }
}

test('keyword search in a large database: common terms left out, all terms first, only the scope’s chunks, whatever its share', async () => {
  const { admin } = await org()
  const big = (await admin.post('/api/collections', { name: 'Archive' })).body.id as string
  const other = (await admin.post('/api/collections', { name: 'Other' })).body.id as string
  const thread = (await admin.post('/api/threads', {})).body.id as string
  const { organizationId, userId } = (await t.deps.db.query.collections.findFirst({ where: eq(collections.id, big) }))!
  const add = async (owner: { collectionId?: string; threadId?: string }, texts: string[]) => {
    const id = crypto.randomUUID()
    await t.deps.db.insert(sources).values({ id, organizationId, userId, ...owner, name: 'archive.txt', fileName: `${id}.txt`, kind: 'txt', mimeType: 'text/plain', size: 1, fileKey: `k/${id}`, status: 'ready', chunkCount: texts.length, embeddingModel: 'openai/text-embedding-3-small', dimensions: 256 })
    for (let i = 0; i < texts.length; i += 500) {
      await t.deps.db.insert(sourceChunks).values(texts.slice(i, i + 500).map((content, j) => ({ sourceId: id, seq: i + j, content, embedding: new Float32Array(0) })))
    }
  }
  // Every chunk has the common word; a few have one of the rare words, three have both.
  const texts = Array.from({ length: 21_000 }, (_, i) => `ledger entry ${i} common ${i % 400 === 0 ? 'walrus' : ''} ${i % 700 === 0 ? 'zeppelin' : ''}`)
  texts.push('common walrus zeppelin one', 'common walrus zeppelin two', 'common walrus zeppelin three')
  await add({ collectionId: big }, texts)
  // The other scope's chunk has every word, many times: it must never be found from the archive.
  await add({ collectionId: other }, ['common walrus zeppelin walrus zeppelin'])
  await add({ threadId: thread }, ['a chat note about a walrus', 'another chat note'])

  const found = await keywordSearch(t.deps.db, { threadId: null, collectionIds: [big] }, 'common walrus zeppelin', 30)
  const rows = await t.deps.db.select({ id: sourceChunks.id, content: sourceChunks.content, sourceId: sourceChunks.sourceId }).from(sourceChunks).where(inArray(sourceChunks.id, found))
  const byId = new Map(rows.map((r) => [r.id, r]))
  expect(found).toHaveLength(30)
  // The chunks with both rare words come first (the common word says nothing and is left out).
  expect(found.slice(0, 4).map((id) => byId.get(id)!.content).filter((c) => c.includes('walrus') && c.includes('zeppelin'))).toHaveLength(4)
  expect(rows.every((r) => !r.content.includes('walrus zeppelin walrus'))).toBe(true)
  // A scope that is a tiny share of the database is ranked within itself.
  const inChat = await keywordSearch(t.deps.db, thread, 'walrus common', 30)
  const chatRows = await t.deps.db.select({ content: sourceChunks.content }).from(sourceChunks).where(inArray(sourceChunks.id, inChat))
  expect(chatRows.map((r) => r.content)).toEqual(['a chat note about a walrus'])
  // A word only the other scope has finds nothing here.
  expect(await keywordSearch(t.deps.db, { threadId: null, collectionIds: [big] }, 'nonexistentword', 30)).toEqual([])
  for (const id of [big, other]) await admin.delete(`/api/collections/${id}`)
}, 120_000)
