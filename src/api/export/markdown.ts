import type { ChatExport } from './schema'

type Locale = 'en' | 'de'

const LABELS = {
  en: {
    untitled: 'Untitled chat',
    exported: 'Exported',
    started: 'Started',
    agent: 'Agent',
    files: 'Files',
    user: 'You',
    assistant: 'Assistant',
    tools: 'Tools used',
    reasoning: 'Reasoning',
    status: { stopped: 'Stopped', failed: 'Failed', interrupted: 'Interrupted', streaming: 'Still being written' },
  },
  de: {
    untitled: 'Chat ohne Titel',
    exported: 'Exportiert',
    started: 'Begonnen',
    agent: 'Agent',
    files: 'Dateien',
    user: 'Sie',
    assistant: 'Assistent',
    tools: 'Verwendete Werkzeuge',
    reasoning: 'Überlegungen',
    status: { stopped: 'Angehalten', failed: 'Fehlgeschlagen', interrupted: 'Unterbrochen', streaming: 'Wird noch geschrieben' },
  },
} as const

/** `2026-11-25 15:40 UTC`: the same in every viewer's time zone. */
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`

const toolNames = (parts: unknown[]) => [
  ...new Set(
    parts
      .filter((p): p is { type: 'tool_call'; name: string } => typeof p === 'object' && p !== null && (p as { type?: unknown }).type === 'tool_call')
      .map((p) => p.name),
  ),
]

/**
 * A chat as a Markdown document: the title, when it was started and exported, its agent and files,
 * then each message under a heading naming who wrote it. Message text is the model's own markdown,
 * kept as it is (code blocks and math included).
 */
export function chatMarkdown(chat: ChatExport, locale: Locale): string {
  const l = LABELS[locale]
  const lines: string[] = [`# ${chat.chat.title ?? l.untitled}`, '']
  lines.push(`- ${l.started}: ${when(chat.chat.createdAt)}`, `- ${l.exported}: ${when(chat.exportedAt)}`)
  if (chat.chat.agent) lines.push(`- ${l.agent}: ${chat.chat.agent.name}`)
  if (chat.files.length) lines.push(`- ${l.files}: ${chat.files.map((f) => f.name).join(', ')}`)
  for (const m of chat.messages) {
    const who = m.role === 'user' ? l.user : m.model ? `${l.assistant} (${m.model})` : l.assistant
    lines.push('', '---', '', `## ${who}`, '')
    const tools = toolNames(m.parts)
    if (tools.length) lines.push(`> ${l.tools}: ${tools.join(', ')}`, '')
    if (m.reasoning.trim()) lines.push('<details>', `<summary>${l.reasoning}</summary>`, '', m.reasoning.trim(), '', '</details>', '')
    if (m.content) lines.push(m.content.replace(/\s+$/, ''))
    if (m.status !== 'complete') lines.push('', `*${l.status[m.status]}${m.status === 'failed' && m.errorCode ? ` (${m.errorCode})` : ''}*`)
  }
  return `${lines.join('\n')}\n`
}
