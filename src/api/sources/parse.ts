import { AppError } from '../../lib/errors'
import type { Block } from './chunk'
import { decodeText, type SourceKind } from './file-type'
import { htmlToBlocks } from './html-text'
import { csvBlocks, markdownBlocks, paragraphs } from './text-formats'
import { checkEntrySize, readCentralDirectory, ZipError } from './zip'

/** Longest document processed: 2,000 pages, 3 million characters of text (about 750,000 tokens). */
export const MAX_PAGES = 2000
export const MAX_TEXT_CHARS = 3_000_000
/** Largest XML part of a DOCX, and of all of them together, once unpacked. */
export const MAX_DOCX_PART_BYTES = 50 * 1024 * 1024
export const MAX_DOCX_XML_BYTES = 100 * 1024 * 1024

export type ParsedDocument = { blocks: Block[]; pages: number | null }

type Progress = () => Promise<void>

/**
 * The text of a file as paragraphs with pages and headings. Throws an AppError with a SOURCE_*
 * code for files that cannot be used (encrypted, damaged, too large, no text).
 */
export async function parseDocument(kind: SourceKind, bytes: Uint8Array, progress: Progress = async () => {}): Promise<ParsedDocument> {
  const doc =
    kind === 'pdf'
      ? await parsePdf(bytes, progress)
      : kind === 'docx'
        ? { blocks: htmlToBlocks(await docxToHtml(bytes)), pages: null }
        : parseText(kind, text(bytes))
  const total = doc.blocks.reduce((n, b) => n + b.text.length, 0)
  if (total > MAX_TEXT_CHARS) throw new AppError('SOURCE_TOO_LARGE')
  if (!doc.blocks.some((b) => !b.heading && b.text.trim())) throw new AppError('SOURCE_NO_TEXT')
  return doc
}

function text(bytes: Uint8Array) {
  const value = decodeText(bytes)
  if (value === null) throw new AppError('SOURCE_UNREADABLE')
  if (value.length > MAX_TEXT_CHARS) throw new AppError('SOURCE_TOO_LARGE')
  return value.replace(/\r\n?/g, '\n')
}

export function parseText(kind: Exclude<SourceKind, 'pdf' | 'docx'>, value: string): ParsedDocument {
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
 * DOCX through mammoth (headings become h1–h6), after checking the zip: every XML part must
 * unpack to what the central directory declares, and that must stay under the caps (zip bombs).
 * Images are never unpacked.
 */
async function docxToHtml(bytes: Uint8Array): Promise<string> {
  try {
    const entries = readCentralDirectory(bytes)
    const xml = entries.filter((e) => !e.name.startsWith('word/media/') && !e.name.endsWith('/'))
    if (xml.some((e) => e.size > MAX_DOCX_PART_BYTES) || xml.reduce((n, e) => n + e.size, 0) > MAX_DOCX_XML_BYTES) throw new AppError('SOURCE_TOO_LARGE')
    for (const entry of xml) checkEntrySize(bytes, entry)
  } catch (error) {
    if (error instanceof ZipError) throw new AppError(/beyond its declared size/.test(error.message) ? 'SOURCE_TOO_LARGE' : 'SOURCE_UNREADABLE')
    throw error
  }
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
