import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { join } from 'node:path'
import { sourceChunks, sources } from '../../../db/schema'
import { makePdf } from '../../../tests/support/documents'
import { fakeEmbedding, startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { readSse } from '../../../tests/support/sse'
import { BASE_URL, createTestApp, registerOrg, type TestClient } from '../../../tests/support/test-app'
import { processingIdle } from './process'
import { citationOf, queryPhrases, reciprocalRankFusion, searchChunks, sourceNeighbours, sourceQuery } from './retrieve'

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
let client: TestClient
let threadId: string
let otherThreadId: string

/** Filler prose from a vocabulary of its own, so each page is a separate chunk with its own words. */
function filler(seed: number, words: number) {
  const vocabulary = ['river', 'meadow', 'lantern', 'copper', 'violet', 'harbour', 'orchard', 'granite', 'willow', 'ember', 'saddle', 'thistle', 'quartz', 'marble', 'falcon', 'juniper']
  let x = seed
  return Array.from({ length: words }, () => vocabulary[Math.floor(((x = (x * 48271) % 2147483647) / 2147483647) * vocabulary.length)]).join(' ')
}

async function upload(threadIdTo: string, fileName: string, bytes: Uint8Array | string) {
  const form = new FormData()
  form.set('file', new File([typeof bytes === 'string' ? bytes : (bytes as Uint8Array<ArrayBuffer>)], fileName))
  const cookie = client.cookieHeader()
  const res = await t.app.request(`/api/threads/${threadIdTo}/sources/file`, { method: 'POST', headers: { cookie, origin: BASE_URL }, body: form })
  if (res.status !== 201) throw new Error(`upload ${res.status}: ${await res.text()}`)
  return ((await res.json()) as { id: string }).id
}

beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-retrieve', OPENAI_BASE_URL: `${fake.url}/v1` }, localFiles: true })
  client = t.client()
  await registerOrg(client)
  await client.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
  await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
  await client.post('/api/models/permitted', { modelId: 'openai/text-embedding-3-small' })
  threadId = (await client.post('/api/threads', {})).body.id
  otherThreadId = (await client.post('/api/threads', {})).body.id

  // A tiny corpus: a five-page PDF whose third page holds the answer, and two distractors.
  const lines = (seed: number) => filler(seed, 330).match(/.{1,90}(\s|$)/g)!.map((l) => l.trim())
  const pages = [1, 2, 3, 4, 5].map((n) => lines(n * 7))
  pages[2]!.splice(5, 0, 'The annual maintenance budget for the turbine is 40,000 euros.')
  await upload(threadId, 'plant.pdf', makePdf(pages))
  await upload(threadId, 'canteen.md', `# Canteen\n\n${filler(99, 200)}\n\n## Prices\n\nCoffee costs one euro. ${filler(98, 100)}`)
  await upload(threadId, 'fleet.txt', `${filler(77, 300)}\n\nThe turbine of the ferry was replaced in spring.`)
  // The same answer in another chat must never be found from this one.
  await upload(otherThreadId, 'leak.txt', 'The annual maintenance budget for the turbine is 99,999 euros.')
  await processingIdle()
})
afterAll(async () => {
  await t.close()
  fake.close()
})

describe('hybrid retrieval', () => {
  test('the chunk holding the query’s words ranks first, with its page, in every mode', async () => {
    const query = 'What is the maintenance budget of the turbine?'
    const vector = Float32Array.from(fakeEmbedding(query))
    const model = 'openai/text-embedding-3-small'
    for (const mode of [{ text: query, vector, embeddingModel: model }, { text: query }, { text: '', vector, embeddingModel: model }]) {
      const results = await searchChunks(t.deps.db, threadId, mode)
      expect(results[0]).toMatchObject({ sourceName: 'plant.pdf', page: 3 })
      expect(results[0]!.content).toContain('40,000 euros')
      // The other chat's file holds the same words and is never found from this one.
      expect(results.map((c) => c.sourceName)).not.toContain('leak.txt')
      expect((await searchChunks(t.deps.db, otherThreadId, mode)).map((c) => c.sourceName)).toEqual(['leak.txt'])
    }
  })

  test('sourceQuery returns the passages for the model with the citation to use', async () => {
    const result = await sourceQuery(t.deps, threadId, 'turbine maintenance budget')
    expect(result.chunks[0]).toMatchObject({ sourceName: 'plant.pdf', page: 3, pageEnd: 3 })
    expect(result.content).toContain('Cite as: (plant.pdf, p. 3)')
    expect(result.content).toContain('40,000 euros')
    expect(result.content).not.toContain('99,999')
    expect(result.content.length).toBeLessThan(20_000)
    // The query was embedded once, with the organisation's embedding model.
    expect(fake.requests.at(-1)).toMatchObject({ path: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: ['turbine maintenance budget'] } })
  })

  test("a passage's neighbours in its file are read by its id, only from the chats that may search the file", async () => {
    const found = await sourceQuery(t.deps, threadId, 'turbine maintenance budget')
    const id = /Passage id: (\S+)/.exec(found.content)![1]!
    expect(id).toBe(`${found.chunks[0]!.sourceId}:${found.chunks[0]!.seq + 1}`)
    const near = await sourceNeighbours(t.deps, threadId, id)
    const seq = found.chunks[0]!.seq
    expect(near.chunks.map((c) => c.seq)).toEqual([seq - 1, seq, seq + 1].filter((n) => n >= 0))
    expect(near.chunks.every((c) => c.sourceName === 'plant.pdf')).toBe(true)
    expect(near.content).toContain('40,000 euros')
    expect(near.content).toContain(`Cite as: ${citationOf(near.chunks[0]!)}`)
    // The first passage of a file has no predecessor.
    expect((await sourceNeighbours(t.deps, threadId, `${found.chunks[0]!.sourceId}:1`)).chunks.map((c) => c.seq)).toEqual([0, 1])
    // Another chat, a made-up or malformed id: nothing.
    for (const [thread, other] of [[otherThreadId, id], [threadId, `${found.chunks[0]!.sourceId}:9999`], [threadId, 'nonsense'], [threadId, "x'; DROP TABLE sources; --:1"]] as const) {
      const none = await sourceNeighbours(t.deps, thread, other)
      expect(none.chunks).toEqual([])
      expect(none.content).toContain('No passage with the id')
    }
  })

  test('a configured reranker orders the fused candidates; when it fails or answers nonsense, the fused order stays', async () => {
    // A Cohere-style rerank endpoint on 127.0.0.1 that prefers passages about the ferry.
    const seen: Array<{ auth: string | null; body: { model?: string; query: string; documents: string[]; top_n: number } }> = []
    let mode: 'ok' | 'down' | 'nonsense' = 'ok'
    const server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      async fetch(req) {
        const body = (await req.json()) as (typeof seen)[number]['body']
        seen.push({ auth: req.headers.get('authorization'), body })
        if (mode === 'down') return new Response('overloaded', { status: 503 })
        if (mode === 'nonsense') return Response.json({ results: [{ index: 99, relevance_score: 1 }, { index: 'x' }] })
        const results = body.documents.map((d, index) => ({ index, relevance_score: d.includes('ferry') ? 0.9 : 0.1 / (index + 1) }))
        return Response.json({ id: 'r1', results: results.sort((a, b) => b.relevance_score - a.relevance_score).slice(0, body.top_n) })
      },
    })
    try {
      const deps = { ...t.deps, config: { ...t.deps.config, rerank: { url: `http://127.0.0.1:${server.port}/v1/rerank`, model: 'rerank-test', apiKey: 'rk-1' } } }
      const plain = await sourceQuery(t.deps, threadId, 'turbine maintenance budget', { k: 3 })
      expect(plain.chunks[0]!.sourceName).toBe('plant.pdf')

      const reranked = await sourceQuery(deps, threadId, 'turbine maintenance budget', { k: 3 })
      expect(reranked.chunks[0]!.sourceName).toBe('fleet.txt')
      expect(reranked.chunks.length).toBeLessThanOrEqual(3)
      expect(seen[0]).toMatchObject({ auth: 'Bearer rk-1', body: { model: 'rerank-test', query: 'turbine maintenance budget', top_n: 3 } })
      // More candidates than passages kept, each with its heading path, none of another chat.
      expect(seen[0]!.body.documents.length).toBeGreaterThan(3)
      expect(seen[0]!.body.documents.join('\n')).not.toContain('99,999')

      for (const m of ['down', 'nonsense'] as const) {
        mode = m
        const kept = await sourceQuery(deps, threadId, 'turbine maintenance budget', { k: 3 })
        expect(kept.chunks.map((c) => c.id), m).toEqual(plain.chunks.map((c) => c.id))
      }
    } finally {
      server.stop(true)
    }
  })

  test('only ready sources of the thread are searched; a chat without them says so', async () => {
    const [plant] = await t.deps.db.select().from(sources).where(eq(sources.name, 'plant.pdf'))
    await t.deps.db.update(sources).set({ status: 'failed' }).where(eq(sources.id, plant!.id))
    const result = await sourceQuery(t.deps, threadId, 'turbine maintenance budget')
    expect(result.chunks.map((c) => c.sourceName)).not.toContain('plant.pdf')
    await t.deps.db.update(sources).set({ status: 'ready' }).where(eq(sources.id, plant!.id))

    const empty = (await client.post('/api/threads', {})).body.id
    expect(await sourceQuery(t.deps, empty, 'anything')).toEqual({ content: 'This chat has no processed files to search.', chunks: [] })
  })

  test('chunks embedded with another model (or length) are not compared, keyword search still finds them', async () => {
    const [fleet] = await t.deps.db.select().from(sources).where(eq(sources.name, 'fleet.txt'))
    await t.deps.db.update(sources).set({ embeddingModel: 'mistral/mistral-embed', dimensions: 3 }).where(eq(sources.id, fleet!.id))
    await t.deps.db.update(sourceChunks).set({ embedding: new Float32Array([1, 0, 0]) }).where(eq(sourceChunks.sourceId, fleet!.id))
    const vector = Float32Array.from(fakeEmbedding('ferry replaced spring'))
    const byVector = await searchChunks(t.deps.db, threadId, { text: '', vector, embeddingModel: 'openai/text-embedding-3-small' })
    expect(byVector.length).toBeGreaterThan(0)
    expect(byVector.map((c) => c.sourceName)).not.toContain('fleet.txt')
    const hybrid = await searchChunks(t.deps.db, threadId, { text: 'ferry replaced spring', vector, embeddingModel: 'openai/text-embedding-3-small' })
    expect(hybrid.find((c) => c.sourceName === 'fleet.txt')).toMatchObject({ page: null, seq: 0 })
  })
})

describe('the source_query tool in a chat', () => {
  const send = (thread: string, content: string) =>
    t.app.request(`/api/threads/${thread}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader(), origin: BASE_URL },
      body: JSON.stringify({ content }),
    })

  test('is offered in a chat with ready files, runs over them and hands the model passages to cite', async () => {
    fake.reset()
    const res = await send(threadId, '[[fake:tool=source_query:{"query":"turbine maintenance budget"}]] What is the budget?')
    expect(res.status).toBe(200)
    const events = await readSse(res)
    const result = events.find((e) => e.event === 'tool_result')
    expect(result?.data).toMatchObject({ name: 'source_query', isError: false })
    expect(result!.data.result).toContain('Cite as: (plant.pdf, p. 3)')
    // The chat shows the cited passage: its data carries the citation and the passage's text.
    const cited = result!.data.data.passages.find((p: { citation: string }) => p.citation === '(plant.pdf, p. 3)')
    expect(cited).toMatchObject({ sourceName: 'plant.pdf', page: 3 })
    expect(cited.text).toContain('The annual maintenance budget for the turbine is 40,000 euros.')
    const chat = fake.requests.filter((r) => r.path.endsWith('/chat/completions'))
    expect(chat[0]!.body.tools.map((x: { function: { name: string } }) => x.function.name)).toContain('source_query')
  })

  test('with a passage id instead of a query, the model reads the passages around it', async () => {
    const found = await sourceQuery(t.deps, threadId, 'turbine maintenance budget')
    const id = /Passage id: (\S+)/.exec(found.content)![1]!
    fake.reset()
    const res = await send(threadId, `[[fake:tool=source_query:{"passage":"${id}"}]] What comes before and after?`)
    const result = (await readSse(res)).find((e) => e.event === 'tool_result')
    expect(result?.data).toMatchObject({ name: 'source_query', isError: false })
    expect(result!.data.result).toContain(`Passage ${id} with the passages before and after it`)
    expect(result!.data.data.passages.length).toBeGreaterThanOrEqual(2)
    // Neither a query nor a passage, or both: the model is told what to send.
    const bad = await send(threadId, '[[fake:tool=source_query:{}]] Hm?')
    const refused = (await readSse(bad)).find((e) => e.event === 'tool_result')
    expect(refused?.data).toMatchObject({ name: 'source_query', isError: true })
  })

  test('is not offered in a chat without ready files', async () => {
    fake.reset()
    const empty = (await client.post('/api/threads', {})).body.id
    const res = await send(empty, 'Hello')
    await readSse(res)
    const chat = fake.requests.find((r) => r.path.endsWith('/chat/completions'))
    expect((chat!.body.tools ?? []).map((x: { function: { name: string } }) => x.function.name)).not.toContain('source_query')
  })
})

describe('pieces', () => {
  test('the phrases a query names exactly: quoted words and words joined as in names, paths and addresses', () => {
    expect(queryPhrases('What does asn1_read_value return for user.mime_type and /usr/share/mime?')).toEqual(['asn1 read value', 'user mime type', 'usr share mime'])
    expect(queryPhrases('Where is „Öffnungszeiten des Büros“ or "NEAR(turbine) OR x"?')).toEqual(['offnungszeiten des buros', 'near turbine or x'])
    // A single word is no phrase, an abbreviation neither, nor a quotation of more than eight words; no more than four.
    expect(queryPhrases('"budget" e-mail a.b c_d e.g. z.B. and/or u.a. d.h.')).toEqual(['e mail'])
    expect(queryPhrases('"one two three four five six seven eight nine" x.y')).toEqual([])
    expect(queryPhrases('one_one two_two three_three four_four five_five')).toEqual(['one one', 'two two', 'three three', 'four four'])
    expect(queryPhrases('the of and')).toEqual([])
    expect(queryPhrases('a'.repeat(5000) + '.b')).toEqual(['a'.repeat(5000) + ' b'])
  })

  test('reciprocal rank fusion favours what both lists rank high', () => {
    const scores = reciprocalRankFusion([[1, 2, 3], [3, 1, 4]])
    const order = [...scores].sort((a, b) => b[1] - a[1]).map(([id]) => id)
    expect(order).toEqual([1, 3, 2, 4])
  })

  test('citations name the source and the page, the pages, or the chunk', () => {
    expect(citationOf({ sourceName: 'a.pdf', page: 4, pageEnd: 4, seq: 0 })).toBe('(a.pdf, p. 4)')
    expect(citationOf({ sourceName: 'a.pdf', page: 4, pageEnd: 5, seq: 0 })).toBe('(a.pdf, pp. 4–5)')
    expect(citationOf({ sourceName: 'notes.md', page: null, pageEnd: null, seq: 2 })).toBe('(notes.md, chunk 3)')
  })
})
