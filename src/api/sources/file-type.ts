import { AppError } from '../../lib/errors'
import { extensionOf, SOURCE_EXTENSIONS } from './schema'
import { readCentralDirectory, ZipError } from './zip'

export type SourceKind = keyof typeof SOURCE_EXTENSIONS

const KINDS: Record<SourceKind, { mime: string; accepts: string[] }> = {
  pdf: { mime: 'application/pdf', accepts: ['application/pdf', 'application/x-pdf'] },
  docx: {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    accepts: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  },
  txt: { mime: 'text/plain', accepts: ['text/plain'] },
  md: { mime: 'text/markdown', accepts: ['text/markdown', 'text/x-markdown', 'text/plain'] },
  // Windows browsers send CSV as Excel's type.
  csv: { mime: 'text/csv', accepts: ['text/csv', 'application/csv', 'text/comma-separated-values', 'application/vnd.ms-excel', 'text/plain'] },
  html: { mime: 'text/html', accepts: ['text/html', 'application/xhtml+xml'] },
}

/** Types that say nothing about the content: the file name decides. */
const GENERIC = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/x-download'])

const TEXT_KINDS = new Set<SourceKind>(['txt', 'md', 'csv', 'html'])

const unsupported = () => new AppError('UNSUPPORTED_FILE_TYPE')

/**
 * The kind of an uploaded file from its name and declared type, confirmed by its bytes: a PDF
 * starts with `%PDF-`, a DOCX is a zip holding word/document.xml, text is UTF-8 without NUL
 * bytes. Anything else, or a file whose content contradicts its name, is refused (415).
 */
export function detectKind(fileName: string, declaredType: string, bytes: Uint8Array): { kind: SourceKind; mimeType: string } {
  const extension = extensionOf(fileName)
  const type = declaredType.split(';')[0]!.trim().toLowerCase()
  const byName = (Object.keys(KINDS) as SourceKind[]).find((k) => extension && (SOURCE_EXTENSIONS[k] as readonly string[]).includes(extension))
  const kind = byName ?? (Object.keys(KINDS) as SourceKind[]).find((k) => KINDS[k].mime === type)
  if (!kind) throw unsupported()
  if (!GENERIC.has(type) && !KINDS[kind].accepts.includes(type)) throw unsupported()
  if (kind === 'pdf' && !isPdf(bytes)) throw unsupported()
  if (kind === 'docx' && !isDocx(bytes)) throw unsupported()
  if (TEXT_KINDS.has(kind) && decodeText(bytes) === null) throw unsupported()
  return { kind, mimeType: KINDS[kind].mime }
}

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d] // %PDF-
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04]
const startsWith = (bytes: Uint8Array, magic: number[], at = 0) => magic.every((b, i) => bytes[at + i] === b)

/** PDF readers accept the header anywhere in the first 1024 bytes; so do we. */
function isPdf(bytes: Uint8Array) {
  for (let at = 0; at < Math.min(1024, bytes.length - PDF_MAGIC.length); at++) if (startsWith(bytes, PDF_MAGIC, at)) return true
  return false
}

function isDocx(bytes: Uint8Array) {
  if (!startsWith(bytes, ZIP_MAGIC)) return false
  try {
    return readCentralDirectory(bytes).some((e) => e.name === 'word/document.xml')
  } catch (error) {
    if (error instanceof ZipError) return false
    throw error
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })

/** The text of a UTF-8 file (BOM dropped), or null when it is not text: invalid UTF-8, NUL bytes, or a binary format in disguise. */
export function decodeText(bytes: Uint8Array): string | null {
  if (startsWith(bytes, PDF_MAGIC) || startsWith(bytes, ZIP_MAGIC)) return null
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    return null
  }
  return text.includes('\u0000') ? null : text
}
