import { describe, expect, test } from 'bun:test'
import { chunkBlocks, CHUNK_CHARS, OVERLAP_CHARS } from './chunk'
import { htmlToBlocks } from './html-text'
import { csvBlocks, markdownBlocks } from './text-formats'

const sentence = (i: number) => `Sentence number ${i} talks about topic ${i % 7}.`

describe('chunking', () => {
  test('passages stay under the size, overlap their predecessor, and record page ranges', () => {
    const blocks = Array.from({ length: 12 }, (_, p) => ({ text: Array.from({ length: 20 }, (_, i) => sentence(p * 20 + i)).join(' '), headings: [], page: p + 1 }))
    const chunks = chunkBlocks(blocks)
    expect(chunks.length).toBeGreaterThan(3)
    for (const c of chunks) expect(c.content.length).toBeLessThanOrEqual(CHUNK_CHARS)
    for (let i = 1; i < chunks.length; i++) {
      const tail = chunks[i - 1]!.content.slice(-OVERLAP_CHARS / 2)
      expect(chunks[i]!.content.slice(0, OVERLAP_CHARS)).toContain(tail.slice(-40))
      expect(chunks[i]!.page!).toBeGreaterThanOrEqual(chunks[i - 1]!.page!)
    }
    expect(chunks[0]).toMatchObject({ seq: 0, page: 1 })
    expect(chunks.at(-1)!.pageEnd).toBe(12)
    // Every sentence survives chunking.
    const all = chunks.map((c) => c.content).join(' ')
    for (let i = 0; i < 240; i++) expect(all).toContain(sentence(i))
  })

  test('a paragraph longer than a passage is cut at sentence boundaries', () => {
    const text = Array.from({ length: 200 }, (_, i) => sentence(i)).join(' ')
    const chunks = chunkBlocks([{ text, headings: ['Long'] }], { overlap: 0 })
    expect(chunks.length).toBeGreaterThan(2)
    for (const c of chunks) {
      expect(c.content.length).toBeLessThanOrEqual(CHUNK_CHARS)
      expect(c.content.endsWith('.')).toBe(true)
      expect(c.headingPath).toBe('Long')
    }
  })

  test('a heading starts a new passage once the current one is a third full', () => {
    const para = 'x'.repeat(1200)
    const chunks = chunkBlocks([
      { text: '# A', headings: ['A'], heading: true },
      { text: para, headings: ['A'] },
      { text: '## B', headings: ['A', 'B'], heading: true },
      { text: 'short', headings: ['A', 'B'] },
    ])
    expect(chunks.map((c) => c.headingPath)).toEqual(['A', 'A > B'])
    expect(chunks[1]!.content).toBe('## B\n\nshort')
  })

  test('a heading never ends a passage: when the text under it does not fit, it moves to the next passage', () => {
    const chunks = chunkBlocks([
      { text: 'y'.repeat(500), headings: [] },
      { text: '## Terms', headings: ['Terms'], heading: true },
      { text: 'z'.repeat(2800), headings: ['Terms'] },
    ])
    expect(chunks).toHaveLength(2)
    expect(chunks[0]!.content).toBe('y'.repeat(500))
    expect(chunks[1]!.content.startsWith('## Terms\n\nzzz')).toBe(true)
    expect(chunks[1]!.headingPath).toBe('Terms')
  })

  test('a table that fits a passage stays in one; a longer one is cut between rows, each part under the header', () => {
    const row = (i: number) => `| Item ${i} | ${i * 3} € | in stock |`
    const table = (n: number) => ['| Item | Price | State |', '| --- | --- | --- |', ...Array.from({ length: n }, (_, i) => row(i))].join('\n')
    // 40 rows (~1,100 characters) after 2,000 characters of text: the table moves to the next passage whole.
    const small = chunkBlocks([{ text: 'p'.repeat(2000), headings: [] }, { text: table(40), headings: [], table: true }])
    expect(small.filter((c) => c.content.includes('| Item 0 |'))).toHaveLength(1)
    expect(small.find((c) => c.content.includes('| Item 0 |'))!.content).toContain(table(40))
    // 400 rows: every part starts with the header, no row is cut, and every row is somewhere.
    const large = chunkBlocks([{ text: table(400), headings: ['Prices'] }], { overlap: 0 })
    expect(large.length).toBeGreaterThan(3)
    for (const c of large) {
      expect(c.content.startsWith('| Item | Price | State |\n| --- | --- | --- |\n| Item ')).toBe(true)
      expect(c.content.length).toBeLessThanOrEqual(CHUNK_CHARS)
      for (const line of c.content.split('\n')) expect(line).toMatch(/^\|.*\|$/)
    }
    const all = large.map((c) => c.content).join('\n')
    for (let i = 0; i < 400; i++) expect(all).toContain(row(i))
    // A Markdown table read from a text file counts as a table too.
    expect(chunkBlocks([{ text: table(400), headings: [] }], { overlap: 0 }).every((c) => c.content.startsWith('| Item | Price |'))).toBe(true)
  })
})

describe('text formats', () => {
  test('markdown headings nest; setext headings count; fences hide #', () => {
    const blocks = markdownBlocks('Title\n=====\n\nIntro\n\n### Deep\n\nText\n\n## Mid\n\n```\n# code\n```')
    expect(blocks.map((b) => [b.text, b.headings.join(' > ')])).toEqual([
      ['# Title', 'Title'],
      ['Intro', 'Title'],
      ['### Deep', 'Title > Deep'],
      ['Text', 'Title > Deep'],
      ['## Mid', 'Title > Mid'],
      ['```\n# code\n```', 'Title > Mid'],
    ])
  })

  test('CSV rows stay whole, quoted line breaks included', () => {
    expect(csvBlocks('a,b\n1,"two\nlines"\n3,4\n')).toEqual([{ text: 'a,b\n1,"two\nlines"\n3,4', headings: [] }])
  })

  test('HTML: tables, lists and entities read as text; hidden parts are dropped', () => {
    const blocks = htmlToBlocks('<h2>Prices</h2><table><tr><th>Item</th><th>€</th></tr><tr><td>Tea</td><td>2&nbsp;€</td></tr></table><ul><li>One</li><li>Two</li></ul><noscript>x</noscript><template>y</template>')
    expect(blocks.map((b) => b.text)).toEqual(['## Prices', '| Item | € |\n| --- | --- |\n| Tea | 2 € |', 'One', 'Two'])
    expect(blocks[1]).toMatchObject({ table: true, headings: ['Prices'] })
    expect(blocks[1]!.headings).toEqual(['Prices'])
  })
})
