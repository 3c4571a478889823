/**
 * Reply versions (docs/decisions/0060-reply-versions.md): regenerate and edit-and-resend keep the
 * earlier versions, `GET /threads/{id}` answers the branch shown with each message's versions,
 * `PUT /threads/{id}/branch` shows another one, and the chat continues from the version shown.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { readSse, sseEvents } from '../../../tests/support/sse'
import { BASE_URL, createTestApp, registerOrg, type TestClient } from '../../../tests/support/test-app'

// Each test holds several replies of the fake model, one after another.
setDefaultTimeout(30_000)

type Msg = { id: string; role: string; content: string; parentId: string | null; siblingIds: string[] }

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-versions', OPENAI_BASE_URL: `${fake.url}/v1` } })
})
afterAll(async () => {
  await t.close()
  fake.close()
})
beforeEach(() => fake.reset())

async function chatSetup() {
  const client = t.client()
  await registerOrg(client)
  await client.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
  await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
  const thread = (await client.post('/api/threads', {})).body as { id: string }
  return { client, thread }
}

const post = (client: TestClient, path: string, body?: unknown) =>
  t.app.request(`/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: client.cookieHeader(), origin: BASE_URL },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
const send = async (client: TestClient, threadId: string, content: string, replaceLast?: boolean) =>
  readSse(await post(client, `/threads/${threadId}/messages`, { content, replaceLast }))
const regenerate = async (client: TestClient, threadId: string, text: string) => {
  fake.script({ text })
  return readSse(await post(client, `/threads/${threadId}/regenerate`))
}
const branch = async (client: TestClient, threadId: string) => (await client.get(`/api/threads/${threadId}`)).body.messages as Msg[]
const show = (client: TestClient, threadId: string, messageId: unknown) => client.put(`/api/threads/${threadId}/branch`, { messageId })
/** What the model was given last (without the system prompt). */
const modelSaw = () => (fake.requests.filter((r) => r.body?.stream).at(-1)!.body.messages as { role: string; content: string }[]).slice(1).map((m) => m.content)

describe('reply versions', () => {
  test('regenerating twice keeps three versions; the one shown is the branch the chat continues from', async () => {
    const { client, thread } = await chatSetup()
    await send(client, thread.id, 'hello')
    await regenerate(client, thread.id, 'second answer')
    await regenerate(client, thread.id, 'third answer')

    const [user, reply] = await branch(client, thread.id)
    expect(reply!).toMatchObject({ content: 'third answer', parentId: user!.id })
    expect(user!).toMatchObject({ parentId: null, siblingIds: [user!.id] })
    expect(reply!.siblingIds).toHaveLength(3)
    expect(reply!.siblingIds.at(-1)).toBe(reply!.id)
    const [first, second] = reply!.siblingIds as [string, string, string]

    // Step back to the first version: it is shown, in the same place among its versions.
    expect((await show(client, thread.id, first)).status).toBe(204)
    const shown = await branch(client, thread.id)
    expect(shown.map((m) => m.content)).toEqual(['hello', 'You said: hello'])
    expect(shown[1]).toMatchObject({ id: first, siblingIds: reply!.siblingIds })

    // Sending now continues that version: the model reads it and none of the others.
    await send(client, thread.id, 'go on')
    expect(modelSaw()).toEqual(['hello', 'You said: hello', 'go on'])
    const continued = await branch(client, thread.id)
    expect(continued.map((m) => m.content)).toEqual(['hello', 'You said: hello', 'go on', 'You said: go on'])
    expect(continued[2]!.parentId).toBe(first)

    // Another version shows its own (shorter) branch; coming back finds the continuation again.
    await show(client, thread.id, second)
    expect((await branch(client, thread.id)).map((m) => m.content)).toEqual(['hello', 'second answer'])
    await show(client, thread.id, first)
    expect((await branch(client, thread.id)).map((m) => m.content)).toEqual(['hello', 'You said: hello', 'go on', 'You said: go on'])

    // Regenerating on a version shown continues the versions of that reply.
    await show(client, thread.id, second)
    await regenerate(client, thread.id, 'fourth answer')
    expect((await branch(client, thread.id))[1]!.siblingIds).toHaveLength(4)
  })

  test('edit and resend keeps the earlier message and its reply as a version, of the first message too', async () => {
    const { client, thread } = await chatSetup()
    await send(client, thread.id, 'first')
    await send(client, thread.id, 'typo')
    const before = await branch(client, thread.id)
    await send(client, thread.id, 'fixed', true)
    expect(modelSaw()).toEqual(['first', 'You said: first', 'fixed'])
    const after = await branch(client, thread.id)
    expect(after.map((m) => m.content)).toEqual(['first', 'You said: first', 'fixed', 'You said: fixed'])
    expect(after[2]).toMatchObject({ parentId: before[1]!.id, siblingIds: [before[2]!.id, after[2]!.id] })
    expect(after[3]!.siblingIds).toEqual([after[3]!.id])

    await show(client, thread.id, before[2]!.id)
    expect((await branch(client, thread.id)).map((m) => m.content)).toEqual(['first', 'You said: first', 'typo', 'You said: typo'])

    // The chat's first message has versions as well (they follow nothing).
    const other = (await client.post('/api/threads', {})).body.id as string
    await send(client, other, 'one')
    await send(client, other, 'uno', true)
    const [root] = await branch(client, other)
    expect(root!).toMatchObject({ content: 'uno', parentId: null })
    expect(root!.siblingIds).toHaveLength(2)
    await show(client, other, root!.siblingIds[0])
    expect((await branch(client, other)).map((m) => m.content)).toEqual(['one', 'You said: one'])
  })

  test('search finds the versions shown only; the export and a page through a message follow the branch shown', async () => {
    const { client, thread } = await chatSetup()
    await send(client, thread.id, 'tell me about fish')
    await regenerate(client, thread.id, 'axolotls are amphibians')
    const versions = (await branch(client, thread.id))[1]!.siblingIds
    const search = async (q: string) => (await client.get(`/api/search?q=${q}`)).body.results.map((r: { messageId: string | null }) => r.messageId)
    expect(await search('axolotls')).toEqual([versions[1]])
    await show(client, thread.id, versions[0])
    expect(await search('axolotls')).toEqual([])
    const exported = (await client.get(`/api/threads/${thread.id}/export?format=json`)).body
    expect(exported.messages.map((m: Msg) => m.content)).toEqual(['tell me about fish', 'You said: tell me about fish'])
    // A message not shown is not reached back to: the page is the newest one.
    expect((await client.get(`/api/threads/${thread.id}?last=1&through=${versions[1]}`)).body.messages.map((m: Msg) => m.id)).toEqual([versions[0]])
    await show(client, thread.id, versions[1])
    expect(await search('axolotls')).toEqual([versions[1]])
  })

  test('bad input, messages of other chats and other users, and a reply streaming are refused', async () => {
    const { client, thread } = await chatSetup()
    await send(client, thread.id, 'mine')
    const [mine] = await branch(client, thread.id)

    const missing = await client.put(`/api/threads/${thread.id}/branch`, {})
    expect(missing.status).toBe(400)
    expect(missing.body.code).toBe('VALIDATION_FAILED')
    expect((await show(client, thread.id, 'x'.repeat(65))).body.code).toBe('VALIDATION_FAILED')
    expect((await show(client, thread.id, 42)).body.code).toBe('VALIDATION_FAILED')
    expect((await show(client, thread.id, 'no-such-message')).body).toMatchObject({ code: 'MESSAGE_NOT_FOUND', status: 404 })

    // A message of another of the caller's chats is not one of this chat's.
    const other = (await client.post('/api/threads', {})).body.id as string
    expect((await show(client, other, mine!.id)).body.code).toBe('MESSAGE_NOT_FOUND')

    // Another user's chat is not found; their message is not found in the caller's chat.
    const stranger = await chatSetup()
    await send(stranger.client, stranger.thread.id, 'theirs')
    const [theirs] = await branch(stranger.client, stranger.thread.id)
    expect((await show(client, stranger.thread.id, theirs!.id)).body.code).toBe('THREAD_NOT_FOUND')
    expect((await show(client, thread.id, theirs!.id)).body.code).toBe('MESSAGE_NOT_FOUND')
    expect((await branch(stranger.client, stranger.thread.id)).map((m) => m.content)).toEqual(['theirs', 'You said: theirs'])

    // While a reply streams the branch stays as it is.
    const streaming = await post(client, `/threads/${thread.id}/messages`, { content: '[[fake:tokens=200]] [[fake:delay=10]] slow' })
    const events = sseEvents(streaming.body!)[Symbol.asyncIterator]()
    // Until the first text frame; a stream that ends before it fails the test instead of spinning.
    for (let e = await events.next(); e.value?.event !== 'text'; e = await events.next()) if (e.done) throw new Error('the stream ended before a text frame')
    const refused = await show(client, thread.id, mine!.id)
    expect(refused.status).toBe(409)
    expect(refused.body.code).toBe('REPLY_IN_PROGRESS')
    while (!(await events.next()).done) {}
    expect(await branch(client, thread.id)).toHaveLength(4)
  })

  test('a reply that failed without a word is replaced by its retry, not kept as a version', async () => {
    const { client, thread } = await chatSetup()
    fake.script({ error: 500 }, { error: 500 }, { error: 500 })
    await send(client, thread.id, 'retry me')
    await regenerate(client, thread.id, 'worked')
    const [, reply] = await branch(client, thread.id)
    expect(reply).toMatchObject({ content: 'worked', siblingIds: [reply!.id] })
  })

  test('a reply that failed after a tool call, without text, is kept as a version by its retry', async () => {
    const { client, thread } = await chatSetup()
    fake.script({ toolCalls: [{ name: 'launch_rockets', arguments: { count: 3 } }] }, { error: 500 }, { error: 500 }, { error: 500 })
    await send(client, thread.id, 'retry me')
    const [, failed] = await branch(client, thread.id)
    expect(failed).toMatchObject({ status: 'failed', content: '' })
    expect((failed as Msg & { parts: unknown[] }).parts.length).toBeGreaterThan(0)
    await regenerate(client, thread.id, 'worked')
    const [, reply] = await branch(client, thread.id)
    expect(reply).toMatchObject({ content: 'worked', siblingIds: [failed!.id, reply!.id] })
  })

  test('a reply that broke off after some text is kept as a version by its retry', async () => {
    const { client, thread } = await chatSetup()
    fake.script({ text: 'half of an answer', cutAfter: 2 })
    await send(client, thread.id, 'retry me')
    const [, failed] = await branch(client, thread.id)
    expect(failed).toMatchObject({ status: 'failed' })
    expect(failed!.content.trim()).not.toBe('')
    await regenerate(client, thread.id, 'worked')
    const [, reply] = await branch(client, thread.id)
    expect(reply).toMatchObject({ content: 'worked', siblingIds: [failed!.id, reply!.id] })
  })

  test('a new reply is written from the whole history before the reply it replaces', async () => {
    const { client, thread } = await chatSetup()
    await send(client, thread.id, 'hello')
    await send(client, thread.id, 'go on')
    await regenerate(client, thread.id, 'another answer')
    expect(modelSaw()).toEqual(['hello', 'You said: hello', 'go on'])
    expect((await branch(client, thread.id)).map((m) => m.content)).toEqual(['hello', 'You said: hello', 'go on', 'another answer'])
  })
})
