/** A paragraph of a parsed document with where it stands: its page and the headings above it. */
export type Block = { text: string; headings: string[]; page?: number; heading?: boolean }

/** A file read into paragraphs; pages are a PDF's pages or a presentation's slides, null for other files. */
export type ParsedDocument = { blocks: Block[]; pages: number | null }

export type Chunk = { seq: number; content: string; headingPath: string; page: number | null; pageEnd: number | null }

/** About 800 tokens (≈ 4 characters each) with some overlap, so a fact cut at a border is still found whole. */
export const CHUNK_CHARS = 3000
export const OVERLAP_CHARS = 300

/**
 * Groups paragraphs into passages of at most `size` characters. A heading starts a new passage
 * once the current one is a third full; a paragraph longer than a passage is cut at sentence,
 * then word, boundaries. Each passage records the page and heading path of its first paragraph
 * (the overlap carried over from the previous passage does not count) and its last page.
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

  const flush = (carry: boolean) => {
    if (!first) return
    const content = parts.join('\n\n')
    chunks.push({
      seq: chunks.length,
      content,
      headingPath: first.headings.join(' > '),
      page: first.page ?? null,
      pageEnd: last?.page ?? first.page ?? null,
    })
    carried = carry && overlap > 0 ? tail(content, overlap) : ''
    parts = carried ? [carried] : []
    length = carried.length
    first = null
  }

  for (const block of blocks) {
    if (block.heading && first && length >= size / 3) flush(false)
    for (const piece of split(block.text, size - overlap - 2)) {
      if (first && length + piece.length + 2 > size) flush(true)
      parts.push(piece)
      length += piece.length + 2
      first ??= block
      last = block
    }
  }
  flush(false)
  return chunks
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
