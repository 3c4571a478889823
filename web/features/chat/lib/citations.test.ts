import { describe, expect, test } from 'bun:test'
import { findCitations } from './citations'
import { rehypeCitations } from './rehype-citations'
import type { SourcePassage } from './tool-data'

const passage = (sourceName: string, page: number | null, pageEnd: number | null, citation: string): SourcePassage => ({
  sourceName,
  page,
  pageEnd,
  headingPath: '',
  citation,
  text: `Text of ${citation}`,
})
const passages = [
  passage('plant.pdf', 3, 3, '(plant.pdf, p. 3)'),
  passage('plant.pdf', 5, 7, '(plant.pdf, pp. 5–7)'),
  passage('notes.txt', null, null, '(notes.txt, chunk 2)'),
]
const cited = (text: string) => findCitations(text, passages).map((m) => [text.slice(m.start, m.end), m.passage])

describe('findCitations', () => {
  test('a citation exactly as the tool gave it, parentheses included', () => {
    expect(cited('The budget is 40,000 euros (plant.pdf, p. 3). Done (notes.txt, chunk 2).')).toEqual([
      ['(plant.pdf, p. 3)', 0],
      ['(notes.txt, chunk 2)', 2],
    ])
  })

  test('blanks, case and dashes aside; a page inside a passage of several pages; pages in German', () => {
    expect(cited('(Plant.PDF,p.3) (plant.pdf, pp. 5-7) (plant.pdf, p. 6) (plant.pdf, S. 3) (plant.pdf, Seiten 6–9)')).toEqual([
      ['(Plant.PDF,p.3)', 0],
      ['(plant.pdf, pp. 5-7)', 1],
      ['(plant.pdf, p. 6)', 1],
      ['(plant.pdf, S. 3)', 0],
      ['(plant.pdf, Seiten 6–9)', 1],
    ])
  })

  test('several citations in one pair of parentheses are marked one by one', () => {
    expect(cited('Both (plant.pdf, p. 3; notes.txt, chunk 2; other.pdf, p. 1).')).toEqual([
      ['plant.pdf, p. 3', 0],
      ['notes.txt, chunk 2', 2],
    ])
  })

  test('anything else is left alone: other files, other pages, plain parentheses, unclosed ones', () => {
    expect(cited('(plant.pdf, p. 4) (other.pdf, p. 3) (notes.txt, chunk 3) (see above) (plant.pdf, p. 3')).toEqual([])
    expect(findCitations('(plant.pdf, p. 3)', [])).toEqual([])
  })
})

describe('rehypeCitations', () => {
  const tree = () => ({
    type: 'root' as const,
    children: [
      {
        type: 'element' as const,
        tagName: 'p',
        properties: {},
        children: [
          { type: 'text' as const, value: 'Budget (plant.pdf, p. 3) ok' },
          { type: 'element' as const, tagName: 'code', properties: {}, children: [{ type: 'text' as const, value: '(plant.pdf, p. 3)' }] },
        ],
      },
    ],
  })

  test('wraps citations in text as cite elements, never inside code', () => {
    const root = tree()
    rehypeCitations(passages)(root)
    expect(root.children[0]!.children).toEqual([
      { type: 'text', value: 'Budget ' },
      { type: 'element', tagName: 'cite', properties: { dataPassage: '0' }, children: [{ type: 'text', value: '(plant.pdf, p. 3)' }] },
      { type: 'text', value: ' ok' },
      { type: 'element', tagName: 'code', properties: {}, children: [{ type: 'text', value: '(plant.pdf, p. 3)' }] },
    ])
  })

  test('without passages the tree is unchanged', () => {
    const root = tree()
    rehypeCitations([])(root)
    expect(root).toEqual(tree())
  })
})
