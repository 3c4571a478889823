/** A file attached to the chat, as the model is told about it. */
export type PromptFile = { name: string; fileName: string; description?: string | null; status: 'processing' | 'ready' | 'failed' }

const STATUS_TEXT = {
  ready: 'ready',
  processing: 'processing, not searchable yet',
  failed: 'failed, could not be read',
} as const

/**
 * The first line, the date and time to the minute. Building a date format is costly, and so is
 * using it before a reply's first token (ICU's code, cold between requests: 30–40 µs of the
 * 1 ms before the model call): one format per locale is kept, and the line of the current minute.
 */
const dateLines = new Map<'en' | 'de', { format: Intl.DateTimeFormat; minute: number; line: string }>()
const dateLine = (locale: 'en' | 'de', now: Date) => {
  const minute = Math.floor(now.getTime() / 60_000)
  let cached = dateLines.get(locale)
  if (!cached) {
    const format = new Intl.DateTimeFormat(locale === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' })
    dateLines.set(locale, (cached = { format, minute: Number.NaN, line: '' }))
  }
  if (cached.minute !== minute) {
    cached.minute = minute
    cached.line = `Current date and time: ${cached.format.format(now)} (UTC).`
  }
  return cached.line
}

/** User-given text on one line and of bounded length, so that it cannot pass for instructions of its own. */
const oneLine = (text: string, max: number) => {
  const line = text.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').trim()
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`
}

/**
 * The system prompt: the current date and time first, then the agent's instructions when there
 * is an agent, then the files attached to the chat with their status and the knowledge collections
 * it searches, so that the model knows what it can search with source_query (and what it cannot yet).
 */
export function systemPrompt(opts: {
  now: Date
  locale: 'en' | 'de'
  agentInstructions?: string | null
  files?: PromptFile[]
  collections?: Array<{ name: string; readyFiles: number }>
}) {
  const lines = [dateLine(opts.locale, opts.now)]
  if (opts.agentInstructions?.trim()) lines.push('', opts.agentInstructions.trim())
  if (opts.files?.length) {
    lines.push('', 'Files attached to this chat (search the ready ones with the source_query tool):')
    for (const file of opts.files) {
      const name = oneLine(file.name, 200)
      const fileName = oneLine(file.fileName, 200)
      const about = file.description?.trim() ? ` — ${oneLine(file.description, 300)}` : ''
      lines.push(`- ${name}${fileName && fileName !== name ? ` (${fileName})` : ''}: ${STATUS_TEXT[file.status]}${about}`)
    }
  }
  if (opts.collections?.length) {
    lines.push('', 'Knowledge collections this chat searches with the source_query tool (cite their files as the tool says):')
    for (const c of opts.collections) lines.push(`- ${oneLine(c.name, 200)}: ${c.readyFiles} ready file${c.readyFiles === 1 ? '' : 's'}`)
  }
  return lines.join('\n')
}
