import type { Element, ElementContent, Root, RootContent } from 'hast'
import { findCitations } from './citations'
import type { SourcePassage } from './tool-data'

/** Where citations are never looked for: code is quoted as written, and a link is already a link. */
const SKIP = new Set(['code', 'pre', 'a', 'cite', 'button'])

/**
 * Marks the citations of source passages in a rendered reply as `<cite data-passage="i">`
 * elements (i: index into `passages`), which the renderer shows with the passage. Only text
 * nodes are read, so markup is never built from the model's text.
 */
export function rehypeCitations(passages: SourcePassage[]) {
  return (tree: Root) => {
    if (passages.length) mark(tree)
  }

  function mark(parent: Root | Element) {
    const children: Array<RootContent | ElementContent> = []
    let changed = false
    for (const child of parent.children) {
      if (child.type === 'element') {
        if (!SKIP.has(child.tagName)) mark(child)
        children.push(child)
        continue
      }
      if (child.type !== 'text') {
        children.push(child)
        continue
      }
      const matches = findCitations(child.value, passages)
      if (!matches.length) {
        children.push(child)
        continue
      }
      changed = true
      let at = 0
      for (const m of matches) {
        if (m.start > at) children.push({ type: 'text', value: child.value.slice(at, m.start) })
        children.push({
          type: 'element',
          tagName: 'cite',
          properties: { dataPassage: String(m.passage) },
          children: [{ type: 'text', value: child.value.slice(m.start, m.end) }],
        })
        at = m.end
      }
      if (at < child.value.length) children.push({ type: 'text', value: child.value.slice(at) })
    }
    if (changed) parent.children = children as typeof parent.children
  }
}
