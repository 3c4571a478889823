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
 */
export function htmlToBlocks(html: string): Block[] {
  const blocks: Block[] = []
  const headings: string[] = []
  let text = ''
  let skipDepth = 0
  let heading: { level: number; text: string } | null = null
  let preDepth = 0

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
        if (heading) heading.text += data
        else text += data
      },
      onclosetag(name) {
        if (skipDepth) {
          skipDepth--
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
  flush()
  // Empty levels (an h3 under an h1) are placeholders only.
  return blocks.map((b) => ({ ...b, headings: b.headings.filter(Boolean) }))
}
