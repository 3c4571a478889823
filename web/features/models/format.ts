import type { AvailableModel } from './api'

/** A context window the way model vendors state it: 128K, 1M, 8K. */
export function formatContextWindow(tokens: number | null, language: string): string | null {
  if (tokens === null) return null
  const number = (value: number) => new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(value)
  if (tokens >= 1_000_000) return `${number(tokens / 1_000_000)}M`
  if (tokens >= 1_000) return `${number(Math.round(tokens / 1_000))}K`
  return number(tokens)
}

/** A price per million tokens in US dollars (the catalogue's currency); 0 reads as a dash. */
export function formatPrice(value: number, language: string): string {
  if (value === 0) return '–'
  return new Intl.NumberFormat(language, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 3 }).format(value)
}

/** Whether a model's name or id contains every word of the search. */
export function matchesSearch(model: Pick<AvailableModel, 'displayName' | 'modelId'>, query: string): boolean {
  const haystack = `${model.displayName} ${model.modelId}`.toLowerCase()
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word))
}
