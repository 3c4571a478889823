import { AppError } from '../../lib/errors'
import type { Block, ParsedDocument } from './chunk'
import { decodeText, type SourceKind, type TextKind } from './file-type'
import { htmlToBlocks } from './html-text'
import { csvBlocks, markdownBlocks, paragraphs } from './text-formats'
import { guardZip } from './zip'

/** Longest document processed: 2,000 pages, 3 million characters of text (about 750,000 tokens). */
export const MAX_PAGES = 2000
export const MAX_TEXT_CHARS = 3_000_000

type Progress = () => Promise<void>

/**
 * The text of a file as paragraphs with pages and headings. Throws an AppError with a SOURCE_*
 * code for files that cannot be used (encrypted, damaged, too large, no text).
 */
export async function parseDocument(kind: SourceKind, bytes: Uint8Array, progress: Progress = async () => {}): Promise<ParsedDocument> {
  const doc = await parseKind(kind, bytes, progress)
  const total = doc.blocks.reduce((n, b) => n + b.text.length, 0)
  if (total > MAX_TEXT_CHARS) throw new AppError('SOURCE_TOO_LARGE')
  if (!doc.blocks.some((b) => !b.heading && b.text.trim())) throw new AppError('SOURCE_NO_TEXT')
  return doc
}

/** One extractor per kind; those of the binary formats are loaded when first needed. */
async function parseKind(kind: SourceKind, bytes: Uint8Array, progress: Progress): Promise<ParsedDocument> {
  switch (kind) {
    case 'pdf':
      return parsePdf(bytes, progress)
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

async function parsePdf(bytes: Uint8Array, progress: Progress): Promise<ParsedDocument> {
  const { getDocumentProxy } = await import('unpdf')
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>
  try {
    // pdf.js takes over the buffer it is given: pass a copy.
    pdf = await getDocumentProxy(bytes.slice(), { stopAtErrors: true, verbosity: 0 })
  } catch (error) {
    throw pdfError(error)
  }
  try {
    if (pdf.numPages > MAX_PAGES) throw new AppError('SOURCE_TOO_LARGE')
    const blocks: Block[] = []
    let total = 0
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number)
      const content = await page.getTextContent()
      const pageText = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('')
      page.cleanup()
      total += pageText.length
      if (total > MAX_TEXT_CHARS) throw new AppError('SOURCE_TOO_LARGE')
      for (const p of paragraphs(pageText)) blocks.push({ text: p.replace(/[ \t]+/g, ' '), headings: [], page: number })
      if (number % 50 === 0) await progress()
    }
    return { blocks, pages: pdf.numPages }
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
