import { Parser } from 'htmlparser2'
import { AppError } from '../../lib/errors'
import type { Block, ParsedDocument } from './chunk'
import { tableBlocks } from './text-formats'
import { guardZip, readZipEntry, readZipText } from './zip'

// PowerPoint and Excel files: zips of XML parts (Office Open XML), read with the zip guard of
// zip.ts and a streaming XML parser, so that no part is ever held as a tree.

type Progress = () => Promise<void>

/**
 * Most rows read of one sheet, columns of one row, and cells and characters (of the tables as
 * written) of a whole workbook; the rest of a sheet is cut (and the text says so). The characters
 * stay under what a file may hold in all (MAX_TEXT_CHARS), so a large workbook is cut, not failed.
 */
export const MAX_SHEET_ROWS = 10_000
export const MAX_SHEET_COLUMNS = 100
export const MAX_WORKBOOK_CELLS = 100_000
export const MAX_WORKBOOK_CHARS = 2_500_000
/** Most slides of a presentation (as many as pages of a PDF). */
export const MAX_SLIDES = 2000

/** Only XML parts are ever unpacked (never images, media or embedded objects). */
const isXml = (name: string) => /\.(xml|rels)$/i.test(name)

type Handlers = { open?: (name: string, attrs: Record<string, string>) => void; text?: (data: string) => void; close?: (name: string) => void }

/** Streams an XML part to the handlers with element names without their namespace prefix (`a:t` → `t`). */
function readXml(xml: string, handlers: Handlers) {
  const local = (name: string) => name.slice(name.indexOf(':') + 1)
  const parser = new Parser(
    {
      onopentag: (name, attrs) => handlers.open?.(local(name), attrs),
      ontext: (data) => handlers.text?.(data),
      onclosetag: (name) => handlers.close?.(local(name)),
    },
    { xmlMode: true, decodeEntities: true },
  )
  parser.write(xml)
  parser.end()
}

/** The relationship id of an element (`r:id`, whatever the prefix). */
const relId = (attrs: Record<string, string>) => Object.entries(attrs).find(([k]) => k.endsWith(':id'))?.[1]

/** A part's relationships (id → target path and type), targets resolved against the part's folder. */
function relationships(files: Map<string, string>, part: string): Map<string, { target: string; type: string }> {
  const folder = part.slice(0, part.lastIndexOf('/') + 1)
  const rels = new Map<string, { target: string; type: string }>()
  const xml = files.get(`${folder}_rels/${part.slice(folder.length)}.rels`)
  if (!xml) return rels
  readXml(xml, {
    open(name, attrs) {
      if (name !== 'Relationship' || !attrs.Id || !attrs.Target || attrs.TargetMode === 'External') return
      rels.set(attrs.Id, { target: resolvePath(folder, attrs.Target), type: attrs.Type ?? '' })
    },
  })
  return rels
}

function resolvePath(folder: string, target: string) {
  const parts = target.startsWith('/') ? [] : folder.split('/').filter(Boolean)
  for (const segment of target.split('/')) {
    if (segment === '..') parts.pop()
    else if (segment && segment !== '.') parts.push(segment)
  }
  return parts.join('/')
}

const clean = (text: string) =>
  text
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .trim()

// ---------------------------------------------------------------------------------------------
// PPTX

/** Placeholders whose text repeats on every slide or is no content: date, footer, slide number, header, the slide image on a notes page. */
const SKIPPED_PLACEHOLDERS = new Set(['dt', 'ftr', 'sldNum', 'hdr', 'sldImg'])

type SlideText = { title: string; parts: Array<{ text: string } | { table: string[][] }> }

/**
 * The text of a slide (or notes page) in document order: each shape's paragraphs as one part,
 * each table as rows of cells; the first title placeholder is the title.
 */
function slideText(xml: string): SlideText {
  const slide: SlideText = { title: '', parts: [] }
  let shape: { title: boolean; skip: boolean; lines: string[] } | null = null
  let paragraph: string | null = null
  let inText = false
  let table: string[][] | null = null
  let row: string[] | null = null
  let cell: string[] | null = null
  readXml(xml, {
    open(name, attrs) {
      if (name === 'sp') shape = { title: false, skip: false, lines: [] }
      else if (name === 'ph' && shape) {
        shape.title ||= attrs.type === 'title' || attrs.type === 'ctrTitle'
        shape.skip ||= SKIPPED_PLACEHOLDERS.has(attrs.type ?? '')
      } else if (name === 'tbl') table = []
      else if (name === 'tr' && table) row = []
      else if (name === 'tc' && row) cell = []
      else if (name === 'p') paragraph = ''
      else if (name === 't' && paragraph !== null) inText = true
      else if (name === 'br' && paragraph !== null) paragraph += '\n'
    },
    text(data) {
      if (inText) paragraph += data
    },
    close(name) {
      if (name === 't') inText = false
      else if (name === 'p' && paragraph !== null) {
        const text = clean(paragraph)
        paragraph = null
        if (!text) return
        if (cell) cell.push(text)
        else if (shape) shape.lines.push(text)
        else slide.parts.push({ text })
      } else if (name === 'tc' && cell && row) {
        row.push(cell.join(' '))
        cell = null
      } else if (name === 'tr' && row && table) {
        table.push(row)
        row = null
      } else if (name === 'tbl' && table) {
        if (table.some((r) => r.some(Boolean))) slide.parts.push({ table })
        table = null
      } else if (name === 'sp' && shape) {
        const current: { title: boolean; skip: boolean; lines: string[] } = shape
        shape = null
        if (current.skip || !current.lines.length) return
        if (current.title && !slide.title) slide.title = current.lines.join(' ')
        else slide.parts.push({ text: current.lines.join('\n') })
      }
    },
  })
  return slide
}

/**
 * A presentation's slides in their order, each led by a "Slide N: title" heading and followed by
 * its text boxes, tables (as Markdown) and speaker notes. The slide number is the page of its
 * passages, so citations name the slide as they name a PDF's page.
 */
export async function parsePptx(bytes: Uint8Array, progress: Progress): Promise<ParsedDocument> {
  guardZip(bytes, (name) => !isXml(name))
  const files = readZipText(bytes, (name) => isXml(name) && /^ppt\/(presentation\.xml|_rels\/presentation\.xml\.rels|slides\/|notesSlides\/[^/]+\.xml$)/.test(name))
  const presentation = files.get('ppt/presentation.xml')
  if (!presentation) throw new AppError('SOURCE_UNREADABLE')
  const rels = relationships(files, 'ppt/presentation.xml')
  // A part listed twice is read once: repeats must not multiply the work of a large part.
  const listed = new Set<string>()
  readXml(presentation, {
    open(name, attrs) {
      const target = name === 'sldId' ? rels.get(relId(attrs) ?? '')?.target : undefined
      if (target && files.has(target)) listed.add(target)
    },
  })
  const order = [...listed]
  if (order.length > MAX_SLIDES) throw new AppError('SOURCE_TOO_LARGE')
  const blocks: Block[] = []
  const notesRead = new Set<string>()
  for (const [i, part] of order.entries()) {
    const page = i + 1
    const slide = slideText(files.get(part)!)
    const title = `Slide ${page}${slide.title ? `: ${slide.title.replace(/\s+/g, ' ')}` : ''}`
    const where = { headings: [title], page }
    blocks.push({ ...where, text: `# ${title}`, heading: true })
    for (const item of slide.parts) blocks.push(...('text' in item ? [{ ...where, text: item.text }] : tableBlocks(item.table, where)))
    const notesPart = [...relationships(files, part).values()].find((r) => r.type.endsWith('/notesSlide'))?.target
    const notes = notesPart && !notesRead.has(notesPart) && files.get(notesPart)
    if (notesPart) notesRead.add(notesPart)
    if (notes) {
      const text = slideText(notes)
        .parts.map((p) => ('text' in p ? p.text : p.table.map((r) => r.join(' | ')).join('\n')))
        .join('\n')
      if (text) blocks.push({ ...where, text: `Speaker notes: ${text}` })
    }
    if (page % 50 === 0) await progress()
  }
  return { blocks, pages: order.length || null }
}

// ---------------------------------------------------------------------------------------------
// XLSX

/** Excel's built-in number formats that show dates or times. */
const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57])

/** A custom number format shows a date or time when it has d, m, y, h or s outside quotes, escapes and brackets. */
const isDateFormat = (code: string) => /[dmyhs]/i.test(code.replace(/"[^"]*"|\\.|\[[^\]]*\]|_.|\*./g, ''))

type Workbook = { sheets: Array<{ name: string; part: string }>; date1904: boolean; strings: string[]; dateStyles: Set<number> }

function readWorkbook(files: Map<string, string>): Workbook {
  const xml = files.get('xl/workbook.xml')
  if (!xml) throw new AppError('SOURCE_UNREADABLE')
  const rels = relationships(files, 'xl/workbook.xml')
  const book: Workbook = { sheets: [], date1904: false, strings: [], dateStyles: new Set() }
  const parts = new Set<string>()
  readXml(xml, {
    open(name, attrs) {
      if (name === 'workbookPr') book.date1904 = attrs.date1904 === '1' || attrs.date1904 === 'true'
      if (name !== 'sheet') return
      const rel = rels.get(relId(attrs) ?? '')
      // Chart sheets and dialog sheets hold no cells.
      // A part listed twice is read once: repeats must not multiply the work of a large part.
      if (rel?.type.endsWith('/worksheet') && !parts.has(rel.target)) {
        parts.add(rel.target)
        book.sheets.push({ name: attrs.name ?? `Sheet ${book.sheets.length + 1}`, part: rel.target })
      }
    },
  })
  const shared = files.get('xl/sharedStrings.xml')
  if (shared) {
    let item: string | null = null
    let inText = false
    let phonetic = 0
    readXml(shared, {
      open(name) {
        if (name === 'si') item = ''
        else if (name === 'rPh') phonetic++
        else if (name === 't' && item !== null && !phonetic) inText = true
      },
      text(data) {
        if (inText) item += data
      },
      close(name) {
        if (name === 't') inText = false
        else if (name === 'rPh') phonetic--
        else if (name === 'si' && item !== null) {
          book.strings.push(item)
          item = null
        }
      },
    })
  }
  const styles = files.get('xl/styles.xml')
  if (styles) {
    const custom = new Map<number, string>()
    let xfs = false
    let index = 0
    readXml(styles, {
      open(name, attrs) {
        if (name === 'numFmt') custom.set(Number(attrs.numFmtId), attrs.formatCode ?? '')
        else if (name === 'cellXfs') xfs = true
        else if (name === 'xf' && xfs) {
          const id = Number(attrs.numFmtId ?? 0)
          if (DATE_FORMAT_IDS.has(id) || (custom.has(id) && isDateFormat(custom.get(id)!))) book.dateStyles.add(index)
          index++
        }
      },
      close(name) {
        if (name === 'cellXfs') xfs = false
      },
    })
  }
  return book
}

/** A column's index from a cell reference (`C7` → 2), or -1. */
function columnOf(ref: string | undefined) {
  const letters = /^[A-Z]+/i.exec(ref ?? '')?.[0]
  if (!letters) return -1
  let n = 0
  for (const ch of letters.toUpperCase()) n = n * 26 + ch.charCodeAt(0) - 64
  return n - 1
}

const pad = (n: number) => String(n).padStart(2, '0')

/** An Excel date serial as an ISO date, time, or both. */
function excelDate(serial: number, date1904: boolean) {
  if (!Number.isFinite(serial) || serial < 0) return String(serial)
  const ms = Math.round((serial - (date1904 ? 24107 : 25569)) * 86_400_000)
  const d = new Date(ms)
  if (Number.isNaN(d.getTime())) return String(serial)
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}${d.getUTCSeconds() ? `:${pad(d.getUTCSeconds())}` : ''}`
  if (serial < 1) return time
  return Number.isInteger(serial) ? date : `${date} ${time}`
}

/** Numbers as Excel shows them at most: 15 significant digits (so 0.1 + 0.2 is 0.3). */
const excelNumber = (value: string) => {
  const n = Number(value)
  return Number.isFinite(n) ? String(Number(n.toPrecision(15))) : value
}

type Sheet = { rows: string[][]; rowsWithValues: number; columnsCut: boolean; cells: number; chars: number }
type Budget = { cells: number; chars: number }

/**
 * The rows of a worksheet that have a value, as text: shared and inline strings, numbers, booleans,
 * errors, dates by their cell style; formulas by their cached value. At most
 * {@link MAX_SHEET_ROWS} rows, {@link MAX_SHEET_COLUMNS} columns and the cells and characters
 * left in the workbook's budget are kept (a row whole or not at all); the rest are only counted.
 */
function readSheet(xml: string, book: Workbook, budget: Budget): Sheet {
  const sheet: Sheet = { rows: [], rowsWithValues: 0, columnsCut: false, cells: 0, chars: 0 }
  let full = false
  let row: string[] | null = null
  let hasValue = false
  let cell: { column: number; type: string; style: number; value: string } | null = null
  let lastColumn = -1
  let inValue = false
  let inline = false
  let phonetic = 0
  readXml(xml, {
    open(name, attrs) {
      if (name === 'row') {
        row = []
        hasValue = false
        lastColumn = -1
        full ||= sheet.rows.length >= MAX_SHEET_ROWS
      } else if (name === 'c' && row) {
        const column = columnOf(attrs.r)
        lastColumn = column >= 0 ? column : lastColumn + 1
        cell = { column: lastColumn, type: attrs.t ?? 'n', style: Number(attrs.s ?? 0), value: '' }
      } else if (name === 'v' && cell) inValue = true
      else if (name === 'is' && cell) inline = true
      else if (name === 'rPh') phonetic++
      else if (name === 't' && inline && !phonetic) inValue = true
    },
    text(data) {
      if (inValue && cell) cell.value += data
    },
    close(name) {
      if (name === 'v' || name === 't') inValue = false
      else if (name === 'is') inline = false
      else if (name === 'rPh') phonetic--
      else if (name === 'c' && cell && row) {
        const text = cellText(cell, book)
        cell = null
        if (!text) return
        hasValue = true
        if (lastColumn >= MAX_SHEET_COLUMNS) sheet.columnsCut = true
        else if (!full) row[lastColumn] = text
      } else if (name === 'row' && row) {
        if (hasValue) {
          sheet.rowsWithValues++
          // Each cell costs its text and the table's separators.
          const chars = Array.from(row, (v) => v ?? '').reduce((n, v) => n + v.length + 3, 2)
          if (!full && sheet.cells + row.length <= budget.cells && sheet.chars + chars <= budget.chars) {
            sheet.rows.push(Array.from(row, (v) => v ?? ''))
            sheet.cells += row.length
            sheet.chars += chars
          } else full = true
        }
        row = null
      }
    },
  })
  return sheet
}

function cellText(cell: { type: string; style: number; value: string }, book: Workbook) {
  const value = cell.value
  if (value === '') return ''
  switch (cell.type) {
    case 's':
      return book.strings[Number(value)] ?? ''
    case 'b':
      return value === '1' ? 'TRUE' : 'FALSE'
    case 'str':
    case 'inlineStr':
    case 'e':
      return value
    case 'd':
      return value.replace(/T00:00:00(\.0+)?Z?$/, '').replace('T', ' ')
    default:
      return book.dateStyles.has(cell.style) ? excelDate(Number(value), book.date1904) : excelNumber(value)
  }
}

const count = (n: number) => n.toLocaleString('en')

/**
 * A workbook's sheets in order, each as a Markdown table (its first row the header) under the
 * sheet's name as a heading. A sheet past {@link MAX_SHEET_ROWS} rows, {@link MAX_SHEET_COLUMNS}
 * columns, or past the workbook's {@link MAX_WORKBOOK_CELLS} cells or {@link MAX_WORKBOOK_CHARS}
 * characters, is cut, and its text says so.
 */
export async function parseXlsx(bytes: Uint8Array, progress: Progress): Promise<ParsedDocument> {
  const entries = new Map(guardZip(bytes, (name) => !isXml(name)).map((e) => [e.name, e]))
  const book = readWorkbook(readZipText(bytes, (name) => isXml(name) && /^xl\/(workbook\.xml|_rels\/workbook\.xml\.rels|sharedStrings\.xml|styles\.xml)$/.test(name)))
  const blocks: Block[] = []
  const left: Budget = { cells: MAX_WORKBOOK_CELLS, chars: MAX_WORKBOOK_CHARS }
  for (const { name, part } of book.sheets) {
    // One sheet unpacked at a time.
    const entry = entries.get(part)
    if (!entry) continue
    const xml = readZipEntry(bytes, entry)
    const sheet = readSheet(xml, book, left)
    left.cells -= sheet.cells
    const where = { headings: [name] }
    // The table as written (its header repeated in every passage) is kept while the workbook's characters last.
    const table: Block[] = []
    let kept = 0
    for (const block of tableBlocks(sheet.rows, where)) {
      if (block.text.length > left.chars) break
      left.chars -= block.text.length
      table.push(block)
      // The header row once, then the rows under the header and its separator line.
      kept += (table.length === 1 ? 1 : 0) + block.text.split('\n').length - 2
    }
    blocks.push({ ...where, text: `# ${name}`, heading: true })
    const notes: string[] = []
    if (kept < sheet.rowsWithValues) notes.push(`only its first ${count(kept)} of ${count(sheet.rowsWithValues)} rows were read`)
    if (sheet.columnsCut) notes.push(`only its first ${MAX_SHEET_COLUMNS} columns were read`)
    if (notes.length) blocks.push({ ...where, text: `(This sheet was cut: ${notes.join(', and ')}.)` })
    blocks.push(...table)
    await progress()
  }
  return { blocks, pages: null }
}
