/**
 * What the demo model does with one chat request: call a tool when the message asks for one
 * (and the tool is offered), answer from a tool's result once it came back, or answer itself.
 * A tool result is always answered in words, so a tool loop ends after one round.
 */
import { composeAnswer, languageOf, subjectOf, titleOf } from './answers'

/** The OpenAI wire format's messages, as far as the demo reads them. */
export type WireMessage = {
  role: string
  content?: unknown
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>
  tool_call_id?: string
}

export type DemoTurn = { text: string; toolCalls: Array<{ name: string; arguments: string }> }

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((b) => (b?.type === 'text' ? String(b.text) : '')).join('') : ''

/** What a message has to say for the demo to reach for a tool: asked for plainly, not merely mentioned. */
const ASKS = {
  email: /\b(write|draft|send|compose|schreibe?|sende|entwirf|verfasse)\b[^.?!]*\b(e-?mail|mail)\b/i,
  page: /\b(read|open|fetch|summari[sz]e|lies|öffne|fasse)\b[^.?!]*\b(page|website|web ?site|guide|seite|webseite)\b/i,
  search: /\b(search (the )?(web|internet|online)|web ?search|search online|look (it |this )?up|on the (web|internet)|latest news|im (web|internet)|websuche|recherchiere)/i,
}

const say = (text: string): DemoTurn => ({ text, toolCalls: [] })
const call = (name: string, args: object): DemoTurn => ({ text: '', toolCalls: [{ name, arguments: JSON.stringify(args) }] })

/** The answer to a request that does not stream: Kontor asks that way for a chat's title. */
export function completeTurn(messages: WireMessage[]): DemoTurn {
  const system = messages.filter((m) => m.role === 'system').map((m) => textOf(m.content)).join('\n')
  const user = textOf(messages.findLast((m) => m.role === 'user')?.content)
  if (/title/i.test(system)) return say(titleOf(user.match(/^User: ([\s\S]*?)(?:\n\nAssistant:|$)/)?.[1] ?? user))
  return chatTurn(messages, [], '')
}

export function chatTurn(messages: WireMessage[], tools: string[], guideUrl: string): DemoTurn {
  const last = messages.at(-1)
  const question = textOf(messages.findLast((m) => m.role === 'user')?.content)
  if (last?.role === 'tool') {
    const name = messages.flatMap((m) => m.tool_calls ?? []).find((c) => c.id === last.tool_call_id)?.function.name ?? ''
    return say(afterTool(name, textOf(last.content), question))
  }
  const offered = new Set(tools)
  const url = question.match(/https?:\/\/[^\s)>\]]+/)?.[0]
  if (offered.has('send_email') && ASKS.email.test(question)) return call('send_email', draftOf(question))
  if (offered.has('website_content') && (url || ASKS.page.test(question))) return call('website_content', { url: url ?? guideUrl })
  if (offered.has('internet_search') && ASKS.search.test(question)) {
    return call('internet_search', { query: subjectOf(question) || question.slice(0, 200) })
  }
  if (offered.has('source_query') && question.trim()) return call('source_query', { query: question.slice(0, 1000) })
  return say(composeAnswer(question))
}

function draftOf(question: string) {
  const to = question.match(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g) ?? []
  const about = subjectOf(question.replace(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, '')).replace(/^(an?\s+)?(e-?mail|mail)\s+(to\s+)?/i, '').replace(/^(to|an)\s+/i, '').replace(/^(about|regarding|on|wegen|über|zu[mr]?)\s+/i, '') || 'our next steps'
  const de = languageOf(question) === 'de'
  return {
    to: to.join(', '),
    subject: titleOf(about),
    body: de
      ? `Hallo,\n\nich schreibe Ihnen wegen: ${about}.\n\nKönnen wir uns dazu diese Woche kurz abstimmen? Ich freue mich auf Ihre Rückmeldung.\n\nViele Grüße`
      : `Hello,\n\nI am writing about ${about}.\n\nCould we find half an hour this week to go through it together? I look forward to hearing from you.\n\nBest regards`,
  }
}

/** The words after a tool's result: what it found, in markdown, with the citations the tool asked for. */
function afterTool(name: string, result: string, question: string): string {
  const de = languageOf(question) === 'de'
  if (name === 'source_query') {
    const passages = [...result.matchAll(/\n\[\d+\] ([^\n]*)\nCite as: ([^\n]*)\n([\s\S]*?)(?=\n\[\d+\] |\s*$)/g)]
    if (!passages.length) return de ? 'Die angehängten Dateien enthalten dazu keine passende Stelle.' : 'The attached files contain no passage about this.'
    const lines = passages.slice(0, 3).map(([, , cite, text]) => `- ${bestSentences(text!, question)} ${cite}`)
    return [de ? '### Aus dem Dokument' : '### From the document', de ? 'Das sagen die angehängten Dateien dazu:' : 'Here is what the attached files say:', lines.join('\n')].join('\n\n')
  }
  if (name === 'internet_search') {
    const results = [...result.matchAll(/\[(\d+)\] ([^\n]+)\nURL: (\S+)\n([^\n[]*)/g)]
    if (!results.length) return de ? 'Die Suche hat nichts gefunden.' : 'The search found nothing.'
    const rows = results.slice(0, 5).map(([, , title, url, snippet]) => `| [${title}](${url}) | ${snippet!.trim()} |`)
    return [de ? '### Suchergebnisse' : '### What the search found', `| ${de ? 'Quelle' : 'Source'} | ${de ? 'Worum es geht' : 'What it says'} |\n|---|---|\n${rows.join('\n')}`, de ? 'Soll ich eine der Seiten ganz lesen?' : 'Shall I read one of these pages in full?'].join('\n\n')
  }
  if (name === 'website_content') {
    // The tool's text: "# Title", "Source: URL", a blank line, then the page as markdown.
    const title = result.match(/^# (.+)$/m)?.[1] ?? ''
    const url = result.match(/^Source: (\S+)$/m)?.[1] ?? ''
    const paragraphs = result.replace(/^[\s\S]*?\n\n/, '').split(/\n+/).map((l) => l.replace(/[_*]/g, '').trim()).filter((l) => l.length > 40 && !l.startsWith('#'))
    if (!paragraphs.length) return de ? 'Die Seite enthält keinen lesbaren Text.' : 'The page has no readable text.'
    return [
      de ? '### Zusammenfassung der Seite' : '### Summary of the page',
      `> ${firstSentences(paragraphs[0]!, 2)}`,
      de ? 'Die wichtigsten Punkte:' : 'The main points:',
      paragraphs.slice(1, 4).map((l) => `- ${firstSentences(l)}`).join('\n'),
      title && url ? `${de ? 'Quelle' : 'Source'}: [${title}](${url})` : '',
    ].filter(Boolean).join('\n\n')
  }
  if (name === 'send_email') return de ? 'Der Entwurf steht oben: prüfen Sie ihn und senden Sie ihn aus Ihrem Mailprogramm.' : 'The draft is above: check it and send it from your mail program.'
  return de ? 'Fertig.' : 'Done.'
}

const firstSentences = (text: string, count = 1) => (text.replace(/\s+/g, ' ').trim().match(/[^.!?]+[.!?]+/g)?.slice(0, count).join('') ?? text.trim().slice(0, 200)).trim()

const keyWords = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu)?.map((w) => w.replace(/s$/, '')) ?? [])

/** The two sentences of a passage that share most words with the question, in their order. */
function bestSentences(passage: string, question: string) {
  const asked = keyWords(question)
  const sentences = passage.split('\n').filter((l) => !l.startsWith('#')).join(' ').replace(/\s+/g, ' ').match(/[^.!?]+[.!?]+/g) ?? [passage]
  const scored = sentences.map((text, i) => ({ text: text.trim(), i, score: [...keyWords(text)].filter((w) => asked.has(w)).length }))
  const best = [...scored].sort((a, b) => b.score - a.score || a.i - b.i).slice(0, 2)
  return best.sort((a, b) => a.i - b.i).map((s) => s.text).join(' ')
}
