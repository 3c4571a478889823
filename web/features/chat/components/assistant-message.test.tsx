import { describe, expect, test } from 'bun:test'
import { renderToString } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { allStrings } from '../../../locales/all'
import { createI18n } from '../../../lib/i18n'
import type { Message } from '../api'
import { localMessage } from '../lib/thread-cache'
import { AssistantMessage } from './assistant-message'

const reply = (content: string, parts: unknown[], status: Message['status'] = 'complete'): Message => ({ ...localMessage('assistant', content, status), parts })
const render = (message: Message, lang: 'en' | 'de' = 'en', onRegenerate?: () => void) =>
  renderToString(
    <I18nextProvider i18n={createI18n(lang, allStrings)}>
      <AssistantMessage message={message} onRegenerate={onRegenerate} />
    </I18nextProvider>,
  )
const call = (id: string, name: string, args: object, offset: number) => ({ type: 'tool_call', id, name, arguments: JSON.stringify(args), offset })

describe('tool calls in a reply', () => {
  test('each call sits where it was made, between the text before and after it', () => {
    const html = render(
      reply('Let me search.Kontor is a workspace.', [
        call('c1', 'internet_search', { query: 'kontor' }, 14),
        { type: 'tool_result', id: 'c1', name: 'internet_search', result: '…', isError: false, data: { results: [{ title: 'K', url: 'https://k.example/', snippet: '' }] } },
      ]),
    )
    const [before, card, after] = ['Let me search.', 'Web search', 'Kontor is a workspace.'].map((t) => html.indexOf(t))
    expect(before).toBeGreaterThan(-1)
    expect(card).toBeGreaterThan(before!)
    expect(after).toBeGreaterThan(card!)
    expect(html).toContain('“kontor”')
    expect(html).toContain('1 result')
    expect(html).toContain('aria-expanded="false"')
  })

  test('a call without a result runs while the reply streams, and was interrupted once it ended', () => {
    const parts = [call('c1', 'website_content', { url: 'https://a.example/' }, 0)]
    expect(render(reply('', parts, 'streaming'))).toContain('Running…')
    const stopped = render(reply('', parts, 'stopped'))
    expect(stopped).toContain('Interrupted')
    expect(stopped).not.toContain('Running…')
  })

  test('a failure with a code is shown in the user language, one without in the words of the tool', () => {
    const failed = (code?: string) =>
      reply('', [call('c1', 'nope', {}, 0), { type: 'tool_result', id: 'c1', name: 'nope', result: 'The search service answered with HTTP 500.', isError: true, ...(code && { code }) }])
    expect(render(failed('TOOL_NOT_FOUND'), 'de')).toContain('Werkzeug nicht gefunden')
    expect(render(failed())).toContain('The search service answered with HTTP 500.')
  })

  test('a drafted e-mail is an editable card with a mail link', () => {
    const draft = { to: 'ada@example.com', subject: 'Hi & bye', body: 'Hello' }
    const html = render(reply('Done.', [call('m', 'send_email', draft, 0), { type: 'tool_result', id: 'm', name: 'send_email', result: '…', isError: false, data: draft }]))
    expect(html).toContain('value="ada@example.com"')
    expect(html).toContain('href="mailto:ada@example.com?subject=Hi%20%26%20bye&amp;body=Hello"')
    expect(html).toContain('Open in mail app')
  })
})

describe('a reply that ended early', () => {
  test('interrupted (its server went away): the text so far, the notice in the user language, Retry on the last reply', () => {
    const interrupted = reply('Once upon a time', [], 'interrupted')
    const last = render(interrupted, 'en', () => {})
    expect(last).toContain('Once upon a time')
    expect(last).toContain('The reply was interrupted')
    expect(last).toContain('Retry')
    expect(last).not.toContain('Regenerate reply')
    expect(render(interrupted, 'de', () => {})).toContain('Die Antwort wurde unterbrochen')
    expect(render(interrupted, 'de', () => {})).toContain('Erneut versuchen')
    // An older reply offers no Retry: only the last one can be replaced.
    const older = render(interrupted)
    expect(older).toContain('The reply was interrupted')
    expect(older).not.toContain('Retry')
  })

  test('stopped by the user is no interruption', () => {
    const html = render(reply('Once upon a time', [], 'stopped'), 'en', () => {})
    expect(html).toContain('Stopped')
    expect(html).not.toContain('The reply was interrupted')
  })
})
