import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { sources, threads } from '../../../db/schema'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { readSse } from '../../../tests/support/sse'
import { BASE_URL, createTestApp, PASSWORD, registerOrg, type TestClient } from '../../../tests/support/test-app'
import { attachment, slugOf, zipStream } from './service'
import { chatMarkdown } from './markdown'

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
let owner: TestClient
let colleague: TestClient
let stranger: TestClient

async function admin() {
  const client = t.client()
  await registerOrg(client, { locale: 'en' })
  await client.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
  await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
  return client
}

beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-export', OPENAI_BASE_URL: `${fake.url}/v1` }, localFiles: true })
  owner = await admin()
  const invite = await owner.post('/api/invites', { email: `c-${crypto.randomUUID().slice(0, 6)}@acme.test`, role: 'admin' })
  colleague = t.client()
  await colleague.post('/api/invites/accept', { token: new URL(invite.body.acceptUrl).searchParams.get('token'), name: 'C', password: PASSWORD, passwordConfirmation: PASSWORD })
  stranger = await admin()
}, 30_000)
afterAll(async () => {
  await t.close()
  fake.close()
})

/** A titled chat with one exchange; the reply is `reply`. */
async function chat(client: TestClient, title: string, message: string, reply: string) {
  const id = (await client.post('/api/threads', {})).body.id as string
  await client.patch(`/api/threads/${id}`, { title })
  fake.script({ text: reply })
  const res = await t.app.request(`/api/threads/${id}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: client.cookieHeader(), origin: BASE_URL },
    body: JSON.stringify({ content: message }),
  })
  await readSse(res)
  return id
}

/** A file attached to a chat, its bytes in the file store (the export reads them from there). */
async function attach(threadId: string, fileName: string, text: string) {
  const thread = await t.deps.db.query.threads.findFirst({ where: eq(threads.id, threadId) })
  const id = crypto.randomUUID()
  const fileKey = `sources/${thread!.organizationId}/${id}`
  await t.deps.files.put(fileKey, new TextEncoder().encode(text))
  await t.deps.db.insert(sources).values({
    id, organizationId: thread!.organizationId, threadId, userId: thread!.userId, name: fileName, fileName, kind: 'txt',
    mimeType: 'text/plain', size: text.length, fileKey, status: 'ready',
  })
}

const REPLY = 'Here is code:\n\n```ts\nconst x = 1\n```\n\nand math $$E = mc^2$$.'

describe('one chat as Markdown or JSON', () => {
  let id: string
  beforeAll(async () => {
    id = await chat(owner, 'Quarterly report: Q3/2026', 'Summarise the report', REPLY)
    await attach(id, 'notes.txt', 'Revenue grew.')
  })

  test('Markdown: a download named after the title, with the title, both messages and the file list', async () => {
    const res = await t.app.request(`/api/threads/${id}/export?format=markdown`, { headers: { cookie: owner.cookieHeader() } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="quarterly-report-q3-2026.md"; filename*=UTF-8''quarterly-report-q3-2026.md`)
    const text = await res.text()
    expect(text.startsWith('# Quarterly report: Q3/2026\n')).toBe(true)
    expect(text).toContain('- Files: notes.txt')
    expect(text).toContain('## You\n\nSummarise the report')
    expect(text).toContain(`## Assistant (openai/gpt-4.1)\n\n${REPLY}`)
  })

  test('Markdown is the default format', async () => {
    const res = await owner.get(`/api/threads/${id}/export`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/markdown')
  })

  test('JSON: the chat, its files and its messages with their status and model', async () => {
    const res = await owner.get(`/api/threads/${id}/export?format=json`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('content-disposition')).toContain('filename="quarterly-report-q3-2026.json"')
    expect(res.body).toMatchObject({
      format: 'kontor-chat',
      version: 1,
      chat: { id, title: 'Quarterly report: Q3/2026', pinned: false, agent: null },
      files: [{ name: 'notes.txt', fileName: 'notes.txt', mimeType: 'text/plain', size: 13 }],
      messages: [
        { role: 'user', content: 'Summarise the report', status: 'complete' },
        { role: 'assistant', content: REPLY, status: 'complete', model: 'openai/gpt-4.1' },
      ],
    })
    expect(Date.parse(res.body.exportedAt)).toBeGreaterThan(0)
  })

  test('someone else\'s chat is not found, in the same organisation or another; signed out is 401', async () => {
    for (const client of [colleague, stranger]) {
      for (const format of ['markdown', 'json']) {
        const res = await client.get(`/api/threads/${id}/export?format=${format}`)
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'THREAD_NOT_FOUND' })
        expect(JSON.stringify(res.body)).not.toContain('Quarterly')
      }
    }
    const res = await t.client().get(`/api/threads/${id}/export`)
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' })
  })

  test('a format other than markdown or json, or a missing chat, is a clear error', async () => {
    for (const format of ['pdf', 'MARKDOWN', '', 'x'.repeat(5000)]) {
      const res = await owner.get(`/api/threads/${id}/export?format=${format}`)
      expect({ format: format.slice(0, 10), status: res.status, code: res.body.code, field: res.body.fields?.format }).toEqual({
        format: format.slice(0, 10), status: 400, code: 'VALIDATION_FAILED', field: 'Format must be markdown or json',
      })
    }
    expect((await owner.get(`/api/threads/${crypto.randomUUID()}/export`)).body.code).toBe('THREAD_NOT_FOUND')
    expect((await owner.get(`/api/threads/${'x'.repeat(65)}/export`)).status).toBe(400)
  })

  test('an untitled empty chat exports too', async () => {
    const empty = (await owner.post('/api/threads', {})).body.id
    const res = await t.app.request(`/api/threads/${empty}/export`, { headers: { cookie: owner.cookieHeader() } })
    expect(res.headers.get('content-disposition')).toContain('filename="chat.md"')
    expect(await res.text()).toStartWith('# Untitled chat\n')
  })
})

describe('all of a user\'s data as a ZIP', () => {
  let own: string
  let colleagueChat: string
  beforeAll(async () => {
    own = await chat(owner, 'Zip me', 'First question', 'First answer')
    await chat(owner, 'Zip me', 'Same title', 'Second answer')
    await attach(own, 'notes.txt', 'One')
    await attach(own, 'notes.txt', 'Two')
    await owner.post('/api/prompts', { title: 'Owner prompt', content: 'Say {{thing}}' })
    const models = (await owner.get('/api/models/permitted/language-models')).body
    await owner.post('/api/agents', { name: 'Owner agent', instructions: 'Be brief', modelId: models[0].id })
    colleagueChat = await chat(colleague, 'Colleague secret chat', 'Colleague question', 'Colleague answer')
    await colleague.post('/api/prompts', { title: 'Colleague prompt', content: 'x' })
  })

  async function download(client: TestClient) {
    const res = await t.app.request('/api/export', { headers: { cookie: client.cookieHeader() } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/zip')
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="kontor-export-\d{4}-\d\d-\d\d\.zip"/)
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()))
    return Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, name.endsWith('.txt') || name.endsWith('.md') || name.endsWith('.json') ? strFromU8(bytes) : bytes]))
  }

  test('chats as JSON and Markdown, their files, prompts, agents and an index; chats of the same name and day stay apart', async () => {
    const zip = await download(owner)
    const index = JSON.parse(zip['index.json'] as string)
    expect(index).toMatchObject({ format: 'kontor-export', version: 1, prompts: 1, agents: 1 })
    const zipped = index.chats.filter((c: { title: string }) => c.title === 'Zip me')
    expect(zipped).toHaveLength(2)
    const [first, second] = zipped
    const day = new Date().toISOString().slice(0, 10)
    expect(first).toMatchObject({ id: own, json: `chats/${day}-zip-me.json`, markdown: `chats/${day}-zip-me.md`, files: [`files/${day}-zip-me/notes.txt`, `files/${day}-zip-me/notes (2).txt`] })
    expect(second).toMatchObject({ json: `chats/${day}-zip-me (2).json`, files: [] })
    expect(JSON.parse(zip[first.json] as string)).toMatchObject({ chat: { id: own, title: 'Zip me' }, messages: [{ content: 'First question' }, { content: 'First answer' }] })
    expect(zip[first.markdown]).toContain('## You\n\nFirst question')
    expect(zip[second.markdown]).toContain('Second answer')
    expect(zip[`files/${day}-zip-me/notes.txt`]).toBe('One')
    expect(zip[`files/${day}-zip-me/notes (2).txt`]).toBe('Two')
    expect(JSON.parse(zip['prompts.json'] as string)).toMatchObject([{ title: 'Owner prompt', content: 'Say {{thing}}' }])
    expect(JSON.parse(zip['agents.json'] as string)).toMatchObject([{ name: 'Owner agent', instructions: 'Be brief' }])
    // Every chat of the owner's is in it: the ones made above in this file too.
    const ownCount = (await owner.get('/api/threads?limit=100')).body.threads.length
    expect(index.chats).toHaveLength(ownCount)
  })

  test('only the caller\'s own data: nothing of a colleague\'s in the same organisation', async () => {
    const zip = await download(owner)
    const everything = Object.values(zip).map((v) => (typeof v === 'string' ? v : '')).join('\n')
    expect(everything).not.toContain('Colleague')
    expect(everything).not.toContain(colleagueChat)
    const theirs = await download(colleague)
    const index = JSON.parse(theirs['index.json'] as string)
    expect(index.chats.map((c: { id: string }) => c.id)).toEqual([colleagueChat])
    expect(JSON.parse(theirs['prompts.json'] as string)).toMatchObject([{ title: 'Colleague prompt' }])
    expect(Object.values(theirs).join('\n')).not.toContain('Zip me')
  })

  test('a user with nothing yet gets an index and empty lists; signed out is 401', async () => {
    const zip = await download(stranger)
    expect(Object.keys(zip).sort()).toEqual(['agents.json', 'index.json', 'prompts.json'])
    expect(JSON.parse(zip['index.json'] as string)).toMatchObject({ chats: [], prompts: 0, agents: 0 })
    const res = await t.client().get('/api/export')
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' })
  })
})

describe('the ZIP stream', () => {
  test('packs an entry only when the reader asks for more, so the archive is never held whole', async () => {
    let read = 0
    async function* entries() {
      for (let i = 0; i < 1000; i++) {
        read++
        yield { name: `chats/${i}.md`, data: `# Chat ${i}\n\n${'text '.repeat(2000)}` }
      }
    }
    const reader = zipStream(entries(), () => {}).getReader()
    const first = await reader.read()
    expect(first.done).toBe(false)
    // The stream's small buffer asks for a few entries ahead, not for the thousand.
    expect(read).toBeLessThan(5)
    await reader.cancel()
  })

  test('an entry that fails breaks the download off (the reader sees an error, never a cut archive that looks whole)', async () => {
    async function* entries() {
      yield { name: 'a.txt', data: 'a' }
      throw new Error('the store went away')
    }
    const errors: unknown[] = []
    const body = new Response(zipStream(entries(), (e) => errors.push(e)))
    await expect(body.arrayBuffer()).rejects.toThrow('the store went away')
    expect(errors).toHaveLength(1)
  })
})

describe('names and Markdown', () => {
  test('file names keep letters and digits of any script, and fall back to "chat"', () => {
    expect(slugOf('Über Äpfel & Birnen!')).toBe('über-äpfel-birnen')
    expect(slugOf('日本語のチャット')).toBe('日本語のチャット')
    expect(slugOf('../../etc/passwd')).toBe('etc-passwd')
    expect(slugOf('   ')).toBe('chat')
    expect(slugOf(null)).toBe('chat')
    expect(slugOf('a'.repeat(300))).toHaveLength(60)
  })

  test('Content-Disposition has an ASCII name and the UTF-8 one', () => {
    expect(attachment('über-äpfel.md')).toBe(`attachment; filename="uber-apfel.md"; filename*=UTF-8''%C3%BCber-%C3%A4pfel.md`)
    expect(attachment('日本.md')).toBe(`attachment; filename=".md"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.md`)
  })

  test('German labels, the agent, reasoning, tools used and a reply that did not complete', () => {
    const md = chatMarkdown(
      {
        format: 'kontor-chat',
        version: 1,
        exportedAt: '2026-11-25T15:40:12.000Z',
        chat: { id: 't', title: null, createdAt: '2026-11-24T08:05:00.000Z', lastMessageAt: '2026-11-24T08:06:00.000Z', pinned: false, agent: { id: 'a', name: 'Lektor' } },
        files: [],
        messages: [
          { id: '1', role: 'user', content: 'Frage', reasoning: '', parts: [], status: 'complete', errorCode: null, model: null, usage: null, createdAt: '2026-11-24T08:05:00.000Z' },
          {
            id: '2', role: 'assistant', content: 'Teil', reasoning: 'Erst denken', status: 'failed', errorCode: 'PROVIDER_UNAVAILABLE', model: 'gpt-4.1', usage: null, createdAt: '2026-11-24T08:06:00.000Z',
            parts: [{ type: 'tool_call', id: 'c', name: 'internet_search', arguments: '{}', offset: 0 }, { type: 'tool_result', id: 'c', name: 'internet_search', result: '', isError: false }],
          },
        ],
      },
      'de',
    )
    expect(md).toBe(
      [
        '# Chat ohne Titel', '', '- Begonnen: 2026-11-24 08:05 UTC', '- Exportiert: 2026-11-25 15:40 UTC', '- Agent: Lektor',
        '', '---', '', '## Sie', '', 'Frage',
        '', '---', '', '## Assistent (gpt-4.1)', '', '> Verwendete Werkzeuge: internet_search', '',
        '<details>', '<summary>Überlegungen</summary>', '', 'Erst denken', '', '</details>', '', 'Teil', '', '*Fehlgeschlagen (PROVIDER_UNAVAILABLE)*', '',
      ].join('\n'),
    )
  })
})
