import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { join } from 'node:path'
import { sourceChunks } from '../../../db/schema'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { makeScan, makeScannedPdf, scanSize } from '../../../tests/support/scans'
import { readSse } from '../../../tests/support/sse'
import { BASE_URL, createTestApp, registerOrg, type TestClient } from '../../../tests/support/test-app'
import { AppError } from '../../lib/errors'
import type { PageReader, TextRecognition } from '../../lib/ports'
import { tesseractRecognition } from '../../ocr/tesseract'
import { detectKind } from './file-type'
import { imageSize, MAX_OCR_PAGES, parseDocument } from './parse'
import { processingIdle } from './process'

// Scans and pictures read by OCR (tesseract.js with the English and German data of its npm
// packages), through HTTP against the real app. OCR is CPU-heavy: a page takes a few seconds on
// a loaded 2-core machine, so the tests that read pages have budgets of a minute or two.

const ENGLISH = ['Inspection record of the harbour crane', 'The crane was inspected on the fourth of March.', 'Its safe working load is forty tonnes at full reach.']
const GERMAN = ['Bericht zum Hafenkran', 'Die Prüfung übernimmt Frau Müller aus Köln.', 'Größere Schäden wurden nicht gefunden.']

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-ocr', OPENAI_BASE_URL: `${fake.url}/v1` }, localFiles: true })
})
afterAll(async () => {
  await processingIdle()
  await t.close()
  fake.close()
})
beforeEach(async () => {
  await processingIdle()
  fake.reset()
})

async function setup() {
  const client = t.client()
  await registerOrg(client)
  await client.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
  await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
  await client.post('/api/models/permitted', { modelId: 'openai/text-embedding-3-small' })
  const thread = (await client.post('/api/threads', {})).body as { id: string }
  return { client, thread }
}

async function upload(client: TestClient, threadId: string, bytes: Uint8Array, fileName: string, type = '') {
  const form = new FormData()
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], fileName, { type }))
  const res = await t.app.request(`/api/threads/${threadId}/sources/file`, { method: 'POST', headers: { cookie: client.cookieHeader(), origin: BASE_URL }, body: form })
  return { status: res.status, body: (await res.json()) as any }
}

async function listed(client: TestClient, threadId: string, id: string) {
  await processingIdle()
  return (await client.get(`/api/threads/${threadId}/sources`)).body.find((s: { id: string }) => s.id === id)
}

const chunksOf = (sourceId: string) => t.deps.db.select().from(sourceChunks).where(eq(sourceChunks.sourceId, sourceId)).orderBy(sourceChunks.seq)

describe('OCR of scans and pictures', () => {
  test('a PDF with a scanned page is read in the background; the chat finds the recognised words and marks the citation as recognised text', async () => {
    const { client, thread } = await setup()
    // Page 1 has a text layer (long enough to be a passage of its own), page 2 is only a scan.
    const cover = Array.from({ length: 45 }, (_, i) => `Section ${i}: the quay, the tides and the opening hours of the harbour office.`)
    const pdf = makeScannedPdf([{ text: cover }, { scan: makeScan(ENGLISH, 'jpeg'), ...scanSize(ENGLISH) }])
    const res = await upload(client, thread.id, pdf, 'inspection.pdf', 'application/pdf')
    expect(res.status).toBe(201)
    expect(res.body.status).toBe('processing')
    const source = await listed(client, thread.id, res.body.id)
    expect(source).toMatchObject({ status: 'ready', error: null, pages: 2 })

    const chunks = await chunksOf(res.body.id)
    // Only passages with text from the scan are marked.
    expect(chunks[0]).toMatchObject({ page: 1, pageEnd: 1, recognised: false })
    const scanned = chunks.find((c) => c.content.includes('forty tonnes'))!
    expect(scanned).toMatchObject({ pageEnd: 2, recognised: true })
    expect(scanned.content).toContain('Its safe working load is forty tonnes at full reach.')

    const chat = await t.app.request(`/api/threads/${thread.id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader(), origin: BASE_URL },
      body: JSON.stringify({ content: '[[fake:tool=source_query:{"query":"safe working load crane tonnes"}]] How much may the crane lift?' }),
    })
    const result = (await readSse(chat)).find((e) => e.event === 'tool_result')!
    expect(result.data).toMatchObject({ name: 'source_query', isError: false })
    expect(result.data.result).toContain('Recognised text (OCR of a scan or picture): words may be misread.')
    const passage = result.data.data.passages.find((p: { text: string }) => p.text.includes('forty tonnes'))
    expect(passage).toMatchObject({ sourceName: 'inspection.pdf', pageEnd: 2, recognised: true })
    const cover1 = result.data.data.passages.find((p: { page: number; pageEnd: number }) => p.pageEnd === 1)
    if (cover1) expect(cover1.recognised).toBe(false)
  }, 120_000)

  test('a German PNG is read with the German data (umlauts, ß); a JPEG photo of a page too', async () => {
    const { client, thread } = await setup()
    const png = await upload(client, thread.id, makeScan(GERMAN, 'png'), 'bericht.png', 'image/png')
    expect(png.status).toBe(201)
    expect(png.body).toMatchObject({ fileName: 'bericht.png', mimeType: 'image/png', status: 'processing' })
    const jpeg = await upload(client, thread.id, makeScan(ENGLISH, 'jpeg'), 'crane photo.JPG', '')
    expect(jpeg.status).toBe(201)
    expect(jpeg.body).toMatchObject({ mimeType: 'image/jpeg' })

    expect(await listed(client, thread.id, png.body.id)).toMatchObject({ status: 'ready', pages: 1 })
    const german = (await chunksOf(png.body.id)).map((c) => c.content).join('\n')
    for (const word of ['Prüfung', 'übernimmt', 'Müller', 'Größere', 'Schäden']) expect(german).toContain(word)
    expect((await chunksOf(png.body.id)).every((c) => c.recognised && c.page === 1)).toBe(true)

    expect(await listed(client, thread.id, jpeg.body.id)).toMatchObject({ status: 'ready', pages: 1 })
    expect((await chunksOf(jpeg.body.id))[0]!.content).toContain('inspected on the fourth of March')
  }, 120_000)

  test('a file named as a picture that is none is refused (415); a picture named as another kind too', async () => {
    const { client, thread } = await setup()
    const png = makeScan(['x'], 'png')
    const cases: Array<[Uint8Array, string, string]> = [
      [new TextEncoder().encode('just some text, not a picture'), 'scan.png', 'image/png'],
      [new TextEncoder().encode('just some text'), 'photo.jpg', ''],
      [png, 'photo.jpg', ''],
      [makeScan(['x'], 'jpeg'), 'scan.png', ''],
      [png, 'scan.png', 'application/pdf'],
      [png, 'notes.txt', ''],
    ]
    for (const [bytes, name, type] of cases) {
      const res = await upload(client, thread.id, bytes, name, type)
      expect([name, res.status, res.body.code]).toEqual([name, 415, 'UNSUPPORTED_FILE_TYPE'])
    }
    expect((await client.get(`/api/threads/${thread.id}/sources`)).body).toEqual([])
  }, 30_000)

  test('a damaged picture fails with a reason, and so does it again after a retry; a picture of absurd size fails before it is decoded', async () => {
    const { client, thread } = await setup()
    const png = makeScan(ENGLISH, 'png')
    const cut = await upload(client, thread.id, png.subarray(0, 400), 'cut.png', 'image/png')
    expect(cut.status).toBe(201)
    expect(await listed(client, thread.id, cut.body.id)).toMatchObject({ status: 'failed', error: 'SOURCE_UNREADABLE', chunks: 0 })
    const again = await client.post(`/api/threads/${thread.id}/sources/${cut.body.id}/retry`)
    expect(again.body).toMatchObject({ status: 'processing', error: null })
    expect(await listed(client, thread.id, cut.body.id)).toMatchObject({ status: 'failed', error: 'SOURCE_UNREADABLE' })

    // A header claiming 100,000 × 100,000 pixels.
    const huge = png.slice(0, 400)
    new DataView(huge.buffer).setUint32(16, 100_000)
    new DataView(huge.buffer).setUint32(20, 100_000)
    const big = await upload(client, thread.id, huge, 'huge.png')
    expect(await listed(client, thread.id, big.body.id)).toMatchObject({ status: 'failed', error: 'SOURCE_TOO_LARGE' })
    // Only the signature: no header at all.
    const bare = await upload(client, thread.id, png.slice(0, 8), 'bare.png')
    expect(await listed(client, thread.id, bare.body.id)).toMatchObject({ status: 'failed', error: 'SOURCE_UNREADABLE' })
  }, 60_000)

  test('without OCR (as on Workers) a scan fails with SOURCE_OCR_UNAVAILABLE, text pages still count; a retry where OCR is offered reads it', async () => {
    const { client, thread } = await setup()
    const ocr = t.deps.ocr
    t.deps.ocr = undefined
    try {
      const scan = await upload(client, thread.id, makeScannedPdf([{ scan: makeScan(ENGLISH, 'jpeg'), ...scanSize(ENGLISH) }]), 'scan.pdf')
      expect(await listed(client, thread.id, scan.body.id)).toMatchObject({ status: 'failed', error: 'SOURCE_OCR_UNAVAILABLE' })
      const picture = await upload(client, thread.id, makeScan(ENGLISH, 'png'), 'scan.png')
      expect(await listed(client, thread.id, picture.body.id)).toMatchObject({ status: 'failed', error: 'SOURCE_OCR_UNAVAILABLE' })
      const mixed = await upload(client, thread.id, makeScannedPdf([{ text: ['The office opens at eight.'] }, { scan: makeScan(ENGLISH, 'jpeg'), ...scanSize(ENGLISH) }]), 'mixed.pdf')
      expect(await listed(client, thread.id, mixed.body.id)).toMatchObject({ status: 'ready', pages: 2 })
      expect((await chunksOf(mixed.body.id)).map((c) => c.recognised)).toEqual([false])
      // The message in both languages.
      const de = (await import('../../../web/locales/de/errors.json')).default as Record<string, string>
      expect(de.SOURCE_OCR_UNAVAILABLE).toContain('Texterkennung')

      t.deps.ocr = ocr
      expect((await client.post(`/api/threads/${thread.id}/sources/${picture.body.id}/retry`)).body.status).toBe('processing')
      expect(await listed(client, thread.id, picture.body.id)).toMatchObject({ status: 'ready', error: null })
    } finally {
      t.deps.ocr = ocr
    }
  }, 120_000)
})

/** An OCR engine that answers at once (or never), counting pages and whether it was ended. */
function fakeRecognition(answer: (page: number) => Promise<string>) {
  const state = { pages: 0, opened: 0, closed: 0 }
  const reader: PageReader = {
    image: async () => answer(++state.pages),
    pdfPage: async () => answer(++state.pages),
    close: async () => void state.closed++,
  }
  const ocr: TextRecognition = { open: async () => (state.opened++, reader) }
  return { ocr, state }
}

describe('OCR limits', () => {
  const scan = makeScan(['x'], 'jpeg')
  const scannedPages = (n: number) => makeScannedPdf(Array.from({ length: n }, () => ({ scan, ...scanSize(['x']) })))

  test(`at most ${MAX_OCR_PAGES} scanned pages of a file are read; the text says where recognition stopped; the engine is ended`, async () => {
    const { ocr, state } = fakeRecognition(async (page) => `Recognised words of scanned page ${page}.`)
    const doc = await parseDocument('pdf', scannedPages(MAX_OCR_PAGES + 2), { ocr })
    expect(state).toEqual({ pages: MAX_OCR_PAGES, opened: 1, closed: 1 })
    expect(doc.pages).toBe(MAX_OCR_PAGES + 2)
    expect(doc.blocks.filter((b) => b.recognised)).toHaveLength(MAX_OCR_PAGES)
    expect(doc.blocks.at(-1)!.text).toStartWith(`(Text recognition stopped before page ${MAX_OCR_PAGES + 1}: 2 scanned pages were not read.`)
  }, 60_000)

  test('a page without text and without a picture is blank: it is not read; nor is a page with a text layer', async () => {
    const { ocr, state } = fakeRecognition(async () => 'Words of the scan.')
    const doc = await parseDocument('pdf', makeScannedPdf([{ text: [] }, { text: ['A page of text.'] }, { scan, ...scanSize(['x']) }]), { ocr })
    expect(state).toEqual({ pages: 1, opened: 1, closed: 1 })
    expect(doc.blocks).toEqual([
      { text: 'A page of text.', headings: [], page: 2 },
      { text: 'Words of the scan.', headings: [], page: 3, recognised: true },
    ])
  })

  test('recognition that runs past its time is cut off: the engine is ended and the pages read so far are kept', async () => {
    const { ocr, state } = fakeRecognition((page) => (page === 1 ? Promise.resolve('The first page was read in time.') : new Promise<string>(() => {})))
    const doc = await parseDocument('pdf', scannedPages(3), { ocr, ocrMs: 500 })
    expect(state.closed).toBe(1)
    expect(doc.blocks.map((b) => b.text)).toEqual(['The first page was read in time.', expect.stringContaining('stopped before page 2: 2 scanned pages were not read')])
  }, 30_000)

  test('an engine that cannot start makes the file SOURCE_OCR_UNAVAILABLE; a page it cannot decode SOURCE_UNREADABLE', async () => {
    const broken: TextRecognition = { open: async () => Promise.reject(new Error('no wasm here')) }
    const code = (p: Promise<unknown>) => p.then(() => null, (e) => (e instanceof AppError ? e.code : String(e)))
    expect(await code(parseDocument('png', makeScan(['x']), { ocr: broken }))).toBe('SOURCE_OCR_UNAVAILABLE')
    const failing = fakeRecognition(() => Promise.reject(new Error('Error attempting to read image.')))
    expect(await code(parseDocument('jpeg', scan, { ocr: failing.ocr }))).toBe('SOURCE_UNREADABLE')
    expect(failing.state.closed).toBe(1)
  })

  test('pictures are recognised by their bytes, and their size read from the header', () => {
    const png = makeScan(['x'], 'png')
    expect(detectKind('a.png', 'image/png', png)).toEqual({ kind: 'png', mimeType: 'image/png' })
    expect(detectKind('a.jpeg', 'image/jpeg', scan)).toEqual({ kind: 'jpeg', mimeType: 'image/jpeg' })
    expect(imageSize('png', png)).toEqual(scanSize(['x']))
    expect(imageSize('jpeg', scan)).toEqual(scanSize(['x']))
    expect(imageSize('jpeg', scan.subarray(0, 20))).toBeNull()
  })
})

// The real engine, once, outside the app: it ends cleanly and can be opened again.
test('the tesseract engine reads a picture, is ended, and opens again', async () => {
  const ocr = tesseractRecognition()
  for (let i = 0; i < 2; i++) {
    const reader = await ocr.open()
    expect(await reader.image(makeScan(['Forty tonnes at full reach.']))).toContain('Forty tonnes')
    await reader.close()
  }
}, 60_000)

test('an engine thread that ends under a read fails that read and every later one, and the process goes on', async () => {
  // The engine's thread is found as it is sent its first job: through the worker-thread class.
  const { Worker } = await import('node:worker_threads')
  const post = Worker.prototype.postMessage
  const threads = new Set<InstanceType<typeof Worker>>()
  Worker.prototype.postMessage = function (this: InstanceType<typeof Worker>, ...args: Parameters<typeof post>) {
    threads.add(this)
    return post.apply(this, args)
  }
  try {
    const reader = await tesseractRecognition().open()
    const reading = reader.image(makeScan(['Forty tonnes at full reach.', 'Sixty tonnes at half reach.']))
    expect(threads.size).toBe(1)
    // Ended from outside, as a crash of the engine would end it.
    await Promise.all([...threads].map((t) => t.terminate()))
    expect(await reading.then(() => 'read', (e: Error) => e.message)).toContain('OCR engine ended')
    expect(await reader.image(makeScan(['Again.'])).then(() => 'read', (e: Error) => e.message)).toContain('OCR engine ended')
    await reader.close()
  } finally {
    Worker.prototype.postMessage = post
  }
}, 60_000)
