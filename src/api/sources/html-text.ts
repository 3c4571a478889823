import { Parser } from 'htmlparser2'
import type { Block } from './chunk'

/** Elements whose content is never readable text. */
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'head', 'iframe', 'object', 'canvas', 'select', 'button'])
/** Elements that end a paragraph. */
const BREAKS = new Set([
  'p', 'div', 'li', 'ul', 'ol', 'dl', 'dt', 'dd', 'br', 'hr', 'tr', 'table', 'thead', 'tbody', 'section', 'article', 'main',
  'header', 'footer', 'aside', 'nav', 'blockquote', 'pre', 'figure', 'figcaption', 'form', 'fieldset', 'address', 'details', 'summary', 'caption',
])
const CELLS = new Set(['td', 'th'])

/**
 * Readable text of an HTML document as paragraphs, each with the path of the headings
 * (h1–h6) above it. Scripts, styles and other non-text elements are dropped; entities decoded.
 * A table is one paragraph, as a Markdown table (its first row the header), so that passages
 * keep its rows together; a table inside a cell is read as the cell's text.
 */
export function htmlToBlocks(html: string): Block[] {
  const blocks: Block[] = []
  const headings: string[] = []
  let text = ''
  let skipDepth = 0
  let heading: { level: number; text: string } | null = null
  let preDepth = 0
  /** The outermost table being read: its rows, the row and cell open now, and how deep tables nest in it. */
  let table: { rows: string[][]; row: string[] | null; cell: string | null; depth: number } | null = null

  const flush = () => {
    const value = preDepth ? text.replace(/^\n+|\s+$/g, '') : text.replace(/\s+/g, ' ').trim()
    if (value) blocks.push({ text: value, headings: [...headings] })
    text = ''
  }

  const parser = new Parser(
    {
      onopentag(name) {
        if (skipDepth || SKIPPED.has(name)) {
          skipDepth++
          return
        }
        if (name === 'table') {
          if (table) table.depth++
          else {
            flush()
            table = { rows: [], row: null, cell: null, depth: 1 }
          }
          return
        }
        if (table) {
          if (table.depth === 1 && name === 'tr') table.row = []
          else if (table.depth === 1 && CELLS.has(name)) table.cell = ''
          else if (table.cell !== null && (BREAKS.has(name) || CELLS.has(name))) table.cell += ' '
          return
        }
        const level = /^h([1-6])$/.exec(name)?.[1]
        if (level) {
          flush()
          heading = { level: Number(level), text: '' }
        } else if (BREAKS.has(name)) flush()
        else if (CELLS.has(name) && text.trim()) text += ' | '
        if (name === 'pre') preDepth++
      },
      ontext(data) {
        if (skipDepth) return
        if (table) {
          if (table.cell !== null) table.cell += data
          return
        }
        if (heading) heading.text += data
        else text += data
      },
      onclosetag(name) {
        if (skipDepth) {
          skipDepth--
          return
        }
        if (table) {
          if (name === 'table' && --table.depth === 0) {
            const markdown = markdownTable(table.rows)
            if (markdown) blocks.push({ text: markdown, headings: [...headings], table: true })
            table = null
          } else if (table.depth === 1 && CELLS.has(name) && table.cell !== null) {
            ;(table.row ??= []).push(table.cell.replace(/\s+/g, ' ').trim())
            table.cell = null
          } else if (table.depth === 1 && name === 'tr' && table.row) {
            if (table.row.some(Boolean)) table.rows.push(table.row)
            table.row = null
          }
          return
        }
        if (heading && /^h[1-6]$/.test(name)) {
          const title = heading.text.replace(/\s+/g, ' ').trim()
          if (title) {
            headings.length = Math.min(headings.length, heading.level - 1)
            while (headings.length < heading.level - 1) headings.push('')
            headings.push(title)
            blocks.push({ text: `${'#'.repeat(heading.level)} ${title}`, headings: headings.filter(Boolean), heading: true })
          }
          heading = null
          return
        }
        if (BREAKS.has(name)) flush()
        if (name === 'pre') preDepth = Math.max(0, preDepth - 1)
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  )
  parser.write(html)
  parser.end()
  if (table) {
    // A table never closed: what it had.
    const open = table as { rows: string[][] }
    const markdown = markdownTable(open.rows)
    if (markdown) blocks.push({ text: markdown, headings: [...headings], table: true })
  }
  flush()
  // Empty levels (an h3 under an h1) are placeholders only.
  return blocks.map((b) => ({ ...b, headings: b.headings.filter(Boolean) }))
}

/** Rows of cells as a Markdown table: the first row is the header; pipes inside cells are escaped. */
function markdownTable(rows: string[][]): string {
  if (!rows.length) return ''
  const width = Math.max(...rows.map((r) => r.length))
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => (cells[i] ?? '').replaceAll('|', '\\|')).join(' | ')} |`
  return [line(rows[0]!), `| ${Array.from({ length: width }, () => '---').join(' | ')} |`, ...rows.slice(1).map(line)].join('\n')
}
