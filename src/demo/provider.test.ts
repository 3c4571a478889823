/**
 * The demo provider through Kontor's own OpenAI-compatible client: what `npm run demo` relies on.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { createProvider, type ChatMessage, type StreamEvent, type ToolDefinition } from '../ai'
import { DEMO_CHAT_MODEL, DEMO_EMBEDDING_MODEL, startDemoProvider } from './provider'

const demo = startDemoProvider({ apiKey: 'demo-key', delayMs: 0 })
afterAll(() => demo.stop())
const client = createProvider({ kind: 'openai-compatible', baseUrl: `${demo.url}/v1`, apiKey: 'demo-key' })
const tool = (name: string): ToolDefinition => ({ name, description: name, parameters: { type: 'object', properties: {} } })
const ALL_TOOLS = ['internet_search', 'website_content', 'send_email'].map(tool)

async function stream(messages: ChatMessage[], tools: ToolDefinition[] = ALL_TOOLS) {
  const events: StreamEvent[] = []
  for await (const event of client.streamChat({ model: DEMO_CHAT_MODEL, messages, tools })) events.push(event)
  const deltas = events.flatMap((e) => (e.type === 'text' ? [e.delta] : []))
  const calls = events.flatMap((e) => (e.type === 'tool_call' ? [{ id: e.id, name: e.name, arguments: e.arguments }] : []))
  return { events, deltas, text: deltas.join(''), calls }
}

describe('the demo model', () => {
  test('streams a markdown answer with a heading, a list, a table, code and math, in many pieces, without echoing the question', async () => {
    const question = 'Explain how vector search works'
    const { text, events } = await stream([{ role: 'user', content: question }])
    // The pieces as the demo sends them (the client merges those that arrive in one network chunk).
    const raw = await fetch(`${demo.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-key', 'content-type': 'application/json' },
      body: JSON.stringify({ model: DEMO_CHAT_MODEL, stream: true, messages: [{ role: 'user', content: question }] }),
    })
    expect((await raw.text()).match(/"delta":\{"content":"/g)?.length).toBeGreaterThan(20)
    expect(text).toStartWith('## How vector search works\n')
    expect(text).toMatch(/^1\. /m)
    expect(text).toMatch(/^\|---\|---\|---\|$/m)
    expect(text).toContain('```sql\n')
    expect(text).toContain('$$\n')
    expect(text).not.toContain(question)
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' })
  })

  test('answers in German when asked in German', async () => {
    const { text } = await stream([{ role: 'user', content: 'Erkläre mir bitte, wie die Suche mit Vektoren funktioniert' }])
    expect(text).toContain('### Die wichtigsten Punkte')
    expect(text).toContain('1. Texte in Abschnitte von einigen hundert Wörtern teilen.')
  })

  test('calls the tool a message asks for, when it is offered, and answers from its result', async () => {
    const search = await stream([{ role: 'user', content: 'Search the web for remote work policies' }])
    expect(search.calls).toMatchObject([{ name: 'internet_search', arguments: '{"query":"remote work policies"}' }])
    expect(search.events.at(-1)).toMatchObject({ type: 'finish', reason: 'tool_calls' })
    const results = 'Search results for "remote work":\n\n[1] Remote policy\nURL: http://127.0.0.1/pages/remote\nCore hours and equipment.\n'
    const answer = await stream([
      { role: 'user', content: 'Search the web for remote work policies' },
      { role: 'assistant', content: '', toolCalls: [search.calls[0]!] },
      { role: 'tool', content: results, toolCallId: search.calls[0]!.id },
    ])
    expect(answer.calls).toEqual([])
    expect(answer.text).toContain('[Remote policy](http://127.0.0.1/pages/remote)')

    const mail = await stream([{ role: 'user', content: 'Write an e-mail to max@example.com about the kick-off' }])
    expect(mail.calls[0]?.name).toBe('send_email')
    expect(JSON.parse(mail.calls[0]!.arguments)).toMatchObject({ to: 'max@example.com', subject: 'Kick-off' })
    const read = await stream([{ role: 'user', content: 'Read the Kontor guide page' }])
    expect(read.calls[0]).toMatchObject({ name: 'website_content', arguments: `{"url":"${demo.url}/pages/kontor-guide"}` })
    const page = '# Guide\nSource: http://127.0.0.1/pages/guide\n\n_A short summary of the guide and what it is for._\n\nThe first real paragraph of the guide, long enough to count. It goes on.\n'
    const summary = await stream([
      { role: 'user', content: 'Read the Kontor guide page' },
      { role: 'assistant', content: '', toolCalls: [read.calls[0]!] },
      { role: 'tool', content: page, toolCallId: read.calls[0]!.id },
    ])
    expect(summary.text).toContain('> A short summary of the guide and what it is for.')
    expect(summary.text).toContain('- The first real paragraph of the guide, long enough to count.\n')
    expect(summary.text).toContain('Source: [Guide](http://127.0.0.1/pages/guide)')
    // Not offered, not called: an answer instead.
    expect((await stream([{ role: 'user', content: 'Search the web for remote work policies' }], [])).calls).toEqual([])
  })

  test('asks the attached files first, and answers with the passage that fits and its citation', async () => {
    const first = await stream([{ role: 'user', content: 'What is the daily allowance?' }], [tool('source_query')])
    expect(first.calls).toMatchObject([{ name: 'source_query', arguments: '{"query":"What is the daily allowance?"}' }])
    const passages =
      'Passages from the files attached to this chat.\n\n[1] policy.md — Meals\nCite as: (policy.md, chunk 3)\n## Meals\n\nHotels are paid. The daily allowance is 28 euros for a full day. Receipts are kept.\n'
    const answer = await stream([
      { role: 'user', content: 'What is the daily allowance?' },
      { role: 'assistant', content: '', toolCalls: [first.calls[0]!] },
      { role: 'tool', content: passages, toolCallId: first.calls[0]!.id },
    ])
    expect(answer.text).toContain('The daily allowance is 28 euros for a full day. (policy.md, chunk 3)')
  })

  test("writes a chat's title when asked without streaming", async () => {
    const result = await client.complete({
      model: DEMO_CHAT_MODEL,
      messages: [
        { role: 'system', content: 'Write a title of at most 50 characters for this conversation.' },
        { role: 'user', content: 'User: Can you please explain how vector search works?\n\nAssistant: ## How…' },
      ],
    })
    expect(result.text).toBe('How vector search works')
  })

  test('embeds texts, lists its models, and refuses a wrong key, an unknown model and a body that is not JSON', async () => {
    const { vectors } = await client.embed({ model: DEMO_EMBEDDING_MODEL, input: ['hotel costs', 'hotel costs', 'train tickets'] })
    expect(vectors).toHaveLength(3)
    expect(vectors[0]).toEqual(vectors[1]!)
    expect(vectors[0]).not.toEqual(vectors[2]!)
    expect(await client.listModels()).toEqual([DEMO_CHAT_MODEL, DEMO_EMBEDDING_MODEL])
    const post = (path: string, body: string, key = 'demo-key') =>
      fetch(`${demo.url}/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body })
    expect((await post('/chat/completions', '{}', 'wrong')).status).toBe(401)
    expect((await post('/chat/completions', 'not json')).status).toBe(400)
    expect((await post('/chat/completions', JSON.stringify({ model: 'gpt-4o', messages: [] }))).status).toBe(404)
    expect((await post('/embeddings', JSON.stringify({ model: DEMO_EMBEDDING_MODEL, input: [1, 2] }))).status).toBe(400)
  })
})

describe('the built-in web', () => {
  test('search answers in SearXNG JSON with pages of the built-in web, which can be read', async () => {
    const body = (await (await fetch(`${demo.url}/search?q=remote+work&format=json`)).json()) as { results: Array<{ title: string; url: string }> }
    expect(body.results[0]).toMatchObject({ title: 'Writing a remote work policy that people follow', url: `${demo.url}/pages/remote-work-policy` })
    const page = await fetch(body.results[0]!.url)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(await page.text()).toContain('<h1>Writing a remote work policy that people follow</h1>')
    expect((await fetch(`${demo.url}/pages/nope`)).status).toBe(404)
  })
})
