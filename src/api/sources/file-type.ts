import { AppError } from '../../lib/errors'
import { extensionOf, PPTX_MIME, SOURCE_EXTENSIONS } from './limits'
import { readCentralDirectory, ZipError } from './zip'

export type SourceKind = keyof typeof SOURCE_EXTENSIONS

const KINDS: Record<SourceKind, { mime: string; accepts: string[] }> = {
  pdf: { mime: 'application/pdf', accepts: ['application/pdf', 'application/x-pdf'] },
  docx: {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    accepts: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  },
  pptx: { mime: PPTX_MIME, accepts: [PPTX_MIME] },
  xlsx: {
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    accepts: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  },
  eml: { mime: 'message/rfc822', accepts: ['message/rfc822', 'text/plain'] },
  // Browsers send Outlook items as this type or as none.
  msg: { mime: 'application/vnd.ms-outlook', accepts: ['application/vnd.ms-outlook', 'application/x-msg'] },
  txt: { mime: 'text/plain', accepts: ['text/plain'] },
  md: { mime: 'text/markdown', accepts: ['text/markdown', 'text/x-markdown', 'text/plain'] },
  // Windows browsers send CSV as Excel's type.
  csv: { mime: 'text/csv', accepts: ['text/csv', 'application/csv', 'text/comma-separated-values', 'application/vnd.ms-excel', 'text/plain'] },
  html: { mime: 'text/html', accepts: ['text/html', 'application/xhtml+xml'] },
  png: { mime: 'image/png', accepts: ['image/png'] },
  jpeg: { mime: 'image/jpeg', accepts: ['image/jpeg', 'image/jpg', 'image/pjpeg'] },
}

/** Types that say nothing about the content: the file name decides. */
const GENERIC = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/x-download'])

/** The kinds read as UTF-8 text (parseText). */
const TEXT_KIND_LIST = ['txt', 'md', 'csv', 'html'] as const
export type TextKind = (typeof TEXT_KIND_LIST)[number]
const TEXT_KINDS = new Set<SourceKind>(TEXT_KIND_LIST)

/** What each Office Open XML kind must hold: the zip of a DOCX is no presentation. */
const ZIP_PART: Partial<Record<SourceKind, string>> = { docx: 'word/document.xml', pptx: 'ppt/presentation.xml', xlsx: 'xl/workbook.xml' }

const unsupported = () => new AppError('UNSUPPORTED_FILE_TYPE')

/**
 * The kind of an uploaded file from its name and declared type, confirmed by its bytes: a PDF
 * starts with `%PDF-`; a DOCX, PPTX or XLSX is a zip holding word/document.xml,
 * ppt/presentation.xml or xl/workbook.xml; an Outlook item is a compound file (D0 CF 11 E0) with
 * message properties; an e-mail is text that starts with RFC 5322 header fields; a PNG starts with
 * its 8-byte signature and a JPEG with FF D8 FF; text is UTF-8 without NUL bytes. Anything else, or a file whose content contradicts its name, is refused (415).
 */
export function detectKind(fileName: string, declaredType: string, bytes: Uint8Array): { kind: SourceKind; mimeType: string } {
  const extension = extensionOf(fileName)
  const type = declaredType.split(';')[0]!.trim().toLowerCase()
  const byName = (Object.keys(KINDS) as SourceKind[]).find((k) => extension && (SOURCE_EXTENSIONS[k] as readonly string[]).includes(extension))
  const kind = byName ?? (Object.keys(KINDS) as SourceKind[]).find((k) => KINDS[k].mime === type)
  if (!kind) throw unsupported()
  if (!GENERIC.has(type) && !KINDS[kind].accepts.includes(type)) throw unsupported()
  if (kind === 'pdf' && !isPdf(bytes)) throw unsupported()
  if (ZIP_PART[kind] && !zipHolds(bytes, ZIP_PART[kind])) throw unsupported()
  if (kind === 'msg' && !isOutlookItem(bytes)) throw unsupported()
  if (kind === 'eml' && !isEmail(bytes)) throw unsupported()
  if (kind === 'png' && !startsWith(bytes, PNG_MAGIC)) throw unsupported()
  if (kind === 'jpeg' && !startsWith(bytes, JPEG_MAGIC)) throw unsupported()
  if (TEXT_KINDS.has(kind) && decodeText(bytes) === null) throw unsupported()
  return { kind, mimeType: KINDS[kind].mime }
}

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d] // %PDF-
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04]
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const JPEG_MAGIC = [0xff, 0xd8, 0xff]
const startsWith = (bytes: Uint8Array, magic: number[], at = 0) => magic.every((b, i) => bytes[at + i] === b)

/** PDF readers accept the header anywhere in the first 1024 bytes; so do we. */
function isPdf(bytes: Uint8Array) {
  for (let at = 0; at < Math.min(1024, bytes.length - PDF_MAGIC.length); at++) if (startsWith(bytes, PDF_MAGIC, at)) return true
  return false
}

function zipHolds(bytes: Uint8Array, part: string) {
  if (!startsWith(bytes, ZIP_MAGIC)) return false
  try {
    return readCentralDirectory(bytes).some((e) => e.name === part)
  } catch (error) {
    if (error instanceof ZipError) return false
    throw error
  }
}

const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]
/** `__substg1.0_` in UTF-16: the streams of message properties, which Word and Excel files of the same container lack. */
const MSG_STREAM = Array.from('__substg1.0_', (c) => [c.charCodeAt(0), 0]).flat()

function isOutlookItem(bytes: Uint8Array) {
  if (!startsWith(bytes, CFB_MAGIC)) return false
  for (let at = bytes.indexOf(0x5f); at >= 0; at = bytes.indexOf(0x5f, at + 1)) if (startsWith(bytes, MSG_STREAM, at)) return true
  return false
}

/** Header fields one of which every e-mail has. */
const MAIL_FIELDS = /^(from|to|date|subject|message-id|received|return-path|mime-version|delivered-to|sender|cc|reply-to):/i

/**
 * An e-mail as RFC 5322 writes it: header fields (`Name: value`, folded lines indented) up to the
 * first empty line, at least one of them one that mails have, and no NUL bytes anywhere. The body
 * may be in any charset; an mbox "From " line before the header is allowed.
 */
function isEmail(bytes: Uint8Array) {
  if (startsWith(bytes, PDF_MAGIC) || startsWith(bytes, ZIP_MAGIC) || startsWith(bytes, CFB_MAGIC) || bytes.includes(0)) return false
  const bom = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0
  const head = new TextDecoder('latin1').decode(bytes.subarray(bom, bom + 64 * 1024))
  const end = head.search(/\r?\n\r?\n/)
  const lines = (end >= 0 ? head.slice(0, end) : head).split(/\r?\n/)
  // A header longer than what was looked at: its last line may be cut.
  if (end < 0 && bytes.length > bom + 64 * 1024) lines.pop()
  if (/^From \S/.test(lines[0] ?? '')) lines.shift()
  if (!lines.length || !lines.every((line, i) => /^[!-9;-~]+:/.test(line) || (i > 0 && /^[ \t]/.test(line)))) return false
  return lines.some((line) => MAIL_FIELDS.test(line))
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })

/** The text of a UTF-8 file (BOM dropped), or null when it is not text: invalid UTF-8, NUL bytes, or a binary format in disguise. */
export function decodeText(bytes: Uint8Array): string | null {
  if (startsWith(bytes, PDF_MAGIC) || startsWith(bytes, ZIP_MAGIC) || startsWith(bytes, CFB_MAGIC)) return null
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    return null
  }
  return text.includes('\u0000') ? null : text
}
