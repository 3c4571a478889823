// Code spans and fenced blocks, whose backslashes and dollars are code, not math.
const CODE = /(```[\s\S]*?(?:```|$)|~~~[\s\S]*?(?:~~~|$)|`[^`\n]*`)/

/** Whether a reply may contain math ($$…$$, \(…\) or \[…\]) and so needs the math renderer. */
export function hasMath(text: string): boolean {
  return /\$\$|\\\(|\\\[/.test(text)
}

/**
 * Models often write math as \(…\) and \[…\] (LaTeX), which remark-math does not read: turn them
 * into $$…$$ (inline, or on lines of their own for display math), leaving code alone.
 */
export function normalizeMathDelimiters(text: string): string {
  return text
    .split(CODE)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/\\\[([\s\S]+?)\\\]/g, (_m, tex: string) => `\n$$\n${tex.trim()}\n$$\n`)
            .replace(/\\\(([\s\S]+?)\\\)/g, (_m, tex: string) => `$$${tex.trim()}$$`),
    )
    .join('')
}
