import { AppError } from '../../lib/errors'
import type { PageReader, TextRecognition } from '../../lib/ports'
import type { Block, ParsedDocument } from './chunk'
import { decodeText, type SourceKind, type TextKind } from './file-type'
import { htmlToBlocks } from './html-text'
import { csvBlocks, markdownBlocks, paragraphs } from './text-formats'
import { guardZip } from './zip'

/** Longest document processed: 2,000 pages, 3 million characters of text (about 750,000 tokens). */
export const MAX_PAGES = 2000
export const MAX_TEXT_CHARS = 3_000_000

/**
 * Text recognition (OCR) of scanned PDF pages and pictures: at most 100 pages of a file, for at
 * most 10 minutes in all (pages past either limit are left out, and the text says so); a picture
 * at most 50 million pixels (a larger one is SOURCE_TOO_LARGE before anything is decoded).
 */
export const MAX_OCR_PAGES = 100
export const MAX_OCR_MS = 10 * 60_000
export const MAX_IMAGE_PIXELS = 50_000_000

type Progress = () => Promise<void>

type ParseOptions = {
  /** Called now and then on long files (the processing's heartbeat). */
  progress?: Progress
  /** Text recognition, where the runtime has it (not on Workers). */
  ocr?: TextRecognition
  /** How long OCR may take for the file (tests shorten it). */
  ocrMs?: number
}

/**
 * The text of a file as paragraphs with pages and headings. Throws an AppError with a SOURCE_*
 * code for files that cannot be used (encrypted, damaged, too large, no text).
 */
export async function parseDocument(kind: SourceKind, bytes: Uint8Array, options: Progress | ParseOptions = {}): Promise<ParsedDocument> {
  const { progress = async () => {}, ocr, ocrMs = MAX_OCR_MS } = typeof options === 'function' ? { progress: options } : options
  const doc = await parseKind(kind, bytes, progress, { ocr, ocrMs })
  const total = doc.blocks.reduce((n, b) => n + b.text.length, 0)
  if (total > MAX_TEXT_CHARS) throw new AppError('SOURCE_TOO_LARGE')
  if (!doc.blocks.some((b) => !b.heading && b.text.trim())) throw new AppError('SOURCE_NO_TEXT')
  return doc
}

/** One extractor per kind; those of the binary formats are loaded when first needed. */
async function parseKind(kind: SourceKind, bytes: Uint8Array, progress: Progress, ocr: Recognition): Promise<ParsedDocument> {
  switch (kind) {
    case 'pdf':
      return parsePdf(bytes, progress, ocr)
    case 'png':
    case 'jpeg':
      return parseImage(kind, bytes, ocr)
    case 'docx':
      return { blocks: htmlToBlocks(await docxToHtml(bytes)), pages: null }
    case 'pptx':
      return (await import('./office')).parsePptx(bytes, progress)
    case 'xlsx':
      return (await import('./office')).parseXlsx(bytes, progress)
    case 'eml':
      return (await import('./email')).parseEml(bytes)
    case 'msg':
      return (await import('./email')).parseMsg(bytes)
    default:
      return parseText(kind, text(bytes))
  }
}

function text(bytes: Uint8Array) {
  const value = decodeText(bytes)
  if (value === null) throw new AppError('SOURCE_UNREADABLE')
  if (value.length > MAX_TEXT_CHARS) throw new AppError('SOURCE_TOO_LARGE')
  return value.replace(/\r\n?/g, '\n')
}

export function parseText(kind: TextKind, value: string): ParsedDocument {
  if (kind === 'html') return { blocks: htmlToBlocks(value), pages: null }
  if (kind === 'md') return { blocks: markdownBlocks(value), pages: null }
  if (kind === 'csv') return { blocks: csvBlocks(value), pages: null }
  // Plain text: form feeds separate pages (as printed text files do).
  const pages = value.split('\f')
  const blocks = pages.flatMap((page, i) => paragraphs(page).map((p) => ({ text: p, headings: [], page: pages.length > 1 ? i + 1 : undefined })))
  return { blocks, pages: pages.length > 1 ? pages.length : null }
}

async function parsePdf(bytes: Uint8Array, progress: Progress, ocr: Recognition): Promise<ParsedDocument> {
  const { getDocumentProxy, getResolvedPDFJS } = await import('unpdf')
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>
  try {
    // pdf.js takes over the buffer it is given: pass a copy.
    pdf = await getDocumentProxy(bytes.slice(), { stopAtErrors: true, verbosity: 0 })
  } catch (error) {
    throw pdfError(error)
  }
  try {
    if (pdf.numPages > MAX_PAGES) throw new AppError('SOURCE_TOO_LARGE')
    const { OPS } = await getResolvedPDFJS()
    const imageOps = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageXObjectRepeat, OPS.paintInlineImageXObjectGroup, OPS.paintImageMaskXObject, OPS.paintImageMaskXObjectGroup, OPS.paintImageMaskXObjectRepeat])
    const pages: Block[][] = []
    /** Pages without a text layer that show a picture: scans, read by OCR (a blank page is not). */
    const scanned: number[] = []
    let total = 0
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number)
      const content = await page.getTextContent()
      const pageText = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('')
      if (!/[\p{L}\p{N}]/u.test(pageText) && (await page.getOperatorList()).fnArray.some((op) => imageOps.has(op))) scanned.push(number)
      page.cleanup()
      total += pageText.length
      if (total > MAX_TEXT_CHARS) throw new AppError('SOURCE_TOO_LARGE')
      pages.push(paragraphs(pageText).map((p) => ({ text: p.replace(/[ \t]+/g, ' '), headings: [], page: number })))
      if (number % 50 === 0) await progress()
    }
    const notes: Block[] = []
    if (scanned.length) {
      // Without OCR a file that is all scans cannot be used; the text pages of a mixed one can.
      if (!ocr.ocr) {
        if (scanned.length === pdf.numPages) throw new AppError('SOURCE_OCR_UNAVAILABLE')
      } else {
        const read = await recognisePages(ocr, scanned, (reader, number) => reader.pdfPage(pdf, number), progress)
        for (const [number, text] of read.texts) pages[number - 1] = recognisedBlocks(text, number)
        if (read.skipped.length) notes.push({ text: skippedNote(read.skipped), headings: [] })
      }
    }
    return { blocks: [...pages.flat(), ...notes], pages: pdf.numPages }
  } catch (error) {
    throw pdfError(error)
  } finally {
    await pdf.loadingTask.destroy()
  }
}

function pdfError(error: unknown) {
  if (error instanceof AppError) return error
  const name = (error as { name?: string } | null)?.name
  return new AppError(name === 'PasswordException' ? 'SOURCE_ENCRYPTED' : 'SOURCE_UNREADABLE')
}

/**
 * DOCX through mammoth (headings become h1–h6), after the zip guard (zip.ts: bombs, entry count).
 * Images are never unpacked.
 */
async function docxToHtml(bytes: Uint8Array): Promise<string> {
  guardZip(bytes, (name) => name.startsWith('word/media/'))
  const mammoth = await import('mammoth')
  try {
    // Node's build reads `buffer`; the browser build (which bundlers for Workers pick) `arrayBuffer`.
    const data = bytes.slice().buffer
    const result = await mammoth.convertToHtml(
      { buffer: data as unknown as Buffer, arrayBuffer: data },
      { convertImage: mammoth.images.imgElement(async () => ({ src: '' })) },
    )
    return result.value
  } catch {
    throw new AppError('SOURCE_UNREADABLE')
  }
}

type Recognition = { ocr?: TextRecognition; ocrMs: number }

/** A picture (PNG, JPEG): one page, all of it recognised text. */
async function parseImage(kind: 'png' | 'jpeg', bytes: Uint8Array, ocr: Recognition): Promise<ParsedDocument> {
  const size = imageSize(kind, bytes)
  if (!size || !size.width || !size.height) throw new AppError('SOURCE_UNREADABLE')
  if (size.width * size.height > MAX_IMAGE_PIXELS) throw new AppError('SOURCE_TOO_LARGE')
  if (!ocr.ocr) throw new AppError('SOURCE_OCR_UNAVAILABLE')
  const read = await recognisePages(ocr, [1], (reader) => reader.image(bytes), async () => {})
  if (read.skipped.length) throw new AppError('SOURCE_TOO_LARGE')
  return { blocks: recognisedBlocks(read.texts.get(1) ?? '', 1), pages: 1 }
}

const recognisedBlocks = (text: string, page: number): Block[] =>
  paragraphs(text).map((p) => ({ text: p.replace(/[ \t]+/g, ' '), headings: [], page, recognised: true }))

const skippedNote = (pages: number[]) =>
  `(Text recognition stopped before page ${pages[0]}: ${pages.length === 1 ? 'one scanned page was' : `${pages.length} scanned pages were`} not read. ` +
  `At most ${MAX_OCR_PAGES} pages of a file are recognised, in at most ${MAX_OCR_MS / 60_000} minutes.)`

/**
 * Reads `pages` with one OCR engine, in order, until the page limit or the time runs out (the
 * page being read then is cut off by ending the engine); the engine always ends. A page that
 * cannot be decoded makes the file SOURCE_UNREADABLE.
 */
async function recognisePages(
  { ocr, ocrMs }: Recognition,
  pages: number[],
  readPage: (reader: PageReader, page: number) => Promise<string>,
  progress: Progress,
): Promise<{ texts: Map<number, string>; skipped: number[] }> {
  const texts = new Map<number, string>()
  const deadline = Date.now() + ocrMs
  let reader: PageReader
  try {
    reader = await ocr!.open()
  } catch {
    throw new AppError('SOURCE_OCR_UNAVAILABLE')
  }
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await reader.close().catch(() => {})
  }
  try {
    for (const [i, page] of pages.entries()) {
      const left = deadline - Date.now()
      if (i >= MAX_OCR_PAGES || left <= 0) return { texts, skipped: pages.slice(i) }
      let timer: ReturnType<typeof setTimeout> | undefined
      const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), left)))
      let text: string | null
      try {
        text = await Promise.race([readPage(reader, page), timeout])
      } catch (error) {
        if (error instanceof AppError) throw error
        throw new AppError('SOURCE_UNREADABLE')
      } finally {
        clearTimeout(timer)
      }
      if (text === null) {
        await close()
        return { texts, skipped: pages.slice(i) }
      }
      texts.set(page, text)
      await progress()
    }
    return { texts, skipped: [] }
  } finally {
    await close()
  }
}

/**
 * Width and height of a picture from its header, without decoding it: PNG's IHDR chunk, or the
 * frame header (SOF) of a JPEG, found by walking its segments. Null when there is none.
 */
export function imageSize(kind: 'png' | 'jpeg', bytes: Uint8Array): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (kind === 'png') {
    if (bytes.length < 24 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return null
    return { width: view.getUint32(16), height: view.getUint32(20) }
  }
  let at = 2
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null
    const marker = bytes[at + 1]!
    if (marker === 0xff) {
      at++
      continue
    }
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) }
    at += 2 + view.getUint16(at + 2)
  }
  return null
}
