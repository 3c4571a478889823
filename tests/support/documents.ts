/**
 * Small documents made in code for tests and benchmarks: PDFs (optionally "encrypted"), DOCX
 * files (optionally a zip bomb), so that no binary fixture is checked in.
 */
import { unzipSync, zipSync, type Zippable } from 'fflate'
import { crc32, deflateRawSync } from 'node:zlib'

const encoder = new TextEncoder()

const escapePdf = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`)

/**
 * A valid PDF with one page per entry of `pages`, each page's lines set in Helvetica.
 * `encrypted` adds a standard security handler whose user password is not empty, so a reader
 * asks for a password (the content itself is left plain; nothing gets that far).
 */
export function makePdf(pages: string[][], options: { encrypted?: boolean } = {}): Uint8Array<ArrayBuffer> {
  const objects: string[] = []
  const add = (body: string) => objects.push(body) // object number = index + 1
  add('<< /Type /Catalog /Pages 2 0 R >>')
  add('') // pages, filled in below
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
  const kids: number[] = []
  for (const lines of pages) {
    const stream = `BT /F1 11 Tf 14 TL 56 780 Td ${lines.map((l) => `(${escapePdf(l)}) Tj T*`).join(' ')} ET`
    add(`<< /Length ${encoder.encode(stream).length} >>\nstream\n${stream}\nendstream`)
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${objects.length} 0 R >>`)
    kids.push(objects.length)
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`
  let encrypt = ''
  if (options.encrypted) {
    const hex = (n: number) => Array.from({ length: n }, (_, i) => ((i * 37 + 11) % 256).toString(16).padStart(2, '0')).join('')
    add(`<< /Filter /Standard /V 1 /R 2 /Length 40 /O <${hex(32)}> /U <${hex(32).split('').reverse().join('')}> /P -44 >>`)
    encrypt = ` /Encrypt ${objects.length} 0 R /ID [<${hex(16)}> <${hex(16)}>]`
  }
  let out = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n'
  const offsets: number[] = []
  // latin1() writes one byte per character.
  const bytesSoFar = () => out.length
  objects.forEach((body, i) => {
    offsets.push(bytesSoFar())
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = bytesSoFar()
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${encrypt} >>\nstartxref\n${xref}\n%%EOF\n`
  return latin1(out)
}

const latin1 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff)

const xmlEscape = (text: string) => text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!)

/** Paragraphs of a DOCX: plain text, or `{ heading: level, text }`. */
export type DocxParagraph = string | { heading: 1 | 2 | 3; text: string }

/** A minimal Word document (document, styles and relationships), zipped with fflate. */
export function makeDocx(paragraphs: DocxParagraph[], extra: Zippable = {}): Uint8Array<ArrayBuffer> {
  const body = paragraphs
    .map((p) =>
      typeof p === 'string'
        ? `<w:p><w:r><w:t xml:space="preserve">${xmlEscape(p)}</w:t></w:r></w:p>`
        : `<w:p><w:pPr><w:pStyle w:val="Heading${p.heading}"/></w:pPr><w:r><w:t>${xmlEscape(p.text)}</w:t></w:r></w:p>`,
    )
    .join('')
  const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
  const files: Zippable = {
    '[Content_Types].xml': encoder.encode(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
        '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>',
    ),
    '_rels/.rels': encoder.encode(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    'word/_rels/document.xml.rels': encoder.encode(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
    ),
    'word/styles.xml': encoder.encode(
      `<?xml version="1.0" encoding="UTF-8"?><w:styles ${W}>` +
        [1, 2, 3].map((n) => `<w:style w:type="paragraph" w:styleId="Heading${n}"><w:name w:val="heading ${n}"/></w:style>`).join('') +
        '</w:styles>',
    ),
    'word/document.xml': encoder.encode(`<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${body}</w:body></w:document>`),
    ...extra,
  }
  return zipSync(files, { level: 6 }) as Uint8Array<ArrayBuffer>
}

/**
 * A DOCX whose document.xml unpacks to `megabytes` MB (spaces inside the body) from a few KB:
 * what a zip bomb looks like to a server. Zipped by hand with the native zlib (fast for 60 MB).
 */
export function makeDocxBomb(megabytes: number): Uint8Array<ArrayBuffer> {
  const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
  const head = encoder.encode(`<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body><w:p><w:r><w:t>boom</w:t></w:r></w:p>`)
  const tail = encoder.encode('</w:body></w:document>')
  const xml = new Uint8Array(megabytes * 1024 * 1024).fill(0x20)
  xml.set(head, 0)
  xml.set(tail, xml.length - tail.length)
  const small = unzipSync(makeDocx([]))
  return zipDeflated({ ...small, 'word/document.xml': xml })
}

/** A zip of deflated entries, written out by hand. */
function zipDeflated(files: Record<string, Uint8Array>): Uint8Array<ArrayBuffer> {
  const locals: Uint8Array[] = []
  const centrals: Uint8Array[] = []
  let offset = 0
  for (const [name, data] of Object.entries(files)) {
    const nameBytes = encoder.encode(name)
    const packed = deflateRawSync(data, { level: 9 })
    const fields = (header: DataView, at: number) => {
      header.setUint16(at, 20, true) // version needed
      header.setUint16(at + 4, 8, true) // deflate
      header.setUint32(at + 10, crc32(data), true)
      header.setUint32(at + 14, packed.length, true)
      header.setUint32(at + 18, data.length, true)
      header.setUint16(at + 22, nameBytes.length, true)
    }
    const local = new Uint8Array(30 + nameBytes.length + packed.length)
    const lv = new DataView(local.buffer)
    lv.setUint32(0, 0x04034b50, true)
    fields(lv, 4)
    local.set(nameBytes, 30)
    local.set(packed, 30 + nameBytes.length)
    const central = new Uint8Array(46 + nameBytes.length)
    const cv = new DataView(central.buffer)
    cv.setUint32(0, 0x02014b50, true)
    cv.setUint16(4, 20, true)
    fields(cv, 6)
    cv.setUint32(42, offset, true)
    central.set(nameBytes, 46)
    locals.push(local)
    centrals.push(central)
    offset += local.length
  }
  const dirSize = centrals.reduce((n, c) => n + c.length, 0)
  const end = new Uint8Array(22)
  const ev = new DataView(end.buffer)
  ev.setUint32(0, 0x06054b50, true)
  ev.setUint16(8, centrals.length, true)
  ev.setUint16(10, centrals.length, true)
  ev.setUint32(12, dirSize, true)
  ev.setUint32(16, offset, true)
  const out = new Uint8Array(offset + dirSize + 22)
  let at = 0
  for (const part of [...locals, ...centrals, end]) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/** A zip whose central directory says document.xml is small while it inflates to `megabytes` MB. */
export function makeLyingDocx(megabytes: number): Uint8Array<ArrayBuffer> {
  const zip = makeDocxBomb(megabytes)
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength)
  const name = encoder.encode('word/document.xml')
  // Rewrite the declared uncompressed size (central directory and local header) to 1 KB.
  for (let at = 0; at < zip.length - 46; at++) {
    const sig = view.getUint32(at, true)
    if (sig === 0x02014b50 && matches(zip, at + 46, name)) view.setUint32(at + 24, 1024, true)
    if (sig === 0x04034b50 && matches(zip, at + 30, name)) view.setUint32(at + 22, 1024, true)
  }
  return zip
}

const matches = (bytes: Uint8Array, at: number, name: Uint8Array) => name.every((b, i) => bytes[at + i] === b)
