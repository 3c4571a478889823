import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq, inArray } from 'drizzle-orm'
import { collections, sourceChunks, sources } from '../../../db/schema'
import { fakeEmbedding, startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { BASE_URL, createTestApp, enableOpenAiModels, registerOrg, type TestClient } from '../../../tests/support/test-app'
import { orphanVectors, vectorsOf } from '../../../tests/support/vectors'
import { processingIdle } from './process'
import { moveStoredVectors, reembedSources, vectorUpkeep } from './reembed'
import { searchChunks, sourceQuery, vectorSearch } from './retrieve'
import { EXACT_MAX, ensureVectorTable, storeVectors } from './vectors'

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>

beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-vectors', OPENAI_BASE_URL: `${fake.url}/v1` }, localFiles: true })
})
afterAll(async () => {
  await t.close()
  fake.close()
})
beforeEach(() => fake.reset())

const SMALL = 'openai/text-embedding-3-small'
const LARGE = 'openai/text-embedding-3-large'

async function org() {
  const admin = t.client()
  await registerOrg(admin)
  const permitted = await enableOpenAiModels(admin, ['openai/gpt-4.1', SMALL, LARGE])
  await admin.put('/api/models/embedding', { id: permitted[1].id })
  return { admin, large: permitted[2].id as string }
}

async function upload(client: TestClient, path: string, fileName: string, text: string) {
  const form = new FormData()
  form.set('file', new File([text], fileName))
  const res = await t.app.request(`/api${path}`, { method: 'POST', headers: { cookie: client.cookieHeader(), origin: BASE_URL }, body: form })
  if (res.status !== 201) throw new Error(`upload ${res.status}: ${await res.text()}`)
  return ((await res.json()) as { id: string }).id
}

const chunkIdsOf = async (sourceIds: string[]) =>
  (await t.deps.db.select({ id: sourceChunks.id }).from(sourceChunks).where(inArray(sourceChunks.sourceId, sourceIds))).map((r) => r.id)

const ANSWER = 'The annual maintenance budget for the turbine is 40,000 euros.'
const LEAK = 'The annual maintenance budget for the turbine is 99,999 euros.'

describe('vectors in the index', () => {
  test('the scope’s passage is found through the index and the exact scan; another chat’s or organisation’s nearer chunk never comes back', async () => {
    const a = await org()
    const b = await org()
    const thread = (await a.admin.post('/api/threads', {})).body.id
    const other = (await a.admin.post('/api/threads', {})).body.id
    const foreign = (await b.admin.post('/api/threads', {})).body.id
    await upload(a.admin, `/threads/${thread}/sources/file`, 'plant.txt', `Canteen prices are posted weekly.\n\n${ANSWER.replace('The annual', 'Every year, the')}`)
    await upload(a.admin, `/threads/${thread}/sources/file`, 'fleet.txt', 'The ferry fleet has three boats.')
    // The query's exact words, so these chunks are nearer than any of the scope's.
    await upload(a.admin, `/threads/${other}/sources/file`, 'leak.txt', LEAK)
    await upload(b.admin, `/threads/${foreign}/sources/file`, 'leak.txt', LEAK)
    await processingIdle()

    const vector = Float32Array.from(fakeEmbedding(LEAK))
    for (const path of ['index', 'exact', undefined] as const) {
      const found = await vectorSearch(t.deps.db, thread, vector, SMALL, 10, { path })
      const rows = await t.deps.db.select({ sourceId: sourceChunks.sourceId, content: sourceChunks.content }).from(sourceChunks).where(inArray(sourceChunks.id, found))
      expect(rows.length).toBe(found.length)
      expect(found.length).toBeGreaterThan(0)
      expect(rows.every((r) => !r.content.includes('99,999'))).toBe(true)
    }
    // Through the index, the nearest of the scope comes first: the plant passage.
    const viaIndex = await vectorSearch(t.deps.db, thread, vector, SMALL, 1, { path: 'index' })
    const [top] = await t.deps.db.select({ content: sourceChunks.content }).from(sourceChunks).where(eq(sourceChunks.id, viaIndex[0]!))
    expect(top!.content).toContain('40,000 euros')
    // The hybrid search as the chat runs it.
    const results = await searchChunks(t.deps.db, thread, { text: LEAK, vector, embeddingModel: SMALL })
    expect(results[0]!.content).toContain('40,000 euros')
    expect(results.map((r) => r.sourceName)).not.toContain('leak.txt')
  }, 30_000)

  test('a scope above the exact-scan size is searched through the index, still only within the scope', async () => {
    // Synthetic rows of an 8-dimensional model (cheap to index): a collection above the exact
    // limit, and a second collection whose vectors are exactly the query.
    const { admin } = await org()
    const big = (await admin.post('/api/collections', { name: 'Big' })).body.id as string
    const { organizationId: orgId, userId } = (await t.deps.db.query.collections.findFirst({ where: eq(collections.id, big) }))!
    const near = (await admin.post('/api/collections', { name: 'Near' })).body.id as string
    const dims = 8
    const model = 'test/tiny'
    let seed = 11
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647
    const unit = (v: number[]) => {
      const n = Math.hypot(...v)
      return Float32Array.from(v.map((x) => x / n))
    }
    const query = unit([1, 0.5, 0, 0, 0, 0, 0, 0.2])
    const add = async (collectionId: string, count: number, vector: () => Float32Array) => {
      const id = crypto.randomUUID()
      await t.deps.db.insert(sources).values({ id, organizationId: orgId, collectionId, userId, name: `${collectionId}.txt`, fileName: `${id}.txt`, kind: 'txt', mimeType: 'text/plain', size: 1, fileKey: `k/${id}`, status: 'ready', chunkCount: count, embeddingModel: model, dimensions: dims })
      const rows = await t.deps.db
        .insert(sourceChunks)
        .values(Array.from({ length: count }, (_, seq) => ({ sourceId: id, seq, content: `row ${seq}`, embedding: new Float32Array(0) })))
        .returning({ id: sourceChunks.id })
      await ensureVectorTable(t.deps.db, dims)
      await t.deps.db.transaction((tx) => storeVectors(tx, rows.map((r) => ({ chunkId: r.id, vector: vector() }))))
      return rows.map((r) => r.id)
    }
    const bigIds = new Set(await add(big, EXACT_MAX + 200, () => unit(Array.from({ length: dims }, () => random() - 0.5))))
    await add(near, 50, () => query)

    const found = await vectorSearch(t.deps.db, { threadId: null, collectionIds: [big] }, query, model, 10)
    expect(found).toHaveLength(10)
    expect(found.every((id) => bigIds.has(id))).toBe(true)
    // Through the index alone the same holds: candidates of other collections are filtered out.
    const viaIndex = await vectorSearch(t.deps.db, { threadId: null, collectionIds: [big] }, query, model, 10, { path: 'index' })
    expect(viaIndex.every((id) => bigIds.has(id))).toBe(true)
    for (const id of [big, near]) expect((await admin.delete(`/api/collections/${id}`)).status).toBe(204)
    expect(await orphanVectors(t.deps.db)).toBe(0)
  }, 60_000)

  test('deleting a file, a chat or a collection removes its vectors; a file uploaded again replaces them', async () => {
    const { admin } = await org()
    const thread = (await admin.post('/api/threads', {})).body.id
    const first = await upload(admin, `/threads/${thread}/sources/file`, 'a.txt', 'Alpha text about cranes.')
    const second = await upload(admin, `/threads/${thread}/sources/file`, 'b.txt', 'Beta text about boats.')
    await processingIdle()
    const firstChunks = await chunkIdsOf([first])
    expect(await vectorsOf(t.deps.db, firstChunks)).toBe(firstChunks.length)
    expect((await admin.delete(`/api/threads/${thread}/sources/${first}`)).status).toBe(204)
    expect(await vectorsOf(t.deps.db, firstChunks)).toBe(0)

    const collection = (await admin.post('/api/collections', { name: 'Manuals' })).body.id
    const v1 = await upload(admin, `/collections/${collection}/files`, 'notes.txt', 'The gate opens at six.')
    await processingIdle()
    const v1Chunks = await chunkIdsOf([v1])
    const v2 = await upload(admin, `/collections/${collection}/files`, 'notes.txt', 'The gate opens at seven.')
    await processingIdle()
    const v2Chunks = await chunkIdsOf([v2])
    expect(await vectorsOf(t.deps.db, v1Chunks)).toBe(0)
    expect(await vectorsOf(t.deps.db, v2Chunks)).toBe(v2Chunks.length)

    const secondChunks = await chunkIdsOf([second])
    expect((await admin.delete(`/api/threads/${thread}`)).status).toBe(204)
    expect(await vectorsOf(t.deps.db, secondChunks)).toBe(0)
    expect((await admin.delete(`/api/collections/${collection}`)).status).toBe(204)
    expect(await vectorsOf(t.deps.db, v2Chunks)).toBe(0)
    expect(await orphanVectors(t.deps.db)).toBe(0)
  }, 30_000)
})

describe('a change of embedding model', () => {
  test('re-embeds every file in the background with progress for the admin; search keeps answering meanwhile', async () => {
    const { admin, large } = await org()
    const thread = (await admin.post('/api/threads', {})).body.id
    const ids = [
      await upload(admin, `/threads/${thread}/sources/file`, 'plant.txt', `Canteen prices are posted weekly.\n\n${ANSWER}`),
      await upload(admin, `/threads/${thread}/sources/file`, 'fleet.txt', 'The ferry fleet has three boats.'),
    ]
    await processingIdle()
    expect((await admin.get('/api/sources/embedding')).body).toEqual({ model: SMALL, files: 2, filesDone: 2, chunks: 2, chunksDone: 2, done: true })

    expect((await admin.put('/api/models/embedding', { id: large })).status).toBe(200)
    expect((await admin.get('/api/sources/embedding')).body).toEqual({ model: LARGE, files: 2, filesDone: 0, chunks: 2, chunksDone: 0, done: false })
    // Before any file is done, the query is embedded with both models and the old vectors answer.
    fake.reset()
    const before = await sourceQuery(t.deps, thread, 'What is the maintenance budget of the turbine?')
    expect(before.chunks[0]!.content).toContain('40,000 euros')
    expect(fake.requests.filter((r) => r.path.endsWith('/embeddings')).map((r) => r.body.model).sort()).toEqual(['text-embedding-3-large', 'text-embedding-3-small'])

    // One file at a time: progress in between.
    fake.reset()
    expect(await reembedSources(t.deps, { limit: 1 })).toBe(1)
    expect((await admin.get('/api/sources/embedding')).body).toMatchObject({ filesDone: 1, chunksDone: 1, done: false })
    const middle = await sourceQuery(t.deps, thread, 'What is the maintenance budget of the turbine?')
    expect(middle.chunks[0]!.content).toContain('40,000 euros')
    fake.reset()

    await vectorUpkeep(t.deps)
    expect((await admin.get('/api/sources/embedding')).body).toEqual({ model: LARGE, files: 2, filesDone: 2, chunks: 2, chunksDone: 2, done: true })
    const rows = await t.deps.db.select({ model: sources.embeddingModel }).from(sources).where(inArray(sources.id, ids))
    expect(rows.map((r) => r.model)).toEqual([LARGE, LARGE])
    expect(fake.requests.filter((r) => r.path.endsWith('/embeddings')).every((r) => r.body.model === 'text-embedding-3-large')).toBe(true)
    // Nothing left to do: another run embeds nothing.
    fake.reset()
    expect(await reembedSources(t.deps)).toBe(0)
    expect(fake.requests).toHaveLength(0)
    const after = await sourceQuery(t.deps, thread, 'What is the maintenance budget of the turbine?')
    expect(after.chunks[0]!.content).toContain('40,000 euros')
    expect(await vectorsOf(t.deps.db, await chunkIdsOf(ids))).toBe(2)
  }, 30_000)

  test('a provider failure leaves the file searchable with its old vectors and tries again later', async () => {
    const { admin, large } = await org()
    const thread = (await admin.post('/api/threads', {})).body.id
    const id = await upload(admin, `/threads/${thread}/sources/file`, 'plant.txt', ANSWER)
    await processingIdle()
    await admin.put('/api/models/embedding', { id: large })
    fake.script({ for: 'embeddings', error: 401 })
    await reembedSources(t.deps)
    const [row] = await t.deps.db.select().from(sources).where(eq(sources.id, id))
    expect(row).toMatchObject({ status: 'ready', embeddingModel: SMALL, lease: null })
    expect(row!.lockedUntil!.getTime()).toBeGreaterThan(Date.now())
    expect((await searchChunks(t.deps.db, thread, { text: 'turbine budget' }))[0]!.content).toContain('40,000')
    // Later, the file is embedded with the new model.
    await reembedSources(t.deps, { now: new Date(Date.now() + 10 * 60_000) })
    expect((await t.deps.db.select({ model: sources.embeddingModel }).from(sources).where(eq(sources.id, id)))[0]!.model).toBe(LARGE)
  }, 30_000)
})

test('vectors of files stored before the index are moved into it', async () => {
  const { admin } = await org()
  const thread = (await admin.post('/api/threads', {})).body.id
  const id = await upload(admin, `/threads/${thread}/sources/file`, 'plant.txt', ANSWER)
  await processingIdle()
  // As a file stored before migration 0027 was: its vector in the chunk row, listed to be moved.
  const [chunk] = await t.deps.db.select({ id: sourceChunks.id }).from(sourceChunks).where(eq(sourceChunks.sourceId, id))
  await t.deps.db.$client.execute({ sql: 'DELETE FROM source_vectors_256 WHERE chunk_id = ?', args: [chunk!.id] })
  await t.deps.db.update(sourceChunks).set({ embedding: Float32Array.from(fakeEmbedding(`plant.txt\n\n${ANSWER}`)) }).where(eq(sourceChunks.id, chunk!.id))
  await t.deps.db.$client.execute({ sql: 'INSERT INTO source_vector_moves (source_id) VALUES (?)', args: [id] })
  expect(await vectorsOf(t.deps.db, [chunk!.id])).toBe(0)

  expect(await moveStoredVectors(t.deps)).toBe(1)
  expect(await vectorsOf(t.deps.db, [chunk!.id])).toBe(1)
  const [moved] = await t.deps.db.select({ embedding: sourceChunks.embedding }).from(sourceChunks).where(eq(sourceChunks.id, chunk!.id))
  expect(moved!.embedding.length).toBe(0)
  expect(await moveStoredVectors(t.deps)).toBe(0)
  const found = await vectorSearch(t.deps.db, thread, Float32Array.from(fakeEmbedding(ANSWER)), SMALL, 5)
  expect(found).toEqual([chunk!.id])
}, 30_000)
