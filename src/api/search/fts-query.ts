import type { SnippetPart } from './schema'

/** Words of a search, at most: enough for any real search, and a bound on the query's work. */
const MAX_WORDS = 16
/**
 * The shortest last word that is also matched as the beginning of a longer one (the user may still
 * be typing it). Shorter beginnings match too many words of the index to be cheap or useful.
 */
const MIN_PREFIX = 3

/** A word as the index's tokenizer (unicode61) sees it: letters and digits, with their marks. */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu

/**
 * The FTS5 query for what a user typed: every word must occur, each quoted so that nothing the
 * user types (quotes, `*`, `-`, `:`, parentheses, NEAR, AND, OR, NOT) is read as an operator.
 * `typing` is the last word as the index writes its beginning (lower case, without accents) when
 * the user may still be typing it (no space or punctuation after it): the search may also take it
 * as the beginning of longer words (`withBeginnings`). Null when the text has no word at all.
 */
export function matchExpressions(text: string): { whole: string; typing?: string; others: string[] } | null {
  const words = [...new Set(text.toLowerCase().match(WORD) ?? [])].slice(0, MAX_WORDS)
  if (!words.length) return null
  const quoted = words.map(quote)
  const last = words.at(-1)!
  const typing = !/\s$/.test(text) && /[\p{L}\p{N}\p{M}]$/u.test(text) && [...last].length >= MIN_PREFIX
  const whole = quoted.join(' ')
  return typing ? { whole, typing: last.normalize('NFD').replace(/\p{M}/gu, ''), others: quoted.slice(0, -1) } : { whole, others: quoted }
}

/** The query with the word being typed replaced by any of the index's words that begin with it. */
export function withBeginnings(others: string[], terms: string[]) {
  return [...others, `(${terms.map(quote).join(' OR ')})`].join(' AND ')
}

const quote = (word: string) => `"${word.replaceAll('"', '""')}"`

/** Marks the index puts around matching words in a snippet (private-use characters, never in the text shown). */
export const MATCH_START = '\uE000'
export const MATCH_END = '\uE001'

/** A snippet with marks as parts to render as text: the marks never reach the browser as markup. */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = []
  const oneLine = snippet.replace(/\s+/g, ' ').trim()
  for (const [i, piece] of oneLine.split(MATCH_START).entries()) {
    const [matched, rest] = i === 0 ? [undefined, piece] : splitOnce(piece, MATCH_END)
    if (matched) parts.push({ text: matched, match: true })
    if (rest) parts.push({ text: rest.replaceAll(MATCH_END, ''), match: false })
  }
  return parts
}

function splitOnce(text: string, mark: string): [string, string] {
  const at = text.indexOf(mark)
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + mark.length)]
}
