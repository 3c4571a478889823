import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { and, eq, inArray } from 'drizzle-orm'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { deletedFiles, organizations, sourceChunks, sources, threads } from '../../../db/schema'
import { makeDocx, makeDocxBomb, makeLyingDocx, makeMsg, makeOfficeBomb, makePdf, makePptx, makeXlsx } from '../../../tests/support/documents'
import { readSse } from '../../../tests/support/sse'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { BASE_URL, createTestApp, PASSWORD, registerOrg, type TestClient } from '../../../tests/support/test-app'
import { orphanVectors } from '../../../tests/support/vectors'
import type { AppDeps } from '../../lib/context'
import { EMBED_BATCH, LOCK_MS, processingIdle, processSource, releaseSources, resumeSources } from './process'
import { MAX_PAGES } from './parse'
import { FILE_RETRY_MS } from './access'
import { sweepDeletedFiles } from './service'

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
let filesRoot: string
beforeAll(async () => {
  fake = await startFakeLlm()
  // Files on local disk, as the Bun entry keeps them.
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-sources', OPENAI_BASE_URL: `${fake.url}/v1` }, localFiles: true })
  filesRoot = t.filesRoot!
})
afterAll(async () => {
  await processingIdle()
  await t.close()
  fake.close()
})
beforeEach(async () => {
  // Work a previous test started must not consume this test's scripted replies.
  await processingIdle()
  fake.reset()
})

/** A signed-in admin whose organisation has a chat model and an embedding model, and a fresh thread. */
async function setup(opts: { embedding?: boolean } = {}) {
  const client = t.client()
  const org = await registerOrg(client)
  await client.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
  await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
  if (opts.embedding !== false) await client.post('/api/models/permitted', { modelId: 'openai/text-embedding-3-small' })
  const thread = (await client.post('/api/threads', {})).body
  return { client, org, thread: thread as { id: string } }
}

type Upload = { bytes: Uint8Array | string; fileName: string; type?: string; name?: string; description?: string }

/** Uploads a file as a browser would (multipart form, Origin set). */
async function upload(client: TestClient, threadId: string, file: Upload) {
  const form = new FormData()
  const bytes = typeof file.bytes === 'string' ? new TextEncoder().encode(file.bytes) : file.bytes
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], file.fileName, { type: file.type ?? '' }))
  if (file.name !== undefined) form.set('name', file.name)
  if (file.description !== undefined) form.set('description', file.description)
  const res = await t.app.request(`/api/threads/${threadId}/sources/file`, { method: 'POST', headers: { cookie: client.cookieHeader(), origin: BASE_URL }, body: form })
  return { status: res.status, body: (await res.json()) as any }
}

/** Uploads and waits until processing has finished; returns the source as listed. */
async function uploadAndProcess(client: TestClient, threadId: string, file: Upload) {
  const res = await upload(client, threadId, file)
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`)
  await processingIdle()
  const list = await client.get(`/api/threads/${threadId}/sources`)
  return list.body.find((s: { id: string }) => s.id === res.body.id)
}

const chunksOf = (sourceId: string) => t.deps.db.select().from(sourceChunks).where(eq(sourceChunks.sourceId, sourceId)).orderBy(sourceChunks.seq)
const embeddingRequests = () => fake.requests.filter((r) => r.path.endsWith('/embeddings'))

describe('upload and processing, per format', () => {
  test('a PDF: answered at once as processing, then ready with pages; chunks keep their page numbers', async () => {
    const { client, thread } = await setup()
    const pdf = makePdf([['Kontor quarterly report', 'Revenue grew strongly.'], ['Second page about the harbour crane.'], ['Third page: outlook.']])
    const res = await upload(client, thread.id, { bytes: pdf, fileName: 'report.pdf', type: 'application/pdf', description: 'Q3 numbers' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'report.pdf', description: 'Q3 numbers', fileName: 'report.pdf', mimeType: 'application/pdf', size: pdf.length, status: 'processing', error: null, chunks: 0 })
    await processingIdle()
    const detail = await client.get(`/api/threads/${thread.id}`)
    expect(detail.body.sources).toEqual([expect.objectContaining({ id: res.body.id, status: 'ready', pages: 3, chunks: 1, error: null })])
    const [chunk] = await chunksOf(res.body.id)
    expect(chunk).toMatchObject({ page: 1, pageEnd: 3 })
    expect(chunk!.content).toContain('harbour crane')
    // The vector is in the table of its dimension (with the index), not in the chunk's row.
    expect(chunk!.embedding.length).toBe(0)
    const vector = await t.deps.db.$client.execute({ sql: 'SELECT vector_extract(embedding) AS v FROM source_vectors_256 WHERE chunk_id = ?', args: [chunk!.id] })
    expect(JSON.parse(String(vector.rows[0]!.v))).toHaveLength(256)
  })

  test('a DOCX: headings become the heading path of its chunks', async () => {
    const { client, thread } = await setup()
    const long = 'The turbine maintenance schedule is reviewed every spring by the plant team. '.repeat(60)
    const docx = makeDocx([{ heading: 1, text: 'Operations' }, 'Intro text.', { heading: 2, text: 'Maintenance' }, long, { heading: 2, text: 'Safety' }, 'Wear a helmet.'])
    const source = await uploadAndProcess(client, thread.id, { bytes: docx, fileName: 'handbook.docx', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', name: 'Handbook' })
    expect(source).toMatchObject({ name: 'Handbook', status: 'ready', pages: null })
    const chunks = await chunksOf(source.id)
    expect(chunks.length).toBeGreaterThan(1)
    expect(chunks.map((c) => c.headingPath)).toContain('Operations > Maintenance')
    expect(chunks.find((c) => c.content.includes('helmet'))!.headingPath).toMatch(/Operations > (Maintenance|Safety)/)
  })

  test('TXT, Markdown, CSV and HTML', async () => {
    const { client, thread } = await setup()
    const txt = await uploadAndProcess(client, thread.id, { bytes: 'Plain notes.\n\nThe boiler pressure is 3 bar.', fileName: 'notes.txt', type: 'text/plain' })
    const md = await uploadAndProcess(client, thread.id, {
      bytes: '# Guide\n\nWelcome.\n\n## Setup\n\nRun the installer.\n\n```\n# not a heading\n```\n',
      fileName: 'guide.md',
    })
    const csv = await uploadAndProcess(client, thread.id, { bytes: 'city,population\nBerlin,3700000\n"Frankfurt, Main",770000\n', fileName: 'cities.csv', type: 'application/vnd.ms-excel' })
    const html = await uploadAndProcess(client, thread.id, {
      bytes: '<html><head><title>T</title><style>p{}</style></head><body><h1>Menu</h1><script>alert(1)</script><p>Soup &amp; bread</p><h2>Drinks</h2><p>Tea</p></body></html>',
      fileName: 'menu.html',
      type: 'text/html',
    })
    for (const s of [txt, md, csv, html]) expect(s).toMatchObject({ status: 'ready', error: null })
    expect([txt.mimeType, md.mimeType, csv.mimeType, html.mimeType]).toEqual(['text/plain', 'text/markdown', 'text/csv', 'text/html'])

    const [mdChunk] = await chunksOf(md.id)
    expect(mdChunk!.content).toContain('# not a heading')
    expect(mdChunk!.headingPath).toBe('Guide')
    const [csvChunk] = await chunksOf(csv.id)
    expect(csvChunk!.content).toBe('city,population\nBerlin,3700000\n"Frankfurt, Main",770000')
    const [htmlChunk] = await chunksOf(html.id)
    expect(htmlChunk!.content).toBe('# Menu\n\nSoup & bread\n\n## Drinks\n\nTea')
    expect(htmlChunk!.content).not.toContain('alert')
  })

  test('a long CSV repeats its header row in every chunk', async () => {
    const { client, thread } = await setup()
    const rows = Array.from({ length: 400 }, (_, i) => `item-${i},${i * 3},warehouse ${i % 7}`)
    const source = await uploadAndProcess(client, thread.id, { bytes: ['sku,stock,location', ...rows].join('\n'), fileName: 'stock.csv', type: 'text/csv' })
    const chunks = await chunksOf(source.id)
    expect(chunks.length).toBeGreaterThan(2)
    for (const c of chunks) expect(c.content.startsWith('sku,stock,location\n')).toBe(true)
  })
})

describe('PowerPoint, Excel and e-mail files', () => {
  const PPTX_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation'

  test('each is stored with its type and read into passages; slides are pages, sheets and subjects headings', async () => {
    const { client, thread } = await setup()
    const deck = makePptx([
      { title: 'Harbour project', boxes: [['Kick-off in March.']] },
      { title: 'Crane', boxes: [['The new crane lifts 42 tonnes.']], notes: 'Mention the safety review.' },
    ])
    const pptx = await uploadAndProcess(client, thread.id, { bytes: deck, fileName: 'harbour.pptx', type: PPTX_TYPE })
    expect(pptx).toMatchObject({ status: 'ready', error: null, mimeType: PPTX_TYPE, pages: 2, chunks: 1 })
    const [slides] = await chunksOf(pptx.id)
    expect(slides).toMatchObject({ page: 1, pageEnd: 2, headingPath: 'Slide 1: Harbour project' })
    expect(slides!.content).toBe('# Slide 1: Harbour project\n\nKick-off in March.\n\n# Slide 2: Crane\n\nThe new crane lifts 42 tonnes.\n\nSpeaker notes: Mention the safety review.')

    const book = makeXlsx([{ name: 'Fleet', rows: [['Ship', 'Built'], ['Greta', 1998], ['Hanna', { date: 46082 }]] }])
    const xlsx = await uploadAndProcess(client, thread.id, { bytes: book, fileName: 'fleet.xlsx' })
    expect(xlsx).toMatchObject({ status: 'ready', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', pages: null })
    expect((await chunksOf(xlsx.id)).map((c) => [c.headingPath, c.content])).toEqual([
      ['Fleet', '# Fleet\n\n| Ship | Built |\n| --- | --- |\n| Greta | 1998 |\n| Hanna | 2026-03-01 |'],
    ])

    const eml = 'From: Mia <mia@acme.test>\r\nTo: tom@acme.test\r\nSubject: Ferry timetable\r\nDate: Tue, 3 Mar 2026 08:00:00 +0100\r\n\r\nThe ferry leaves at 6:40.\r\n'
    const mail = await uploadAndProcess(client, thread.id, { bytes: eml, fileName: 'ferry.eml', type: 'message/rfc822' })
    expect(mail).toMatchObject({ status: 'ready', mimeType: 'message/rfc822' })
    expect((await chunksOf(mail.id))[0]).toMatchObject({
      headingPath: 'Ferry timetable',
      content: '# Ferry timetable\n\nFrom: Mia <mia@acme.test>\nTo: tom@acme.test\nDate: Tue, 3 Mar 2026 08:00:00 +0100\n\nThe ferry leaves at 6:40.',
    })

    const item = await makeMsg({ subject: 'Pier lights', from: { name: 'Tom', address: 'tom@acme.test' }, to: [{ name: 'Mia', address: 'mia@acme.test' }], date: new Date('2026-03-04T12:00:00Z'), body: 'Pier lights are switched on at dusk.' })
    const msg = await uploadAndProcess(client, thread.id, { bytes: item, fileName: 'pier.msg' })
    expect(msg).toMatchObject({ status: 'ready', mimeType: 'application/vnd.ms-outlook' })
    expect((await chunksOf(msg.id))[0]!.content).toContain('# Pier lights\n\nFrom: Tom <tom@acme.test>\nTo: Mia <mia@acme.test>\nDate: Wed, 04 Mar 2026 12:00:00 GMT\n\nPier lights are switched on at dusk.')
  })

  test('a renamed file is refused with 415; a zip bomb fails with a reason before anything is embedded', async () => {
    const { client, thread } = await setup()
    const docx = makeDocx(['A letter.'])
    for (const file of [
      { bytes: docx, fileName: 'letter.pptx', type: PPTX_TYPE },
      { bytes: makePptx([{ title: 'Deck' }]), fileName: 'deck.xlsx' },
      { bytes: 'Not a mail at all.', fileName: 'note.eml' },
      { bytes: docx, fileName: 'letter.msg' },
    ]) {
      expect((await upload(client, thread.id, file)).body).toMatchObject({ status: 415, code: 'UNSUPPORTED_FILE_TYPE' })
    }
    expect((await client.get(`/api/threads/${thread.id}/sources`)).body).toEqual([])
    for (const kind of ['pptx', 'xlsx'] as const) {
      expect(await uploadAndProcess(client, thread.id, { bytes: makeOfficeBomb(kind, 60), fileName: `bomb.${kind}` })).toMatchObject({ status: 'failed', error: 'SOURCE_TOO_LARGE', chunks: 0 })
    }
    expect(embeddingRequests()).toHaveLength(0)
  }, 20_000)

  test('source_query in a chat finds a slide’s text and cites the slide as its page', async () => {
    const { client, thread } = await setup()
    const deck = makePptx([
      { title: 'Agenda', boxes: [[`Welcome and introductions. ${'General remarks about the meeting and its participants. '.repeat(60)}`]] },
      { title: 'Dredging', boxes: [['The harbour basin is dredged to a depth of 14 metres every autumn.']] },
    ])
    await uploadAndProcess(client, thread.id, { bytes: deck, fileName: 'harbour.pptx' })
    const res = await t.app.request(`/api/threads/${thread.id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader(), origin: BASE_URL },
      body: JSON.stringify({ content: '[[fake:tool=source_query:{"query":"depth harbour basin dredged"}]] How deep is the basin?' }),
    })
    expect(res.status).toBe(200)
    const result = (await readSse(res)).find((e) => e.event === 'tool_result')
    expect(result?.data).toMatchObject({ name: 'source_query', isError: false })
    expect(result!.data.result).toContain('Cite as: (harbour.pptx, p. 2)')
    const cited = result!.data.data.passages.find((p: { citation: string }) => p.citation === '(harbour.pptx, p. 2)')
    expect(cited).toMatchObject({ sourceName: 'harbour.pptx', page: 2 })
    expect(cited.text).toContain('# Slide 2: Dredging')
    expect(cited.text).toContain('dredged to a depth of 14 metres')
  })
})

describe('refused uploads', () => {
  test('files that are not what they claim, or of another type, are refused with 415', async () => {
    const { client, thread } = await setup()
    const pdf = makePdf([['hello']])
    const cases: Upload[] = [
      { bytes: 'just text, not a PDF', fileName: 'fake.pdf', type: 'application/pdf' },
      { bytes: pdf, fileName: 'report.docx' },
      { bytes: makeDocx(['x']), fileName: 'sheet.pdf' },
      { bytes: pdf, fileName: 'notes.txt', type: 'text/plain' },
      { bytes: new Uint8Array([0x68, 0x69, 0x00, 0x21]), fileName: 'nul.txt' },
      { bytes: new Uint8Array([0xc3, 0x28, 0x41]), fileName: 'latin.md' },
      { bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]), fileName: 'photo.png', type: 'image/png' },
      { bytes: pdf, fileName: 'report.pdf', type: 'image/png' },
      { bytes: 'text', fileName: 'archive', type: 'application/zip' },
    ]
    for (const file of cases) {
      const res = await upload(client, thread.id, file)
      expect({ file: file.fileName, status: res.status, code: res.body.code }).toEqual({ file: file.fileName, status: 415, code: 'UNSUPPORTED_FILE_TYPE' })
    }
    // A zip without word/document.xml is no DOCX.
    const { zipSync } = await import('fflate')
    const zip = zipSync({ 'readme.txt': new TextEncoder().encode('hi') })
    expect((await upload(client, thread.id, { bytes: zip, fileName: 'x.docx' })).body.code).toBe('UNSUPPORTED_FILE_TYPE')
    expect((await client.get(`/api/threads/${thread.id}/sources`)).body).toEqual([])
  })

  test('an empty file, a missing file, a JSON body and overlong fields are refused', async () => {
    const { client, thread } = await setup()
    expect((await upload(client, thread.id, { bytes: '', fileName: 'empty.txt' })).body).toMatchObject({ status: 400, code: 'FILE_EMPTY' })
    const form = new FormData()
    form.set('name', 'no file')
    const res = await t.app.request(`/api/threads/${thread.id}/sources/file`, { method: 'POST', headers: { cookie: client.cookieHeader(), origin: BASE_URL }, body: form })
    expect(await res.json()).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', fields: { file: 'File is required' } })
    const json = await client.post(`/api/threads/${thread.id}/sources/file`, { file: 'x' })
    expect(json).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE' } })
    const long = await upload(client, thread.id, { bytes: 'x', fileName: 'a.txt', name: 'n'.repeat(201), description: 'd'.repeat(1001) })
    expect(long.body).toMatchObject({ code: 'VALIDATION_FAILED', fields: { name: expect.any(String), description: expect.any(String) } })
  })

  test('a cross-site form post is refused (CSRF)', async () => {
    const { client, thread } = await setup()
    const form = new FormData()
    form.set('file', new File(['hello'], 'a.txt'))
    const res = await t.app.request(`/api/threads/${thread.id}/sources/file`, { method: 'POST', headers: { cookie: client.cookieHeader(), origin: 'https://evil.example' }, body: form })
    expect(res.status).toBe(403)
  })

  test('20 MB is accepted; one byte more is refused with 413 while it streams in, without reading the rest', async () => {
    const { client, thread } = await setup()
    const MB20 = 20 * 1024 * 1024
    const send = async (fileBytes: number) => {
      const boundary = '----kontor-test-boundary'
      const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`)
      const foot = new TextEncoder().encode(`\r\n--${boundary}--\r\n`)
      const slice = new Uint8Array(256 * 1024).fill(0x61)
      let sent = 0
      let pulled = 0
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled === 0) controller.enqueue(head)
          if (sent >= fileBytes) {
            if (pulled !== -1) controller.enqueue(foot)
            pulled = -1
            controller.close()
            return
          }
          const part = slice.subarray(0, Math.min(slice.length, fileBytes - sent))
          sent += part.length
          pulled++
          controller.enqueue(part)
        },
      })
      // No Content-Length: the limit must hold while reading, not only on the declared length.
      const res = await t.app.request(`/api/threads/${thread.id}/sources/file`, {
        method: 'POST',
        headers: { cookie: client.cookieHeader(), origin: BASE_URL, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: 'half',
      } as RequestInit)
      return { status: res.status, body: (await res.json()) as any, sent }
    }
    const over = await send(MB20 + 1)
    expect(over).toMatchObject({ status: 413, body: { code: 'FILE_TOO_LARGE' } })
    const huge = await send(200 * MB20)
    expect(huge.status).toBe(413)
    expect(huge.sent).toBeLessThan(MB20 + 2 * 1024 * 1024)
    const exact = await send(MB20)
    expect(exact).toMatchObject({ status: 201, body: { size: MB20, status: 'processing' } })
    // A declared length over the limit is refused before anything is read.
    const declared = await t.app.request(`/api/threads/${thread.id}/sources/file`, {
      method: 'POST',
      headers: { cookie: client.cookieHeader(), origin: BASE_URL, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(MB20 * 2) },
      body: 'x',
    })
    expect(declared.status).toBe(413)
    await processingIdle()
    // 20 MB of text is more than can be embedded: it fails with a reason, it is not cut silently.
    const list = (await client.get(`/api/threads/${thread.id}/sources`)).body
    expect(list).toEqual([expect.objectContaining({ size: MB20, status: 'failed', error: 'SOURCE_TOO_LARGE' })])
  }, 30_000)

  test('an upload cut off half-way stores nothing, whether the body ends early or the connection drops; the server goes on answering', async () => {
    const { client, thread } = await setup()
    const boundary = '----kontor-cut-boundary'
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.txt"\r\nContent-Type: text/plain\r\n\r\nThe first half of a file about otters`
    const headers = { cookie: client.cookieHeader(), origin: BASE_URL, 'content-type': `multipart/form-data; boundary=${boundary}` }
    const storedFiles = () => (existsSync(join(filesRoot, 'sources')) ? readdirSync(join(filesRoot, 'sources'), { recursive: true }).map(String) : [])
    const before = storedFiles()

    // The body ends before the form's closing boundary.
    const ended = await t.app.request(`/api/threads/${thread.id}/sources/file`, { method: 'POST', headers, body: head })
    expect(await ended.json()).toEqual({ status: 400, code: 'UPLOAD_INCOMPLETE', message: expect.stringContaining('broke off') })
    // Reading the body fails half-way (what a dropped connection looks like to the app).
    const dropped = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(head))
        setTimeout(() => controller.error(new Error('connection reset')), 5)
      },
    })
    const broken = await t.app.request(`/api/threads/${thread.id}/sources/file`, { method: 'POST', headers, body: dropped, duplex: 'half' } as RequestInit)
    expect(await broken.json()).toMatchObject({ status: 400, code: 'UPLOAD_INCOMPLETE' })

    // A real client that closes its connection while the body is still coming.
    let answered!: (status: number) => void
    const answer = new Promise<number>((resolve) => (answered = resolve))
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: async (request) => { const res = await t.app.fetch(request); answered(res.status); return res } })
    try {
      const socket = await Bun.connect({ hostname: '127.0.0.1', port: server.port!, socket: { data() {} } })
      socket.write(
        `POST /api/threads/${thread.id}/sources/file HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${BASE_URL}\r\nCookie: ${headers.cookie}\r\n` +
          `Content-Type: ${headers['content-type']}\r\nContent-Length: 5000000\r\n\r\n${head}`,
      )
      socket.end()
      expect(await answer).toBe(400)
    } finally {
      server.stop(true)
    }

    await processingIdle()
    expect((await client.get(`/api/threads/${thread.id}/sources`)).body).toEqual([])
    expect(await t.deps.db.select().from(sourceChunks).where(inArray(sourceChunks.sourceId, t.deps.db.select({ id: sources.id }).from(sources).where(eq(sources.threadId, thread.id))))).toEqual([])
    expect(storedFiles()).toEqual(before)
    // The next upload works.
    expect(await uploadAndProcess(client, thread.id, { bytes: 'The whole file about otters.', fileName: 'whole.txt' })).toMatchObject({ status: 'ready' })
  })

  test('a thread takes 20 files; the 21st is refused with 409', async () => {
    const { client, thread } = await setup()
    for (let i = 0; i < 20; i++) expect((await upload(client, thread.id, { bytes: `file ${i}`, fileName: `f${i}.txt` })).status).toBe(201)
    const res = await upload(client, thread.id, { bytes: 'one too many', fileName: 'f20.txt' })
    expect(res).toMatchObject({ status: 409, body: { code: 'TOO_MANY_SOURCES' } })
    await processingIdle()
    expect((await client.get(`/api/threads/${thread.id}/sources`)).body).toHaveLength(20)
  }, 30_000)

  test('racing uploads cannot pass the limit of 20', async () => {
    const { client, thread } = await setup()
    for (let i = 0; i < 17; i++) await upload(client, thread.id, { bytes: `file ${i}`, fileName: `f${i}.txt` })
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => upload(client, thread.id, { bytes: `race ${i}`, fileName: `r${i}.txt` })))
    expect(results.filter((r) => r.status === 201)).toHaveLength(3)
    expect(results.filter((r) => r.status === 409)).toHaveLength(3)
    await processingIdle()
    expect((await client.get(`/api/threads/${thread.id}/sources`)).body).toHaveLength(20)
  }, 30_000)

  test('without an embedding model the upload is refused and the user is told to ask an admin', async () => {
    const { client, thread } = await setup({ embedding: false })
    const res = await upload(client, thread.id, { bytes: 'hello', fileName: 'a.txt' })
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ code: 'EMBEDDING_MODEL_REQUIRED', status: 409, message: expect.stringContaining('ask an admin') })
  })

  test("another user's thread is not found: upload, list and delete", async () => {
    const { client, thread } = await setup()
    const source = await uploadAndProcess(client, thread.id, { bytes: 'private notes', fileName: 'p.txt' })
    const invite = await client.post('/api/invites', { email: `c-${crypto.randomUUID().slice(0, 6)}@acme.test`, role: 'user' })
    const colleague = t.client()
    await colleague.post('/api/invites/accept', { token: new URL(invite.body.acceptUrl).searchParams.get('token'), name: 'C', password: PASSWORD, passwordConfirmation: PASSWORD })
    expect((await upload(colleague, thread.id, { bytes: 'x', fileName: 'x.txt' })).body).toMatchObject({ status: 404, code: 'THREAD_NOT_FOUND' })
    expect((await colleague.get(`/api/threads/${thread.id}/sources`)).status).toBe(404)
    expect((await colleague.delete(`/api/threads/${thread.id}/sources/${source.id}`)).body.code).toBe('THREAD_NOT_FOUND')
    // Nor can a source be reached through one's own thread.
    const own = (await colleague.post('/api/threads', {})).body
    expect((await colleague.delete(`/api/threads/${own.id}/sources/${source.id}`)).body.code).toBe('SOURCE_NOT_FOUND')
    expect((await colleague.patch(`/api/threads/${thread.id}/sources/${source.id}`, { name: 'Mine now' })).body.code).toBe('THREAD_NOT_FOUND')
    expect((await colleague.patch(`/api/threads/${own.id}/sources/${source.id}`, { name: 'Mine now' })).body.code).toBe('SOURCE_NOT_FOUND')
    expect((await client.get(`/api/threads/${thread.id}/sources`)).body).toMatchObject([{ name: 'p.txt' }])
  })
})

describe("a file's name and description", () => {
  test('are given at upload or changed later, and listed so', async () => {
    const { client, thread } = await setup()
    const given = await upload(client, thread.id, { bytes: 'Quarterly numbers', fileName: 'q3.txt', name: '  Q3 report ', description: 'Numbers for the board' })
    expect(given.body).toMatchObject({ name: 'Q3 report', description: 'Numbers for the board', fileName: 'q3.txt' })
    const source = await uploadAndProcess(client, thread.id, { bytes: 'The launch moves to May.', fileName: 'notes.txt' })
    expect(source).toMatchObject({ name: 'notes.txt', description: null })

    const renamed = await client.patch(`/api/threads/${thread.id}/sources/${source.id}`, { name: ' Launch notes ', description: 'From the Monday meeting' })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({ id: source.id, name: 'Launch notes', description: 'From the Monday meeting', fileName: 'notes.txt', status: 'ready' })
    expect((await client.patch(`/api/threads/${thread.id}/sources/${source.id}`, { description: '' })).body).toMatchObject({ name: 'Launch notes', description: null })
    expect((await client.patch(`/api/threads/${thread.id}/sources/${source.id}`, {})).body).toMatchObject({ name: 'Launch notes' })
    const listed = (await client.get(`/api/threads/${thread.id}/sources`)).body as Array<{ name: string }>
    expect(listed.map((s) => s.name)).toEqual(['Q3 report', 'Launch notes'])
  })

  test('a blank or overlong name, an overlong description or another type is refused, and nothing changes', async () => {
    const { client, thread } = await setup()
    const source = await uploadAndProcess(client, thread.id, { bytes: 'text', fileName: 'a.txt' })
    const cases: Array<[unknown, string]> = [
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ name: 7 }, 'name'],
      [{ description: 'x'.repeat(1001) }, 'description'],
      [{ description: 12 }, 'description'],
    ]
    for (const [body, field] of cases) {
      const res = await client.patch(`/api/threads/${thread.id}/sources/${source.id}`, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.code).toBe('VALIDATION_FAILED')
      expect(Object.keys(res.body.fields)).toEqual([field])
    }
    expect((await client.get(`/api/threads/${thread.id}/sources`)).body).toMatchObject([{ name: 'a.txt', description: null }])
  })
})

describe('processing failures', () => {
  test('a damaged PDF, an encrypted PDF and a text file without text fail with a reason', async () => {
    const { client, thread } = await setup()
    const good = makePdf([['hello there']])
    const corrupt = new Uint8Array([...good.subarray(0, 20), ...new TextEncoder().encode('garbage '.repeat(50))])
    expect(await uploadAndProcess(client, thread.id, { bytes: corrupt, fileName: 'broken.pdf' })).toMatchObject({ status: 'failed', error: 'SOURCE_UNREADABLE', chunks: 0 })
    const encrypted = makePdf([['secret']], { encrypted: true })
    expect(await uploadAndProcess(client, thread.id, { bytes: encrypted, fileName: 'locked.pdf' })).toMatchObject({ status: 'failed', error: 'SOURCE_ENCRYPTED' })
    expect(await uploadAndProcess(client, thread.id, { bytes: '  \n\n \t\n', fileName: 'blank.txt' })).toMatchObject({ status: 'failed', error: 'SOURCE_NO_TEXT' })
    expect(await uploadAndProcess(client, thread.id, { bytes: makePdf([[], []]), fileName: 'scan.pdf' })).toMatchObject({ status: 'failed', error: 'SOURCE_NO_TEXT' })
  })

  test('a zip bomb DOCX fails before it is unpacked, whether its directory tells the truth or lies', async () => {
    const { client, thread } = await setup()
    const bomb = makeDocxBomb(60)
    expect(bomb.length).toBeLessThan(200 * 1024)
    expect(await uploadAndProcess(client, thread.id, { bytes: bomb, fileName: 'bomb.docx' })).toMatchObject({ status: 'failed', error: 'SOURCE_TOO_LARGE' })
    const liar = makeLyingDocx(8)
    expect(await uploadAndProcess(client, thread.id, { bytes: liar, fileName: 'liar.docx' })).toMatchObject({ status: 'failed', error: 'SOURCE_TOO_LARGE' })
    expect(embeddingRequests()).toHaveLength(0)
  }, 20_000)

  test('a PDF of thousands of pages fails with a reason before its text is read; 2,000 pages are processed while the API keeps answering', async () => {
    const { client, thread } = await setup()
    const pages = (n: number) => Array.from({ length: n }, (_, i) => [`Page ${i + 1} of the plant manual.`])
    const tooLong = await uploadAndProcess(client, thread.id, { bytes: makePdf(pages(2001)), fileName: 'manual.pdf' })
    expect(tooLong).toMatchObject({ status: 'failed', error: 'SOURCE_TOO_LARGE', chunks: 0 })
    expect(embeddingRequests()).toHaveLength(0)

    const res = await upload(client, thread.id, { bytes: makePdf(pages(MAX_PAGES)), fileName: 'longest.pdf' })
    expect(res).toMatchObject({ status: 201, body: { status: 'processing' } })
    // Parsing 2,000 pages takes a while; other requests are answered meanwhile.
    const during = (await client.get(`/api/threads/${thread.id}/sources`)).body
    expect(during.find((s: { id: string }) => s.id === res.body.id)).toMatchObject({ status: 'processing' })
    await processingIdle()
    const done = (await client.get(`/api/threads/${thread.id}/sources`)).body.find((s: { id: string }) => s.id === res.body.id)
    expect(done).toMatchObject({ status: 'ready', pages: MAX_PAGES })
    const chunks = await chunksOf(res.body.id)
    expect(chunks.at(-1)).toMatchObject({ pageEnd: MAX_PAGES })
    expect(chunks.at(-1)!.content).toContain(`Page ${MAX_PAGES} of the plant manual.`)
  }, 60_000)

  test('a provider that refuses the key fails the source with its code; nothing is stored', async () => {
    const { client, thread } = await setup()
    fake.script({ for: 'embeddings', error: 401 })
    const source = await uploadAndProcess(client, thread.id, { bytes: 'some text', fileName: 'a.txt' })
    expect(source).toMatchObject({ status: 'failed', error: 'PROVIDER_AUTH_FAILED' })
    expect(await chunksOf(source.id)).toEqual([])
  })

  test('a provider that is busy is tried again later, and then succeeds', async () => {
    const { client, thread } = await setup()
    fake.script(...Array.from({ length: 3 }, () => ({ for: 'embeddings' as const, error: 429, retryAfterMs: 1 })))
    const source = await uploadAndProcess(client, thread.id, { bytes: 'busy text', fileName: 'a.txt' })
    expect(source.status).toBe('processing')
    const row = await t.deps.db.query.sources.findFirst({ where: eq(sources.id, source.id) })
    expect(row!.lockedUntil!.getTime()).toBeGreaterThan(Date.now())
    await resumeSources(t.deps, { now: new Date(Date.now() + LOCK_MS) })
    expect((await client.get(`/api/threads/${thread.id}/sources`)).body[0]).toMatchObject({ status: 'ready', chunks: 1 })
  })
})

describe('deleting and resuming', () => {
  test('deleting a source removes its chunks, their keyword index and its file', async () => {
    const { client, thread } = await setup()
    const keep = await uploadAndProcess(client, thread.id, { bytes: 'The lighthouse keeper logs the weather.', fileName: 'keep.txt' })
    const gone = await uploadAndProcess(client, thread.id, { bytes: 'The zeppelin hangar is enormous.', fileName: 'gone.txt' })
    const row = await t.deps.db.query.sources.findFirst({ where: eq(sources.id, gone.id) })
    expect(await t.deps.files.get(row!.fileKey)).not.toBeNull()
    const fts = async (word: string) =>
      (await t.deps.db.$client.execute({ sql: 'SELECT count(*) AS n FROM source_chunks_fts WHERE source_chunks_fts MATCH ?', args: [word] })).rows[0]!.n
    expect(await fts('zeppelin')).toBe(1)

    expect((await client.delete(`/api/threads/${thread.id}/sources/${gone.id}`)).status).toBe(204)
    expect(await chunksOf(gone.id)).toEqual([])
    expect(await fts('zeppelin')).toBe(0)
    expect(await fts('lighthouse')).toBe(1)
    expect(await t.deps.files.get(row!.fileKey)).toBeNull()
    expect((await client.get(`/api/threads/${thread.id}`)).body.sources.map((s: { id: string }) => s.id)).toEqual([keep.id])
    expect((await client.delete(`/api/threads/${thread.id}/sources/${gone.id}`)).body).toMatchObject({ status: 404, code: 'SOURCE_NOT_FOUND' })
  })

  test('deleting the thread removes its sources, chunks and files', async () => {
    const { client, thread } = await setup()
    const source = await uploadAndProcess(client, thread.id, { bytes: 'Thread bound text about walruses.', fileName: 'w.txt' })
    const row = await t.deps.db.query.sources.findFirst({ where: eq(sources.id, source.id) })
    expect((await client.delete(`/api/threads/${thread.id}`)).status).toBe(204)
    expect(await t.deps.db.query.sources.findFirst({ where: eq(sources.id, source.id) })).toBeUndefined()
    expect(await chunksOf(source.id)).toEqual([])
    expect(await t.deps.files.get(row!.fileKey)).toBeNull()
    const fts = await t.deps.db.$client.execute({ sql: "SELECT count(*) AS n FROM source_chunks_fts WHERE source_chunks_fts MATCH 'walruses'" })
    expect(fts.rows[0]!.n).toBe(0)
  })

  test('a source left processing by a process that died is resumed by the poller; a live claim is left alone', async () => {
    const { client, thread } = await setup()
    const row = await t.deps.db.query.threads.findFirst({ where: eq(threads.id, thread.id) })
    const insert = async (id: string, lockedUntil: Date | null) => {
      const fileKey = `sources/test/${id}`
      await t.deps.files.put(fileKey, new TextEncoder().encode(`Resumed document ${id} about glaciers.`))
      await t.deps.db.insert(sources).values({
        id, organizationId: row!.organizationId, threadId: thread.id, userId: row!.userId, name: `${id}.txt`, fileName: `${id}.txt`,
        kind: 'txt', mimeType: 'text/plain', size: 30, fileKey, status: 'processing', attempts: 1, lockedUntil,
      })
    }
    const crashed = crypto.randomUUID()
    const busy = crypto.randomUUID()
    await insert(crashed, new Date(Date.now() - 1000))
    await insert(busy, new Date(Date.now() + LOCK_MS))
    expect(await resumeSources(t.deps)).toBe(1)
    const list = (await client.get(`/api/threads/${thread.id}/sources`)).body
    expect(list.find((s: { id: string }) => s.id === crashed)).toMatchObject({ status: 'ready', chunks: 1 })
    expect(list.find((s: { id: string }) => s.id === busy)).toMatchObject({ status: 'processing' })
    // A source that keeps crashing its process is given up after a few attempts.
    await t.deps.db.update(sources).set({ attempts: 3, lockedUntil: new Date(Date.now() - 1) }).where(eq(sources.id, busy))
    await resumeSources(t.deps)
    expect((await client.get(`/api/threads/${thread.id}/sources`)).body.find((s: { id: string }) => s.id === busy)).toMatchObject({ status: 'failed', error: 'SOURCE_PROCESSING_FAILED' })
  })

  test('embeddings are requested in batches of 64', async () => {
    const { client, thread } = await setup()
    // 150 paragraphs of ~2,000 characters: one chunk each.
    const text = Array.from({ length: 150 }, (_, i) => `Paragraph ${i}. ${'word '.repeat(400)}`).join('\n\n')
    const source = await uploadAndProcess(client, thread.id, { bytes: text, fileName: 'long.txt' })
    expect(source).toMatchObject({ status: 'ready', chunks: 150 })
    const batches = embeddingRequests().map((r) => r.body.input.length)
    expect(batches).toEqual([EMBED_BATCH, EMBED_BATCH, 150 - 2 * EMBED_BATCH])
    const stored = await t.deps.db.select({ seq: sourceChunks.seq }).from(sourceChunks).where(and(eq(sourceChunks.sourceId, source.id)))
    expect(stored).toHaveLength(150)
  }, 20_000)
})

describe('claims held by one process at a time', () => {
  /** A source recorded as processing with its file stored, as an upload leaves it. */
  async function insertProcessing(threadId: string, text: string) {
    const thread = await t.deps.db.query.threads.findFirst({ where: eq(threads.id, threadId) })
    const id = crypto.randomUUID()
    const fileKey = `sources/${thread!.organizationId}/${threadId}/${id}`
    await t.deps.files.put(fileKey, new TextEncoder().encode(text))
    await t.deps.db.insert(sources).values({
      id, organizationId: thread!.organizationId, threadId, userId: thread!.userId, name: 'claimed.txt', fileName: 'claimed.txt',
      kind: 'txt', mimeType: 'text/plain', size: text.length, fileKey, status: 'processing',
    })
    return id
  }

  /** The app's dependencies with a file store that stops in `get` until `open()` is called. */
  function pausedAtRead() {
    let open!: () => void
    let reached!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    const reading = new Promise<void>((resolve) => (reached = resolve))
    const deps: AppDeps = {
      ...t.deps,
      files: { ...t.deps.files, get: async (key) => (reached(), await gate, t.deps.files.get(key)) },
    }
    return { deps, open, reading }
  }

  const rowOf = (id: string) => t.deps.db.query.sources.findFirst({ where: eq(sources.id, id) })

  test('a process whose claim ran out and was taken over stops at its next step and stores nothing', async () => {
    const { thread } = await setup()
    const id = await insertProcessing(thread.id, 'Claimed document about icebergs.')
    const first = pausedAtRead()
    const firstRun = processSource(first.deps, id)
    await first.reading
    const firstLease = (await rowOf(id))!.lease
    expect(firstLease).toBeString()

    // The first process hangs past its claim; a second one takes the source over.
    await t.deps.db.update(sources).set({ lockedUntil: new Date(Date.now() - 1) }).where(eq(sources.id, id))
    const second = pausedAtRead()
    const secondRun = processSource(second.deps, id)
    await second.reading
    const secondLease = (await rowOf(id))!.lease
    expect(secondLease).not.toBe(firstLease)

    first.open()
    expect(await firstRun).toBe(true)
    expect(embeddingRequests()).toHaveLength(0)
    expect(await chunksOf(id)).toEqual([])
    expect(await rowOf(id)).toMatchObject({ status: 'processing', lease: secondLease })

    second.open()
    expect(await secondRun).toBe(true)
    expect(embeddingRequests()).toHaveLength(1)
    expect(await chunksOf(id)).toHaveLength(1)
    expect(await rowOf(id)).toMatchObject({ status: 'ready', lease: null, lockedUntil: null, attempts: 2 })
  })

  test('a stopping process hands its claims back; another process resumes at once, the attempt not counted', async () => {
    const { client, thread } = await setup()
    const id = await insertProcessing(thread.id, 'Handed back document about fjords.')
    const stopping = pausedAtRead()
    const run = processSource(stopping.deps, id)
    await stopping.reading
    expect(await rowOf(id)).toMatchObject({ attempts: 1, lease: expect.any(String) })

    await releaseSources(stopping.deps)
    expect(await rowOf(id)).toMatchObject({ status: 'processing', attempts: 0, lease: null, lockedUntil: null })
    // A stopping process takes no new work.
    expect(await processSource(stopping.deps, id)).toBe(false)

    expect(await resumeSources(t.deps)).toBe(1)
    expect((await client.get(`/api/threads/${thread.id}/sources`)).body).toEqual([expect.objectContaining({ id, status: 'ready', chunks: 1 })])
    const chunks = await chunksOf(id)
    stopping.open()
    await run
    expect(await chunksOf(id)).toEqual(chunks)
    expect(embeddingRequests()).toHaveLength(1)
    expect(await rowOf(id)).toMatchObject({ attempts: 1 })
  })
})

describe('stored files of deleted users and organisations', () => {
  const pathOf = async (sourceId: string) => join(filesRoot, (await t.deps.db.query.sources.findFirst({ where: eq(sources.id, sourceId) }))!.fileKey)
  const pendingDeletions = (keys: string[]) => t.deps.db.select().from(deletedFiles).then((rows) => rows.filter((r) => keys.includes(r.fileKey)))

  test('removing a member deletes the files they attached from the store; the admin’s stay', async () => {
    const { client: admin, thread } = await setup()
    const kept = await uploadAndProcess(admin, thread.id, { bytes: 'The admin keeps notes about harbours.', fileName: 'admin.txt' })
    const email = `member-${crypto.randomUUID().slice(0, 8)}@acme.test`
    const invite = await admin.post('/api/invites', { email, role: 'user' })
    const member = t.client()
    const token = new URL(invite.body.acceptUrl).searchParams.get('token')
    const accepted = await member.post('/api/invites/accept', { token, name: 'Mia Member', password: PASSWORD, passwordConfirmation: PASSWORD })
    expect(accepted.status).toBe(201)
    const memberThread = (await member.post('/api/threads', {})).body as { id: string }
    const otherThread = (await member.post('/api/threads', {})).body as { id: string }
    const ids = [
      (await uploadAndProcess(member, memberThread.id, { bytes: 'Member file about lighthouses.', fileName: 'one.txt' })).id,
      (await uploadAndProcess(member, otherThread.id, { bytes: 'Member file about tides.', fileName: 'two.txt' })).id,
    ]
    const paths = await Promise.all(ids.map(pathOf))
    const keptPath = await pathOf(kept.id)
    expect([...paths, keptPath].map((p) => existsSync(p))).toEqual([true, true, true])

    expect((await admin.delete(`/api/users/${accepted.body.id}`)).status).toBe(204)
    expect(paths.map((p) => existsSync(p))).toEqual([false, false])
    expect(await orphanVectors(t.deps.db)).toBe(0)
    expect(existsSync(keptPath)).toBe(true)
    expect(await pendingDeletions(paths.map((p) => p.slice(filesRoot.length + 1)))).toEqual([])
  })

  test('an organisation deleted in SQL leaves its file keys behind; the background sweep removes the files, retrying failures later', async () => {
    const { client, thread } = await setup()
    const source = await uploadAndProcess(client, thread.id, { bytes: 'Organisation file about canals.', fileName: 'org.txt' })
    const path = await pathOf(source.id)
    const key = path.slice(filesRoot.length + 1)
    const row = await t.deps.db.query.threads.findFirst({ where: eq(threads.id, thread.id) })
    await t.deps.db.delete(organizations).where(eq(organizations.id, row!.organizationId))
    expect(await t.deps.db.query.sources.findFirst({ where: eq(sources.id, source.id) })).toBeUndefined()
    // Its chunks and their vectors went with it.
    expect(await orphanVectors(t.deps.db)).toBe(0)
    expect(existsSync(path)).toBe(true)
    expect(await pendingDeletions([key])).toHaveLength(1)

    // A store that fails is logged and tried again later, not at once.
    const failing: AppDeps = { ...t.deps, files: { ...t.deps.files, delete: async () => Promise.reject(new Error('store unavailable')) } }
    await sweepDeletedFiles(failing)
    expect(existsSync(path)).toBe(true)
    const [pending] = await pendingDeletions([key])
    expect(pending!.dueAt.getTime()).toBeGreaterThan(Date.now() + FILE_RETRY_MS / 2)
    await sweepDeletedFiles(t.deps)
    expect(existsSync(path)).toBe(true)

    await sweepDeletedFiles(t.deps, { now: new Date(Date.now() + FILE_RETRY_MS + 1000) })
    expect(existsSync(path)).toBe(false)
    expect(await pendingDeletions([key])).toEqual([])
  })
})
