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
    expect(blocks.map((b) => b.text)).toEqual(['## Prices', 'Item | €', 'Tea | 2 €', 'One', 'Two'])
    expect(blocks[1]!.headings).toEqual(['Prices'])
  })
})
