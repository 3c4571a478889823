/** The system prompt: the current date and time first, then the agent's instructions when there is an agent. */
export function systemPrompt(opts: { now: Date; locale: 'en' | 'de'; agentInstructions?: string | null }) {
  const when = new Intl.DateTimeFormat(opts.locale === 'de' ? 'de-DE' : 'en-GB', {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(opts.now)
  const lines = [`Current date and time: ${when} (UTC).`]
  if (opts.agentInstructions?.trim()) lines.push('', opts.agentInstructions.trim())
  return lines.join('\n')
}
