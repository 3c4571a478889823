import type { Block } from './chunk'

/** Paragraphs of plain text: separated by blank lines. */
export const paragraphs = (value: string) =>
  value
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter(Boolean)

/** Markdown by its headings (ATX `#` and setext underlines), ignoring `#` lines inside code fences. */
export function markdownBlocks(value: string): Block[] {
  const blocks: Block[] = []
  const headings: string[] = []
  let paragraph: string[] = []
  let fence: string | null = null
  const flush = () => {
    const p = paragraph.join('\n').trim()
    if (p) blocks.push({ text: p, headings: headings.filter(Boolean) })
    paragraph = []
  }
  const heading = (level: number, title: string, line: string) => {
    flush()
    headings.length = Math.min(headings.length, level - 1)
    while (headings.length < level - 1) headings.push('')
    headings.push(title)
    blocks.push({ text: line, headings: headings.filter(Boolean), heading: true })
  }
  for (const line of value.split('\n')) {
    const fenceMark = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence) {
      paragraph.push(line)
      if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = null
      continue
    }
    if (fenceMark) {
      fence = fenceMark
      paragraph.push(line)
      continue
    }
    const atx = /^\s{0,3}(#{1,6})\s+(.*?)(\s+#+)?\s*$/.exec(line)
    if (atx) {
      heading(atx[1]!.length, atx[2]!.trim(), line.trim())
      continue
    }
    const setext = /^\s{0,3}(=+|-+)\s*$/.exec(line)
    if (setext && paragraph.length === 1 && paragraph[0]!.trim()) {
      const title = paragraph[0]!.trim()
      paragraph = []
      heading(setext[1]![0] === '=' ? 1 : 2, title, `${setext[1]![0] === '=' ? '#' : '##'} ${title}`)
      continue
    }
    if (!line.trim()) flush()
    else paragraph.push(line)
  }
  flush()
  return blocks
}

/** CSV in groups of rows that fit a passage, each group led by the header row so the columns stay named. */
export function csvBlocks(value: string, groupChars = 2600): Block[] {
  const records = csvRecords(value).filter((r) => r.trim())
  if (records.length === 0) return []
  const [header, ...rows] = records
  if (rows.length === 0) return [{ text: header!, headings: [] }]
  const blocks: Block[] = []
  let group: string[] = []
  let length = header!.length
  for (const row of rows) {
    if (group.length && length + row.length + 1 > groupChars) {
      blocks.push({ text: [header, ...group].join('\n'), headings: [] })
      group = []
      length = header!.length
    }
    group.push(row)
    length += row.length + 1
  }
  if (group.length) blocks.push({ text: [header, ...group].join('\n'), headings: [] })
  return blocks
}

/** Splits CSV text into records as written, keeping quoted fields (which may hold line breaks) whole. */
function csvRecords(value: string): string[] {
  const records: string[] = []
  let start = 0
  let quoted = false
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]
    if (ch === '"') quoted = !quoted
    else if (ch === '\n' && !quoted) {
      records.push(value.slice(start, i))
      start = i + 1
    }
  }
  records.push(value.slice(start))
  return records
}

/** A table row in Markdown: cells padded to `columns`, pipes escaped, line breaks as spaces. */
const markdownRow = (cells: string[], columns: number) =>
  `| ${Array.from({ length: columns }, (_, i) => (cells[i] ?? '').replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim()).join(' | ')} |`

/**
 * A table (its first row the header) as Markdown, in groups of rows that fit a passage, each
 * group led by the header row so the columns stay named (as {@link csvBlocks} does).
 */
export function tableBlocks(rows: string[][], where: Omit<Block, 'text'>, groupChars = 2600): Block[] {
  if (rows.length === 0) return []
  const columns = Math.max(1, ...rows.map((r) => r.length))
  const header = `${markdownRow(rows[0]!, columns)}\n|${' --- |'.repeat(columns)}`
  if (rows.length === 1) return [{ ...where, text: header }]
  const blocks: Block[] = []
  let group: string[] = []
  let length = header.length
  for (const row of rows.slice(1)) {
    const line = markdownRow(row, columns)
    if (group.length && length + line.length + 1 > groupChars) {
      blocks.push({ ...where, text: [header, ...group].join('\n') })
      group = []
      length = header.length
    }
    group.push(line)
    length += line.length + 1
  }
  if (group.length) blocks.push({ ...where, text: [header, ...group].join('\n') })
  return blocks
}
