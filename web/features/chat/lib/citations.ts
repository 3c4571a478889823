import type { SourcePassage } from './tool-data'

type CitablePassage = Pick<SourcePassage, 'sourceName' | 'page' | 'pageEnd' | 'citation'>

/** A citation found in a reply's text: where it is, and the passage (index into the passages) it cites. */
export type CitationMatch = { start: number; end: number; passage: number }

/** Parentheses on one line, without nested ones: the shape of "(report.pdf, p. 3)". */
const GROUP = /\(([^()\n]{1,400})\)/g
/** "name, p. 3", "name, pp. 3–5", "name, S. 3" (a model answering in German may translate it). */
const PAGE_CITATION = /^(.*\S)\s*,\s*(?:pp?|pages?|s|seiten?)\.?\s*(\d+)(?:\s*[-–—]\s*(\d+))?$/i

/** Compared without case, blanks and dash variants: "(a.pdf, p. 3)" and "(A.pdf,p.3)" are one citation. */
const normalize = (text: string) => text.toLowerCase().replace(/[–—]/g, '-').replace(/\s+/g, '')
const unwrap = (citation: string) => citation.trim().replace(/^\((.*)\)$/s, '$1')

/**
 * The citations of source passages in a reply: the source_query tool tells the model to cite
 * as "(file name, p. N)", exactly as each passage's `citation` says. A citation is recognised
 * when it is one of those (blanks and case aside), or names a passage's file with a page inside
 * the passage's pages; several may share parentheses, separated by semicolons. Anything else
 * is left alone, so text that merely looks like a citation is never changed.
 */
export function findCitations(text: string, passages: CitablePassage[]): CitationMatch[] {
  if (!passages.length || !text.includes('(')) return []
  const exact = new Map<string, number>()
  passages.forEach((p, i) => {
    const key = normalize(unwrap(p.citation))
    if (!exact.has(key)) exact.set(key, i)
  })
  const resolve = (part: string): number => {
    const known = exact.get(normalize(part))
    if (known !== undefined) return known
    const m = PAGE_CITATION.exec(part)
    if (!m) return -1
    const name = normalize(m[1]!)
    const from = Number(m[2])
    const to = m[3] ? Number(m[3]) : from
    return passages.findIndex((p) => p.page !== null && normalize(p.sourceName) === name && p.page <= to && (p.pageEnd ?? p.page) >= from)
  }

  const matches: CitationMatch[] = []
  for (const group of text.matchAll(GROUP)) {
    const inner = group[1]!
    const innerStart = group.index + 1
    const parts: Array<{ start: number; end: number; passage: number }> = []
    let at = 0
    for (const raw of inner.split(';')) {
      const lead = raw.length - raw.trimStart().length
      const trimmed = raw.trim()
      parts.push({ start: innerStart + at + lead, end: innerStart + at + lead + trimmed.length, passage: trimmed ? resolve(trimmed) : -1 })
      at += raw.length + 1
    }
    // One citation alone takes its parentheses with it; several are marked one by one.
    if (parts.length === 1 && parts[0]!.passage !== -1) matches.push({ start: group.index, end: group.index + group[0].length, passage: parts[0]!.passage })
    else matches.push(...parts.filter((p) => p.passage !== -1))
  }
  return matches
}
