import type { Element } from 'hast'

/** The language a fenced code block names (` ```ts `), as remark writes it: class `language-ts`. */
export function codeLanguage(code: Element): string | null {
  const classes: unknown = code.properties.className
  const list = Array.isArray(classes) ? classes.map(String) : typeof classes === 'string' ? classes.split(' ') : []
  const found = list.find((name) => name.startsWith('language-'))
  return found ? found.slice('language-'.length) : null
}

/**
 * Whether `text` may hold a fenced code block that names a language (` ```ts `, `~~~ python`),
 * anywhere: in a list or a quote too. Only such blocks are highlighted. It may say yes where there
 * is none (a fence in running text), never no where there is one.
 */
export function mayHaveNamedCode(text: string): boolean {
  return /(`{3,}|~{3,})[ \t]*[^\s`~]/.test(text)
}
