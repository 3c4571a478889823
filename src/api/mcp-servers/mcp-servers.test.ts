import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { auditEntries, mcpServers } from '../../../db/schema'
import { MCP_LIMITS } from '../../ai/mcp'
import { serverAddress } from './access'
import { reencryptMcpHeaders } from './secrets'
import { MAX_TOOL_OUTPUT } from '../../ai/tools/run-tool'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { RED_DOT, startEverythingServer, startTestMcpServer } from '../../../tests/support/mcp-servers'
import type { SseEvent } from '../../../tests/support/sse'
import { chatThrough, createTestApp, joinAsMember, registerOrg, type TestClient } from '../../../tests/support/test-app'

// Each test signs up members (password hashing) and talks to real servers: room on a loaded machine.
setDefaultTimeout(60_000)

type TestApp = Awaited<ReturnType<typeof createTestApp>>
let fake: FakeLlm
/** The operator allowed 127.0.0.1, where the test servers run. */
let t: TestApp
/** As deployed: no internal host allowed. */
let guarded: TestApp
let everything: Awaited<ReturnType<typeof startEverythingServer>>
let everythingSse: Awaited<ReturnType<typeof startEverythingServer>>
let own: ReturnType<typeof startTestMcpServer>

beforeAll(async () => {
  fake = await startFakeLlm()
  const env = { OPENAI_API_KEY: 'sk-mcp', OPENAI_BASE_URL: `${fake.url}/v1` }
  own = startTestMcpServer()
  ;[t, guarded] = await Promise.all([createTestApp({ env: { ...env, KONTOR_FETCH_ALLOWED_HOSTS: '127.0.0.1' } }), createTestApp({ env })])
  // One after the other: each takes its port before the next one is picked.
  everything = await startEverythingServer('streamableHttp')
  everythingSse = await startEverythingServer('sse')
}, 60_000)
afterAll(async () => {
  everything?.close()
  everythingSse?.close()
  own?.close()
  await Promise.all([t?.close(), guarded?.close()])
  fake?.close()
})

async function adminOf(app = t) {
  const client = app.client()
  await registerOrg(client)
  return client
}

async function addServer(client: TestClient, body: Record<string, unknown>) {
  const res = await client.post('/api/mcp-servers', body)
  if (res.status !== 201) throw new Error(`add failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body as { id: string; name: string }
}

/** An admin with a permitted model, the test server added as "Dictionary" (with a token) and its tools enabled as asked. */
async function chatSetup(access: Record<string, Record<string, unknown>> = { lookup: { scope: 'everyone' } }, url = own.url) {
  const admin = await adminOf()
  await admin.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
  const model = (await admin.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })).body
  const server = await addServer(admin, { name: 'Dictionary', url, bearerToken: 'dict-token' })
  for (const [name, body] of Object.entries(access)) {
    const res = await admin.put(`/api/mcp-servers/${server.id}/tools/${name}`, body)
    if (res.status !== 200) throw new Error(`enable failed: ${res.status} ${JSON.stringify(res.body)}`)
  }
  return { admin, model, server }
}

const chat = (client: TestClient, threadId: string, content: string) => chatThrough(t.app, client, threadId, content)
const of = (events: SseEvent[], name: string) => events.filter((e) => e.event === name).map((e) => e.data)
const offeredTools = (request: { body: { tools?: { function: { name: string } }[] } }) => (request.body.tools ?? []).map((x) => x.function.name)
const modelCalls = () => fake.requests.filter((r) => r.body?.stream)

describe('MCP servers (admin)', () => {
  test('an admin adds server-everything (Streamable HTTP), sees its tools, enables one, changes its access, disables it and removes the server', async () => {
    const admin = await adminOf()
    const server = await addServer(admin, { name: 'Everything', url: everything.url })
    expect(server).toMatchObject({ name: 'Everything', url: everything.url, headerNames: [], tools: [] })

    const listed = await admin.get(`/api/mcp-servers/${server.id}/tools`)
    expect(listed.status).toBe(200)
    const echo = listed.body.find((x: { name: string }) => x.name === 'echo')
    expect(echo).toMatchObject({ name: 'echo', enabled: false, access: null, description: expect.any(String) })
    expect(listed.body.map((x: { name: string }) => x.name)).toContain('get-tiny-image')

    const enabled = await admin.put(`/api/mcp-servers/${server.id}/tools/echo`, { scope: 'everyone' })
    expect(enabled.status).toBe(200)
    expect(enabled.body).toMatchObject({ name: 'echo', enabled: true, access: { scope: 'everyone', groupIds: [], agentIds: [] } })

    const group = (await admin.post('/api/groups', { name: 'Research' })).body
    const narrowed = await admin.put(`/api/mcp-servers/${server.id}/tools/echo`, { scope: 'groups', groupIds: [group.id] })
    expect(narrowed.body.access).toEqual({ scope: 'groups', groupIds: [group.id], agentIds: [] })
    const list = await admin.get('/api/mcp-servers')
    expect(list.body).toEqual([
      expect.objectContaining({ id: server.id, tools: [expect.objectContaining({ name: 'echo', scope: 'groups', groupIds: [group.id], agentIds: [] })] }),
    ])
    expect((await admin.get(`/api/mcp-servers/${server.id}/tools`)).body.find((x: { name: string }) => x.name === 'echo').access.scope).toBe('groups')

    expect((await admin.delete(`/api/mcp-servers/${server.id}/tools/echo`)).status).toBe(204)
    expect((await admin.delete(`/api/mcp-servers/${server.id}/tools/echo`)).body.code).toBe('MCP_TOOL_NOT_FOUND')
    expect((await admin.delete(`/api/mcp-servers/${server.id}`)).status).toBe(204)
    expect((await admin.get('/api/mcp-servers')).body).toEqual([])

    const actions = (await t.deps.db.select().from(auditEntries).where(eq(auditEntries.targetLabel, 'Everything: echo'))).map((e) => e.action)
    expect(actions.sort()).toEqual(['mcp_tool.disabled', 'mcp_tool.enabled', 'mcp_tool.enabled'])
  })

  test('a server that speaks only the older HTTP+SSE transport is reached through the fallback', async () => {
    const admin = await adminOf()
    const server = await addServer(admin, { name: 'Everything over SSE', url: everythingSse.url })
    const listed = await admin.get(`/api/mcp-servers/${server.id}/tools`)
    expect(listed.status).toBe(200)
    expect(listed.body.map((x: { name: string }) => x.name)).toContain('echo')
  })

  test('token and headers are stored encrypted, sent to the server, and only their names are shown', async () => {
    const admin = await adminOf()
    const server = await addServer(admin, { name: 'Secret', url: own.url, bearerToken: 'tok-very-secret', headers: [{ name: 'X-Team', value: 'team-very-secret' }] })
    expect(server).toMatchObject({ headerNames: ['x-team', 'authorization'] })
    const row = await t.deps.db.query.mcpServers.findFirst({ where: eq(mcpServers.id, server.id) })
    expect(row!.headersEncrypted).toBeString()
    expect(JSON.stringify(row)).not.toContain('very-secret')
    expect(JSON.stringify((await admin.get('/api/mcp-servers')).body)).not.toContain('very-secret')
    const audit = await t.deps.db.select().from(auditEntries).where(eq(auditEntries.targetId, server.id))
    expect(audit).toEqual([expect.objectContaining({ action: 'mcp_server.added', targetLabel: 'Secret' })])
    expect(JSON.stringify(audit)).not.toContain('very-secret')

    own.seen.length = 0
    expect((await admin.get(`/api/mcp-servers/${server.id}/tools`)).status).toBe(200)
    expect(own.seen.filter((s) => s.path === '/mcp').every((s) => s.authorization === 'Bearer tok-very-secret')).toBe(true)
  })

  test('a rotation of KONTOR_SECRET moves the headers to the new secret, at start or when they are read', async () => {
    const admin = await adminOf()
    const server = await addServer(admin, { name: 'Rotated', url: own.url, bearerToken: 'tok-rotated' })
    const rotated = { ...t.deps, config: { ...t.deps.config, secret: 'another-secret-another-secret-0123456789', previousSecret: t.deps.config.secret } }
    expect(await reencryptMcpHeaders(rotated)).toBeGreaterThanOrEqual(1)
    expect(await reencryptMcpHeaders(rotated)).toBe(0)
    const row = (await t.deps.db.query.mcpServers.findFirst({ where: eq(mcpServers.id, server.id) }))!
    const withoutPrevious = { ...rotated, config: { ...rotated.config, previousSecret: undefined } }
    expect(await serverAddress(withoutPrevious, row)).toEqual({ url: own.url, headers: { authorization: 'Bearer tok-rotated' } })
  })

  test('bad input is refused with the fields named', async () => {
    const admin = await adminOf()
    const bad = async (body: unknown) => (await admin.post('/api/mcp-servers', body)).body
    expect(await bad({ url: own.url })).toMatchObject({ code: 'VALIDATION_FAILED', fields: { name: 'Name is required' } })
    expect(await bad({ name: 'X', url: 'ftp://example.com/mcp' })).toMatchObject({ code: 'VALIDATION_FAILED', fields: { url: 'Enter a full http(s) address' } })
    expect(await bad({ name: 'X', url: 'not a url' })).toMatchObject({ code: 'VALIDATION_FAILED', fields: { url: expect.any(String) } })
    expect(await bad({ name: 'X', url: own.url, headers: [{ name: 'Host', value: 'x' }] })).toMatchObject({ fields: { 'headers.0.name': 'This header is set by Kontor' } })
    expect(await bad({ name: 'X', url: own.url, headers: [{ name: 'X-A', value: 'a\r\nb: c' }] })).toMatchObject({ fields: { 'headers.0.value': 'No line breaks' } })
    expect(await bad({ name: 'X', url: 'http://user:pw@example.com/mcp' })).toMatchObject({ code: 'INVALID_MCP_SERVER_URL', fields: { url: expect.any(String) } })

    await addServer(admin, { name: 'Twice', url: own.url })
    expect(await bad({ name: 'Twice', url: own.url })).toMatchObject({ code: 'MCP_SERVER_NAME_TAKEN', status: 409 })

    const server = await addServer(admin, { name: 'Own', url: own.url })
    const put = async (name: string, body: unknown) => (await admin.put(`/api/mcp-servers/${server.id}/tools/${name}`, body)).body
    expect(await put('lookup', { scope: 'groups' })).toMatchObject({ code: 'VALIDATION_FAILED', fields: { groupIds: 'Choose at least one group' } })
    expect(await put('lookup', { scope: 'agents', agentIds: [] })).toMatchObject({ fields: { agentIds: 'Choose at least one agent' } })
    expect(await put('lookup', { scope: 'groups', groupIds: ['no-such-group'] })).toMatchObject({ fields: { groupIds: 'Unknown group' } })
    expect(await put('lookup', { scope: 'agents', agentIds: ['no-such-agent'] })).toMatchObject({ fields: { agentIds: 'Unknown agent' } })
    expect(await put('lookup', { scope: 'someone' })).toMatchObject({ fields: { scope: 'Choose who gets the tool' } })
    expect(await put('no-such-tool', { scope: 'everyone' })).toMatchObject({ code: 'MCP_TOOL_NOT_FOUND', status: 404 })
    expect((await admin.get('/api/mcp-servers/no-such-server/tools')).body).toMatchObject({ code: 'MCP_SERVER_NOT_FOUND', status: 404 })
  })

  test('a private address is refused unless the operator allows its host', async () => {
    const admin = await adminOf(guarded)
    const res = await admin.post('/api/mcp-servers', { name: 'Local', url: own.url })
    expect(res.body).toMatchObject({ code: 'INVALID_MCP_SERVER_URL', status: 400, fields: { url: 'Private addresses are not allowed' } })
  })

  test('a server that answers garbage, is gone or hangs gives MCP_SERVER_UNREACHABLE, not a 500', async () => {
    const admin = await adminOf()
    for (const path of ['/garbage', '/down']) {
      const server = await addServer(admin, { name: `Bad ${path}`, url: `${own.base}${path}` })
      const res = await admin.get(`/api/mcp-servers/${server.id}/tools`)
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 502, code: 'MCP_SERVER_UNREACHABLE' })
    }
    const hanging = await addServer(admin, { name: 'Hangs', url: `${own.base}/hang` })
    const limit = MCP_LIMITS.timeoutMs
    MCP_LIMITS.timeoutMs = 500
    try {
      const res = await admin.get(`/api/mcp-servers/${hanging.id}/tools`)
      expect(res.body).toMatchObject({ code: 'MCP_SERVER_UNREACHABLE', status: 502 })
      expect(res.body.message).toContain('did not answer within')
    } finally {
      MCP_LIMITS.timeoutMs = limit
    }
  })
})

describe('MCP tools in chats', () => {
  test('the model calls an enabled MCP tool: the call and result stream as for built-in tools, the token reaches the server, the result goes back', async () => {
    const { admin, model } = await chatSetup()
    const thread = (await admin.post('/api/threads', { modelId: model.id })).body
    fake.reset()
    const events = await chat(admin, thread.id, 'Define kontor [[fake:tool=Dictionary__lookup:{"word":"kontor"}]]')
    expect(of(events, 'tool_call')).toEqual([{ id: expect.any(String), name: 'Dictionary__lookup', arguments: '{"word":"kontor"}' }])
    const [result] = of(events, 'tool_result')
    expect(result).toMatchObject({ name: 'Dictionary__lookup', isError: false, data: { server: 'Dictionary', tool: 'lookup', images: [], resources: [] } })
    expect(result.result).toBe('Definition of kontor: a test word. Authorization: Bearer dict-token')
    expect(of(events, 'message_end')).toEqual([{ status: 'complete' }])

    const [first, second] = modelCalls()
    const offered = first!.body.tools.find((x: { function: { name: string } }) => x.function.name === 'Dictionary__lookup')
    expect(offered.function.description).toContain('Looks up a word in the test dictionary.')
    expect(offered.function.parameters).toMatchObject({ type: 'object', properties: { word: { type: 'string' } }, required: ['word'] })
    expect(second!.body.messages.at(-1)).toMatchObject({ role: 'tool', content: result.result })

    const reply = (await admin.get(`/api/threads/${thread.id}`)).body.messages.at(-1)
    expect(reply.parts.map((p: { type: string }) => p.type)).toEqual(['tool_call', 'tool_result'])
  })

  test('images and resource links come to the chat as data; the model reads text; a huge result is cut; an error result is a failed tool result', async () => {
    const { admin, model } = await chatSetup({ picture: { scope: 'everyone' }, huge: { scope: 'everyone' }, broken: { scope: 'everyone' } })
    const thread = (await admin.post('/api/threads', { modelId: model.id })).body
    const picture = of(await chat(admin, thread.id, 'Dot [[fake:tool=Dictionary__picture:{}]]'), 'tool_result')[0]
    expect(picture.data).toEqual({ server: 'Dictionary', tool: 'picture', images: [{ mimeType: 'image/png', data: RED_DOT }], resources: [{ uri: 'https://example.com/dot.png', name: 'dot.png', mimeType: 'image/png' }] })
    expect(picture.result).toContain('[Image (image/png), shown to the user]')
    expect(picture.result).not.toContain(RED_DOT)

    const huge = of(await chat(admin, thread.id, 'Long [[fake:tool=Dictionary__huge:{}]]'), 'tool_result')[0]
    expect(huge.result.length).toBeLessThan(MAX_TOOL_OUTPUT + 300)
    expect(huge.result).toContain('[Output cut: the tool returned 50,003 characters')

    const broken = await chat(admin, thread.id, 'Fail [[fake:tool=Dictionary__broken:{}]]')
    expect(of(broken, 'tool_result')[0]).toMatchObject({ isError: true, result: 'The tool reported an error: the dictionary is closed' })
    expect(of(broken, 'message_end')).toEqual([{ status: 'complete' }])
  })

  test('a server that is down, hangs or answers garbage gives a failed tool result, and the reply still completes', async () => {
    const limit = MCP_LIMITS.timeoutMs
    const { admin, model, server } = await chatSetup()
    const thread = (await admin.post('/api/threads', { modelId: model.id })).body
    // Point the enabled tool at a server that misbehaves, as happens when one breaks after the tool was enabled.
    for (const [path, message] of [
      ['/down', 'The MCP server did not answer as an MCP server should.'],
      ['/garbage', 'The MCP server did not answer as an MCP server should.'],
      ['/hang', 'The MCP server did not answer within 0.5 seconds.'],
    ] as const) {
      await t.deps.db.update(mcpServers).set({ url: `${own.base}${path}` }).where(eq(mcpServers.id, server.id))
      MCP_LIMITS.timeoutMs = 500
      try {
        const events = await chat(admin, thread.id, `Define [[fake:tool=Dictionary__lookup:{"word":"x"}]]`)
        expect({ path, result: of(events, 'tool_result')[0] }).toMatchObject({ path, result: { isError: true, result: message } })
        expect(of(events, 'message_end')).toEqual([{ status: 'complete' }])
      } finally {
        MCP_LIMITS.timeoutMs = limit
      }
    }
    // A port nobody listens on.
    await t.deps.db.update(mcpServers).set({ url: 'http://127.0.0.1:9/mcp' }).where(eq(mcpServers.id, server.id))
    const events = await chat(admin, thread.id, `Define [[fake:tool=Dictionary__lookup:{"word":"x"}]]`)
    expect(of(events, 'tool_result')[0]).toMatchObject({ isError: true, result: 'The MCP server could not be reached.' })
  })

  test('a tool for groups reaches their members only; a tool for agents only chats with those agents', async () => {
    const admin = await adminOf()
    await admin.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
    const model = (await admin.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })).body
    const insider = await joinAsMember(t, admin, 'user', 'Ina Insider')
    const outsider = await joinAsMember(t, admin, 'user', 'Otto Outsider')
    const group = (await admin.post('/api/groups', { name: 'Lexicographers' })).body
    await admin.post(`/api/groups/${group.id}/members`, { userIds: [insider.id] })
    const agent = (await outsider.client.post('/api/agents', { name: 'Word agent', instructions: 'Define words.', modelId: model.id })).body
    const server = await addServer(admin, { name: 'Dictionary', url: own.url })
    expect((await admin.put(`/api/mcp-servers/${server.id}/tools/lookup`, { scope: 'groups', groupIds: [group.id] })).status).toBe(200)
    expect((await admin.put(`/api/mcp-servers/${server.id}/tools/picture`, { scope: 'agents', agentIds: [agent.id] })).status).toBe(200)
    const choices = (await admin.get('/api/mcp-servers/agent-choices')).body
    expect(choices).toEqual([{ id: agent.id, name: 'Word agent', ownerName: 'Otto Outsider' }])
    // The agent's owner sees the tool on the agent, read-only.
    expect((await outsider.client.get(`/api/agents/${agent.id}`)).body.mcpTools).toEqual([{ server: 'Dictionary', tool: 'picture' }])
    expect((await outsider.client.get('/api/agents')).body.map((a: { mcpTools: unknown }) => a.mcpTools)).toEqual([[{ server: 'Dictionary', tool: 'picture' }]])

    const offered = async (client: TestClient, body: Record<string, unknown>) => {
      const thread = (await client.post('/api/threads', body)).body
      fake.reset()
      await chat(client, thread.id, 'Hello')
      return offeredTools(modelCalls()[0]!).filter((n) => n.startsWith('Dictionary__'))
    }
    expect(await offered(insider.client, { modelId: model.id })).toEqual(['Dictionary__lookup'])
    expect(await offered(outsider.client, { modelId: model.id })).toEqual([])
    expect(await offered(outsider.client, { agentId: agent.id })).toEqual(['Dictionary__picture'])
    expect(await offered(admin, { modelId: model.id })).toEqual([])
  })
})
