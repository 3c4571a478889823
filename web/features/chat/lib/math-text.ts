// Code spans and fenced blocks, whose backslashes and dollars are code, not math.
const CODE = /(```[\s\S]*?(?:```|$)|~~~[\s\S]*?(?:~~~|$)|`[^`\n]*`)/

const SPACE = /\s/
const DIGIT = /[0-9]/
const WORD = /[\p{L}\p{N}]/u

/**
 * Where the single-dollar math of `text` (no code in it) is, as [start, end] of its dollars. The
 * rule is Pandoc's, which keeps prices apart from math: an opening $ has a non-space right after
 * it, a closing $ has a non-space right before it and no digit right after it; both sit on one
 * line. So "$x_1$" and "$a+b$." are math, while "$5 and $10", "$5-$10" and "from $5, to $10" are
 * not (their second $ follows a space or precedes a digit). An opening $ right after a letter or
 * digit ("US$5") does not open math either; \$ is a dollar, and $$ is left to remark-math.
 */
function inlineDollarSpans(text: string): [number, number][] {
  const spans: [number, number][] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]
    if (c === '\\') {
      i += 2
      continue
    }
    if (c !== '$') {
      i++
      continue
    }
    if (text[i + 1] === '$') {
      // A run of two or more: display or double-dollar math, remark-math's own.
      while (text[i] === '$') i++
      continue
    }
    const next = text[i + 1]
    const opens = next !== undefined && !SPACE.test(next) && !(i > 0 && WORD.test(text[i - 1]!))
    const close = opens ? closingDollar(text, i + 1) : -1
    if (close === -1) {
      i++
      continue
    }
    spans.push([i, close])
    i = close + 1
  }
  return spans
}

/** The closing $ of math opened before `from`, or -1: the first $ on the line decides. */
function closingDollar(text: string, from: number) {
  for (let j = from; j < text.length; j++) {
    const c = text[j]
    if (c === '\n') return -1
    if (c === '\\') {
      j++
      continue
    }
    if (c !== '$') continue
    const valid = text[j + 1] !== '$' && !SPACE.test(text[j - 1]!) && !DIGIT.test(text[j + 1] ?? '')
    return valid ? j : -1
  }
  return -1
}

/** Whether a reply may contain math ($…$, $$…$$, \(…\) or \[…\]) and so needs the math renderer. */
export function hasMath(text: string): boolean {
  if (/\$\$|\\\(|\\\[/.test(text)) return true
  return text.includes('$') && text.split(CODE).some((part, i) => i % 2 === 0 && inlineDollarSpans(part).length > 0)
}

/** `$x$` math as `$$x$$`, which remark-math reads (single dollars are off there: they would take prices too). */
function doubleInlineDollars(text: string) {
  const spans = inlineDollarSpans(text)
  if (!spans.length) return text
  let out = ''
  let at = 0
  for (const [start, end] of spans) {
    out += `${text.slice(at, start)}$$${text.slice(start + 1, end)}$$`
    at = end + 1
  }
  return out + text.slice(at)
}

/**
 * Models often write math as \(…\) and \[…\] (LaTeX) or $…$, which remark-math is not set to
 * read: turn them into $$…$$ (inline, or on lines of their own for display math), leaving code alone.
 */
export function normalizeMathDelimiters(text: string): string {
  return text
    .split(CODE)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : doubleInlineDollars(part)
            .replace(/\\\[([\s\S]+?)\\\]/g, (_m, tex: string) => `\n$$\n${tex.trim()}\n$$\n`)
            .replace(/\\\(([\s\S]+?)\\\)/g, (_m, tex: string) => `$$${tex.trim()}$$`),
    )
    .join('')
}
