/** A paragraph of a parsed document with where it stands: its page and the headings above it. A table is one block, as Markdown. */
export type Block = { text: string; headings: string[]; page?: number; heading?: boolean; table?: boolean; recognised?: boolean }

/** A file read into paragraphs; pages are a PDF's pages or a presentation's slides, null for other files. */
export type ParsedDocument = { blocks: Block[]; pages: number | null }

/** `recognised`: some of its text was read by OCR from a scan or picture. */
export type Chunk = { seq: number; content: string; headingPath: string; page: number | null; pageEnd: number | null; recognised: boolean }

/** About 800 tokens (≈ 4 characters each) with some overlap, so a fact cut at a border is still found whole. */
export const CHUNK_CHARS = 3000
export const OVERLAP_CHARS = 300

/**
 * Groups paragraphs into passages of at most `size` characters. A heading starts a new passage
 * once the current one is a third full, and never ends one: a heading whose text does not fit
 * after it moves to the next passage. A table that fits in a passage stays in one; a longer one is
 * cut between rows, each part under the table's header row. Another paragraph longer than a
 * passage is cut at sentence, then word, boundaries. Each passage records the page and heading
 * path of its first paragraph (the overlap carried over from the previous passage does not count)
 * and its last page.
 */
export function chunkBlocks(blocks: Block[], options: { size?: number; overlap?: number } = {}): Chunk[] {
  const size = options.size ?? CHUNK_CHARS
  const overlap = options.overlap ?? OVERLAP_CHARS
  const chunks: Chunk[] = []
  let parts: string[] = []
  let length = 0
  let first: Block | null = null
  let last: Block | null = null
  let carried = ''
  /** The heading that is the current passage's last part, if it is. */
  let trailingHeading: Block | null = null
  let recognised = false

  const flush = (carry: boolean) => {
    if (!first) return
    const content = parts.join('\n\n')
    chunks.push({
      seq: chunks.length,
      content,
      headingPath: first.headings.join(' > '),
      page: first.page ?? null,
      pageEnd: last?.page ?? first.page ?? null,
      recognised,
    })
    carried = carry && overlap > 0 ? tail(content, overlap) : ''
    // The overlap carried over is of the same text.
    recognised &&= !!carried
    parts = carried ? [carried] : []
    length = carried.length
    first = null
    trailingHeading = null
  }
  const add = (piece: string, block: Block) => {
    parts.push(piece)
    length += piece.length + 2
    first ??= block
    last = block
    recognised ||= !!block.recognised
  }

  for (const block of blocks) {
    if (block.heading && first && length >= size / 3) flush(false)
    const pieces = block.table || isMarkdownTable(block.text) ? splitTable(block.text, size - overlap - 2) : split(block.text, size - overlap - 2)
    for (const piece of pieces) {
      if (first && length + piece.length + 2 > size) {
        const heading = trailingHeading
        if (heading && parts.length > 1) {
          // The heading goes with the text under it.
          parts.pop()
          last = heading
          flush(false)
          add(heading.text, heading)
        } else flush(true)
      }
      add(piece, block)
      trailingHeading = block.heading ? block : null
    }
  }
  flush(false)
  return chunks
}

/** Whether a paragraph is a Markdown table: rows of cells between pipes, the second line a separator. */
export function isMarkdownTable(text: string) {
  const lines = text.split('\n')
  return lines.length >= 2 && /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(lines[1]!) && lines.every((l) => l.includes('|'))
}

/** Cuts a Markdown table between rows into pieces of at most `max` characters, each under the header row and separator. */
function splitTable(text: string, max: number): string[] {
  if (text.length <= max) return [text]
  const [header, separator, ...rows] = text.split('\n')
  const head = `${header}\n${separator}`
  if (head.length > max / 2) return split(text, max)
  const pieces: string[] = []
  let current = head
  for (const row of rows) {
    if (current.length + row.length + 1 > max && current !== head) {
      pieces.push(current)
      current = head
    }
    // A single row longer than a passage is cut like a paragraph, under the header.
    if (head.length + row.length + 1 > max) for (const part of split(row, max - head.length - 1)) pieces.push(`${head}\n${part}`)
    else current += `\n${row}`
  }
  if (current !== head) pieces.push(current)
  return pieces
}

/** Cuts a text into pieces of at most `max` characters, preferring sentence and word boundaries. */
function split(text: string, max: number): string[] {
  if (text.length <= max) return [text]
  const pieces: string[] = []
  let rest = text
  while (rest.length > max) {
    const window = rest.slice(0, max)
    const sentence = Math.max(window.lastIndexOf('. '), window.lastIndexOf('.\n'), window.lastIndexOf('? '), window.lastIndexOf('! '), window.lastIndexOf('\n'))
    const space = window.lastIndexOf(' ')
    const at = sentence > max / 2 ? sentence + 1 : space > max / 2 ? space : max
    pieces.push(rest.slice(0, at).trim())
    rest = rest.slice(at).trim()
  }
  if (rest) pieces.push(rest)
  return pieces
}

/** The last `n` characters of a passage, starting at a word. */
function tail(text: string, n: number) {
  if (text.length <= n) return text
  const cut = text.slice(-n)
  const space = cut.indexOf(' ')
  return (space >= 0 && space < n / 2 ? cut.slice(space + 1) : cut).trim()
}
