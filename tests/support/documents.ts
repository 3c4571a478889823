/**
 * Small documents made in code for tests and benchmarks: PDFs (optionally "encrypted"), DOCX,
 * PPTX and XLSX files (optionally zip bombs) and Outlook items, so that no binary fixture is
 * checked in.
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

const zipOf = (files: Record<string, string>, extra: Zippable = {}) =>
  zipSync({ ...Object.fromEntries(Object.entries(files).map(([name, xml]) => [name, encoder.encode(xml)])), ...extra }, { level: 6 }) as Uint8Array<ArrayBuffer>

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const relsXml = (rels: Array<[id: string, type: string, target: string]>) =>
  `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  rels.map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`).join('') +
  '</Relationships>'
const contentTypes = (overrides: Array<[part: string, type: string]>) =>
  `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
  overrides.map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`).join('') +
  '</Types>'

/** A slide: its title, text boxes (each a list of paragraphs), an optional table and speaker notes. */
export type PptxSlide = { title?: string; boxes?: string[][]; table?: string[][]; notes?: string }

/**
 * A minimal PowerPoint presentation. The slide parts are numbered backwards (slide1.xml is the
 * last slide), so only the presentation's list of slides gives their order, as in decks whose
 * slides were moved. Each slide has a footer and a slide number placeholder (not content).
 */
export function makePptx(slides: PptxSlide[], extra: Zippable = {}): Uint8Array<ArrayBuffer> {
  const P = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"'
  const paragraphs = (lines: string[]) => lines.map((l) => `<a:p><a:r><a:rPr lang="en-US"/><a:t>${xmlEscape(l)}</a:t></a:r></a:p>`).join('')
  const shape = (id: number, lines: string[], placeholder = '') =>
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Shape ${id}"/><p:cNvSpPr/><p:nvPr>${placeholder}</p:nvPr></p:nvSpPr><p:spPr/>` +
    `<p:txBody><a:bodyPr/><a:lstStyle/>${paragraphs(lines)}</p:txBody></p:sp>`
  const table = (rows: string[][]) =>
    '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="9" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/>' +
    '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblGrid/>' +
    rows.map((r) => `<a:tr h="370840">${r.map((c) => `<a:tc><a:txBody><a:bodyPr/>${paragraphs([c])}</a:txBody><a:tcPr/></a:tc>`).join('')}</a:tr>`).join('') +
    '</a:tbl></a:graphicData></a:graphic></p:graphicFrame>'
  const files: Record<string, string> = {
    '[Content_Types].xml': contentTypes([
      ['/ppt/presentation.xml', 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml'],
      ...slides.map((_, i): [string, string] => [`/ppt/slides/slide${i + 1}.xml`, 'application/vnd.openxmlformats-officedocument.presentationml.slide+xml']),
    ]),
    '_rels/.rels': relsXml([['rId1', 'officeDocument', 'ppt/presentation.xml']]),
    'ppt/presentation.xml':
      `${XML}<p:presentation ${P}><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 2}"/>`).join('')}</p:sldIdLst>` +
      '<p:sldSz cx="12192000" cy="6858000"/></p:presentation>',
    'ppt/_rels/presentation.xml.rels': relsXml(slides.map((_, i) => [`rId${i + 2}`, 'slide', `slides/slide${slides.length - i}.xml`])),
  }
  slides.forEach((slide, i) => {
    const n = slides.length - i
    const shapes = [
      slide.title !== undefined ? shape(2, [slide.title], '<p:ph type="title"/>') : '',
      ...(slide.boxes ?? []).map((lines, j) => shape(3 + j, lines, j === 0 ? '<p:ph idx="1"/>' : '')),
      slide.table ? table(slide.table) : '',
      shape(20, ['Acme Corp — confidential'], '<p:ph type="ftr" sz="quarter" idx="11"/>'),
      shape(21, [String(i + 1)], '<p:ph type="sldNum" sz="quarter" idx="12"/>'),
    ]
    files[`ppt/slides/slide${n}.xml`] = `${XML}<p:sld ${P}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shapes.join('')}</p:spTree></p:cSld></p:sld>`
    files[`ppt/slides/_rels/slide${n}.xml.rels`] = relsXml([
      ['rId1', 'slideLayout', '../slideLayouts/slideLayout1.xml'],
      ...(slide.notes ? [['rId2', 'notesSlide', `../notesSlides/notesSlide${n}.xml`] as [string, string, string]] : []),
    ])
    if (slide.notes) {
      files[`ppt/notesSlides/notesSlide${n}.xml`] =
        `${XML}<p:notes ${P}><p:cSld><p:spTree>${shape(2, [], '<p:ph type="sldImg"/>')}${shape(3, [slide.notes], '<p:ph type="body" idx="1"/>')}${shape(4, [String(i + 1)], '<p:ph type="sldNum" idx="5"/>')}</p:spTree></p:cSld></p:notes>`
    }
  })
  files['ppt/slideLayouts/slideLayout1.xml'] = `${XML}<p:sldLayout ${P}><p:cSld><p:spTree>${shape(2, ['Click to edit the title'], '<p:ph type="title"/>')}</p:spTree></p:cSld></p:sldLayout>`
  return zipOf(files, extra)
}

/** A cell of a sheet: text (shared or, with `inline`, an inline string), a number, a boolean, a date (by its style), or a formula with its cached value. */
export type XlsxCell = string | number | boolean | null | { inline: string } | { date: number; time?: boolean } | { formula: string; value: number | string }

/** A minimal Excel workbook with shared strings and styles (index 1 a date, 2 a date and time). */
export function makeXlsx(sheets: Array<{ name: string; rows: XlsxCell[][]; hidden?: boolean }>, extra: Zippable = {}): Uint8Array<ArrayBuffer> {
  const S = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
  const strings: string[] = []
  const shared = (s: string) => (strings.includes(s) ? strings.indexOf(s) : strings.push(s) - 1)
  const column = (i: number): string => (i >= 26 ? column(Math.floor(i / 26) - 1) : '') + String.fromCharCode(65 + (i % 26))
  const cellXml = (cell: XlsxCell, ref: string) => {
    if (cell === null) return ''
    if (typeof cell === 'string') return `<c r="${ref}" t="s"><v>${shared(cell)}</v></c>`
    if (typeof cell === 'number') return `<c r="${ref}"><v>${cell}</v></c>`
    if (typeof cell === 'boolean') return `<c r="${ref}" t="b"><v>${cell ? 1 : 0}</v></c>`
    if ('inline' in cell) return `<c r="${ref}" t="inlineStr"><is><t>${xmlEscape(cell.inline)}</t></is></c>`
    if ('date' in cell) return `<c r="${ref}" s="${cell.time ? 2 : 1}"><v>${cell.date}</v></c>`
    return typeof cell.value === 'string'
      ? `<c r="${ref}" t="str"><f>${xmlEscape(cell.formula)}</f><v>${xmlEscape(cell.value)}</v></c>`
      : `<c r="${ref}"><f>${xmlEscape(cell.formula)}</f><v>${cell.value}</v></c>`
  }
  const files: Record<string, string> = {
    '[Content_Types].xml': contentTypes([['/xl/workbook.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml']]),
    '_rels/.rels': relsXml([['rId1', 'officeDocument', 'xl/workbook.xml']]),
    'xl/workbook.xml':
      `${XML}<workbook ${S}><workbookPr/><sheets>` +
      sheets.map((s, i) => `<sheet name="${xmlEscape(s.name)}" sheetId="${i + 1}"${s.hidden ? ' state="hidden"' : ''} r:id="rId${i + 1}"/>`).join('') +
      '</sheets></workbook>',
    'xl/_rels/workbook.xml.rels': relsXml([
      ...sheets.map((_, i): [string, string, string] => [`rId${i + 1}`, 'worksheet', `worksheets/sheet${i + 1}.xml`]),
      [`rId${sheets.length + 1}`, 'sharedStrings', 'sharedStrings.xml'],
      [`rId${sheets.length + 2}`, 'styles', '/xl/styles.xml'],
    ]),
    'xl/styles.xml':
      `${XML}<styleSheet ${S}><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy\\ hh:mm"/></numFmts>` +
      '<cellStyleXfs count="1"><xf numFmtId="0"/></cellStyleXfs>' +
      '<cellXfs count="3"><xf numFmtId="0" xfId="0"/><xf numFmtId="14" xfId="0" applyNumberFormat="1"/><xf numFmtId="164" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>',
  }
  sheets.forEach((sheet, i) => {
    const rows = sheet.rows.map((cells, r) => `<row r="${r + 1}">${cells.map((c, j) => cellXml(c, `${column(j)}${r + 1}`)).join('')}</row>`)
    files[`xl/worksheets/sheet${i + 1}.xml`] = `${XML}<worksheet ${S}><sheetData>${rows.join('')}</sheetData></worksheet>`
  })
  files['xl/sharedStrings.xml'] = `${XML}<sst ${S} count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t xml:space="preserve">${xmlEscape(s)}</t></si>`).join('')}</sst>`
  return zipOf(files, extra)
}

/**
 * An Office document whose one XML part unpacks to `megabytes` MB (spaces) from a few KB: a zip
 * bomb in the clothes of a PPTX or an XLSX.
 */
export function makeOfficeBomb(kind: 'pptx' | 'xlsx', megabytes: number): Uint8Array<ArrayBuffer> {
  const small = unzipSync(kind === 'pptx' ? makePptx([{ title: 'Boom' }]) : makeXlsx([{ name: 'Boom', rows: [['boom']] }]))
  const part = kind === 'pptx' ? 'ppt/slides/slide1.xml' : 'xl/worksheets/sheet1.xml'
  const xml = new Uint8Array(megabytes * 1024 * 1024).fill(0x20)
  xml.set(small[part]!, 0)
  return zipDeflated({ ...small, [part]: xml })
}

/** An Outlook item (.msg) as Outlook writes one: message properties in a compound file. */
export async function makeMsg(mail: {
  subject: string
  from: { name: string; address: string }
  to: Array<{ name: string; address: string; cc?: boolean }>
  date: Date
  /** The plain-text body; without it, `html` (bytes in the code page `codepage`) is the only body. */
  body?: string
  html?: { bytes: Uint8Array; codepage: number }
  attachments?: Array<{ name: string; data: Uint8Array }>
}): Promise<Uint8Array<ArrayBuffer>> {
  const { burn } = await import('@kenjiuno/msgreader/lib/Burner')
  const ROOT = 5
  const DIRECTORY = 1
  const DOCUMENT = 2
  type Entry = { name: string; type: number; length: number; children?: number[]; binaryProvider?: () => ArrayLike<number> }
  const entries: Entry[] = [{ name: 'Root Entry', type: ROOT, length: 0, children: [] }]
  const utf16 = (text: string) => {
    const out = new Uint8Array(text.length * 2 + 2)
    for (let i = 0; i < text.length; i++) new DataView(out.buffer).setUint16(i * 2, text.charCodeAt(i), true)
    return out
  }
  const add = (parent: number, name: string, data: Uint8Array) => {
    entries[parent]!.children!.push(entries.length)
    entries.push({ name, type: DOCUMENT, length: data.length, binaryProvider: () => data })
  }
  const folder = (name: string) => {
    entries[0]!.children!.push(entries.length)
    entries.push({ name, type: DIRECTORY, length: 0, children: [] })
    return entries.length - 1
  }
  const text = (parent: number, id: number, value: string) => add(parent, `__substg1.0_${id.toString(16).toUpperCase().padStart(4, '0')}001F`, utf16(value))
  /** A property stream: a header of `header` bytes, then 16 bytes for each fixed-size property. */
  const properties = (header: number, props: Array<[tag: number, value: (view: DataView) => void]>) => {
    const out = new Uint8Array(header + 16 * props.length)
    const view = new DataView(out.buffer)
    props.forEach(([tag, write], i) => {
      view.setUint32(header + 16 * i, tag, true)
      view.setUint32(header + 16 * i + 4, 6, true) // readable, writable
      write(new DataView(out.buffer, header + 16 * i + 8, 8))
    })
    return out
  }
  const attachments = mail.attachments ?? []
  const fileTime = BigInt(mail.date.getTime()) * 10_000n + 116_444_736_000_000_000n
  const rootProps = properties(32, [
    [0x00390040, (v) => v.setBigUint64(0, fileTime, true)],
    ...(mail.html ? [[0x3fde0003, (v: DataView) => v.setUint32(0, mail.html!.codepage, true)] as [number, (v: DataView) => void]] : []),
  ])
  new DataView(rootProps.buffer).setUint32(8, mail.to.length, true)
  new DataView(rootProps.buffer).setUint32(12, attachments.length, true)
  new DataView(rootProps.buffer).setUint32(16, mail.to.length, true)
  new DataView(rootProps.buffer).setUint32(20, attachments.length, true)
  add(0, '__properties_version1.0', rootProps)
  text(0, 0x001a, 'IPM.Note')
  text(0, 0x0037, mail.subject)
  text(0, 0x0c1a, mail.from.name)
  text(0, 0x5d01, mail.from.address)
  if (mail.body !== undefined) text(0, 0x1000, mail.body)
  if (mail.html) add(0, '__substg1.0_10130102', mail.html.bytes)
  mail.to.forEach((r, i) => {
    const dir = folder(`__recip_version1.0_#${String(i).padStart(8, '0')}`)
    add(dir, '__properties_version1.0', properties(8, [[0x0c150003, (v) => v.setUint32(0, r.cc ? 2 : 1, true)]]))
    text(dir, 0x3001, r.name)
    text(dir, 0x39fe, r.address)
  })
  attachments.forEach((a, i) => {
    const dir = folder(`__attach_version1.0_#${String(i).padStart(8, '0')}`)
    add(dir, '__properties_version1.0', properties(8, [[0x37050003, (v) => v.setUint32(0, 1, true)]]))
    text(dir, 0x3707, a.name)
    add(dir, '__substg1.0_37010102', a.data)
  })
  return burn(entries as Parameters<typeof burn>[0]) as Uint8Array<ArrayBuffer>
}
