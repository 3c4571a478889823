/**
 * Kontor as an MCP server at /mcp, called with the MCP SDK's own client over Streamable HTTP:
 * the tools (search the caller's chats, ask a model or agent, list prompts), the prompts with
 * their variables, and the refusals for keys that are missing, wrong, revoked or switched off.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { users } from '../../../db/schema'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { until, waitFor } from '../../../tests/support/wait-for'
import { recordLogs } from '../../../tests/support/logs'
import { BASE_URL, chatThrough, createTestApp, enableOpenAiModels, joinAsMember, registerOrg, type TestClient } from '../../../tests/support/test-app'

setDefaultTimeout(30_000)

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-mcp', OPENAI_BASE_URL: `${fake.url}/v1` } })
})
afterAll(async () => {
  await t.close()
  fake.close()
})
beforeEach(() => fake.reset())

/** The SDK's client, talking to the app in this process as it would over the network. */
async function connect(key: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE_URL}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: (url, init) => Promise.resolve(t.app.request(url.toString(), init)),
  })
  const client = new Client({ name: 'kontor-test', version: '1.0.0' })
  await client.connect(transport)
  return client
}

const newKey = async (client: TestClient) => (await client.post('/api/api-keys', { name: 'Editor' })).body as { id: string; key: string }
const textOf = (result: object) => ((result as { content?: { text: string }[] }).content ?? []).map((c) => c.text).join('')

async function setup() {
  const admin = t.client()
  await registerOrg(admin)
  const [model] = await enableOpenAiModels(admin, ['openai/gpt-4.1'])
  const thread = (await admin.post('/api/threads', {})).body.id as string
  await chatThrough(t.app, admin, thread, 'What were the Zephyr quarterly numbers?')
  const key = await newKey(admin)
  return { admin, model, thread, key }
}

describe('Kontor as an MCP server', () => {
  test('lists its tools; search_chats finds the caller’s own chats only', async () => {
    const { admin, thread, key } = await setup()
    // A colleague's chat with the same word stays theirs.
    const colleague = await joinAsMember(t, admin)
    const theirs = (await colleague.client.post('/api/threads', {})).body.id as string
    await chatThrough(t.app, colleague.client, theirs, 'Zephyr secrets of the colleague')

    const mcp = await connect(key.key)
    expect(mcp.getServerVersion()?.name).toBe('kontor')
    expect((await mcp.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['ask_kontor', 'list_prompts', 'search_chats'])
    const found = await mcp.callTool({ name: 'search_chats', arguments: { query: 'Zephyr' } })
    expect(found.isError).toBeFalsy()
    expect(textOf(found)).toContain(`chat ${thread}`)
    expect(textOf(found)).toContain('**Zephyr**')
    expect(textOf(found)).not.toContain(theirs)
    expect(textOf(await mcp.callTool({ name: 'search_chats', arguments: { query: 'nothingmatcheshere' } }))).toBe('No chat matches “nothingmatcheshere”.')
    // Arguments the tool does not accept are refused by the protocol's validation.
    const bad = await mcp.callTool({ name: 'search_chats', arguments: { query: '' } })
    expect(bad.isError).toBe(true)
    await mcp.close()
  })

  test('ask_kontor answers with a permitted model or an agent, counts the usage, and refuses other models', async () => {
    const { admin, model, key } = await setup()
    const agent = (await admin.post('/api/agents', { name: 'Translator', instructions: 'Translate everything into German.', modelId: model.id })).body
    expect(agent.id).toBeTruthy()
    const mcp = await connect(key.key)
    const today = new Date().toISOString().slice(0, 10)
    const callsSoFar = async () => (await admin.get(`/api/usage/own?from=${today}&to=${today}&by=model`)).body.total.calls as number
    const [requestsBefore, usageBefore] = [fake.requests.length, await callsSoFar()]

    const plain = await mcp.callTool({ name: 'ask_kontor', arguments: { message: 'Hello from an editor' } })
    expect(plain.isError).toBeFalsy()
    expect(textOf(plain)).toBe('You said: Hello from an editor')
    expect(fake.requests.at(-1)!.body.model).toBe('gpt-4.1')

    const byAgent = await mcp.callTool({ name: 'ask_kontor', arguments: { message: 'Good morning', agent: 'translator' } })
    expect(byAgent.isError).toBeFalsy()
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).toContain('Translate everything into German.')

    for (const [args, message] of [
      [{ message: 'x', model: 'openai/gpt-4o' }, 'does not exist or you do not have access to it'],
      [{ message: 'x', agent: 'Nobody' }, 'You have no agent named “Nobody”.'],
      [{ message: 'x', model: 'openai/gpt-4.1', agent: 'Translator' }, 'Name a model or an agent, not both.'],
    ] as const) {
      const refused = await mcp.callTool({ name: 'ask_kontor', arguments: args })
      expect({ args, isError: refused.isError, text: textOf(refused).includes(message) }).toEqual({ args, isError: true, text: true })
    }
    // Two answers reached the provider, none of the refused; both count towards the member's usage, like chat replies and /v1 calls.
    expect(fake.requests.length - requestsBefore).toBe(2)
    expect((await callsSoFar()) - usageBefore).toBe(2)
    // Every tool call is in the audit log with the key it came with.
    const audit = (await admin.get('/api/audit-log?action=api.called')).body.entries as { target: { id: string }; details: { endpoint: string; tool: string } }[]
    expect(audit.filter((e) => e.details.tool === 'ask_kontor')).toHaveLength(5)
    expect(audit.every((e) => e.target.id === key.id && e.details.endpoint === '/mcp')).toBe(true)
    await mcp.close()
  })

  test('ask_kontor: a client that goes while the model is still answering ends the model call', async () => {
    const { key } = await setup()
    const mcp = await connect(key.key)
    const logs = recordLogs(t.deps.logger)
    try {
      const call = mcp.callTool({ name: 'ask_kontor', arguments: { message: 'Take your time [[fake:slow-first-token=20000]]' } })
      call.catch(() => undefined)
      const modelCall = await until('the model call', async () => fake.requests.find((r) => JSON.stringify(r.body).includes('Take your time')), 10_000)
      expect(modelCall.outcome).toBe('pending')
      await mcp.close() // the client goes: closing aborts its request
      await waitFor(async () => modelCall.outcome === 'disconnected', 10_000)
      // Answered as a call its client left, not as a failure of Kontor's.
      await waitFor(async () => logs.entries.some((e) => e.msg === 'the client left before its answer'), 10_000)
      expect(logs.problems()).toEqual([])
    } finally {
      logs.restore()
    }
  })

  test("ask_kontor takes an agent a colleague shared, and not one they keep to themselves", async () => {
    const { admin, model } = await setup()
    const colleague = await joinAsMember(t, admin)
    const shared = (await colleague.client.post('/api/agents', { name: 'Reviewer', instructions: 'Review contracts strictly.', modelId: model.id })).body
    await colleague.client.post('/api/agents', { name: 'Diary', instructions: 'Private notes.', modelId: model.id })
    expect((await colleague.client.put(`/api/agents/${shared.id}/sharing`, { organization: true, groupIds: [] })).status).toBe(200)
    const mcp = await connect((await newKey(admin)).key)
    const answered = await mcp.callTool({ name: 'ask_kontor', arguments: { message: 'Check clause 4', agent: 'Reviewer' } })
    expect(answered.isError).toBeFalsy()
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).toContain('Review contracts strictly.')
    const refused = await mcp.callTool({ name: 'ask_kontor', arguments: { message: 'x', agent: 'Diary' } })
    expect(refused.isError).toBe(true)
    await mcp.close()
  })

  test('the saved prompts are MCP prompts, their {{variables}} the arguments', async () => {
    const { admin, key } = await setup()
    await admin.post('/api/prompts', { title: 'Weekly summary', content: 'Summarise {{ topic }} for {{audience}}.' })
    await admin.post('/api/prompts', { title: 'Weekly summary', content: 'Second one with the same title' })
    const mcp = await connect(key.key)
    const { prompts } = await mcp.listPrompts()
    expect(prompts.map((p) => p.name).sort()).toEqual(['weekly-summary', 'weekly-summary-2'])
    const withVariables = prompts.find((p) => p.arguments?.length)!
    expect(withVariables.arguments!.map((a) => a.name)).toEqual(['topic', 'audience'])
    const filled = await mcp.getPrompt({ name: withVariables.name, arguments: { topic: 'the launch', audience: 'the board' } })
    expect(filled.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Summarise the launch for the board.' } }])
    expect(textOf(await mcp.callTool({ name: 'list_prompts', arguments: {} }))).toContain('## Weekly summary\nSummarise {{ topic }} for {{audience}}.')
    await mcp.close()
  })

  test('a missing, wrong or revoked key, or API access switched off, is refused before anything runs', async () => {
    const { admin, key } = await setup()
    const initialize = (authorization?: string) =>
      t.app.request('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization && { authorization }) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } }),
      })
    const none = await initialize()
    expect(none.status).toBe(401)
    expect(none.headers.get('www-authenticate')).toContain('Bearer')
    expect(await none.json()).toMatchObject({ jsonrpc: '2.0', error: { data: { code: 'INVALID_API_KEY' } }, id: null })
    expect((await initialize(`Bearer kontor_${'x'.repeat(64)}`)).status).toBe(401)
    expect((await initialize(`Bearer ${key.key}`)).status).toBe(200)

    expect((await admin.put('/api/api-keys/settings', { apiAccess: false })).status).toBe(200)
    const off = await initialize(`Bearer ${key.key}`)
    expect(off.status).toBe(403)
    expect((await off.json()).error.data.code).toBe('API_ACCESS_DISABLED')
    expect((await admin.put('/api/api-keys/settings', { apiAccess: true })).status).toBe(200)

    // Stateless: no stream to open with GET, no session to end with DELETE.
    for (const method of ['GET', 'DELETE']) {
      const res = await t.app.request('/mcp', { method, headers: { accept: 'text/event-stream', authorization: `Bearer ${key.key}` } })
      expect({ method, status: res.status, allow: res.headers.get('allow') }).toEqual({ method, status: 405, allow: 'POST' })
    }

    // A member deactivated by the directory (SCIM) is refused, here and on /v1, until reactivated.
    const owner = (await admin.get('/api/auth/me')).body.id as string
    await t.deps.db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, owner))
    expect((await initialize(`Bearer ${key.key}`)).status).toBe(401)
    expect((await t.app.request('/v1/models', { headers: { authorization: `Bearer ${key.key}` } })).status).toBe(401)
    await t.deps.db.update(users).set({ deactivatedAt: null }).where(eq(users.id, owner))
    expect((await initialize(`Bearer ${key.key}`)).status).toBe(200)

    expect((await admin.delete(`/api/api-keys/${key.id}`)).status).toBe(204)
    expect((await initialize(`Bearer ${key.key}`)).status).toBe(401)
    // A body above the limit is refused unread.
    const other = await newKey(admin)
    const huge = await t.app.request('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${other.key}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask_kontor', arguments: { message: 'x'.repeat(2 * 1024 * 1024) } } }),
    })
    expect(huge.status).toBe(413)
  })
})
