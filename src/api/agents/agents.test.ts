import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { readSse } from '../../../tests/support/sse'
import { AGENT_TOOLS } from './limits'
import { TOOLS } from '../../ai/tools'
import { BASE_URL, createTestApp, enableOpenAiModels, joinAsMember, registerOrg, type TestClient } from '../../../tests/support/test-app'

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-agents', OPENAI_BASE_URL: `${fake.url}/v1`, SEARXNG_URL: 'http://127.0.0.1:9' } })
})
afterAll(async () => {
  await t.close()
  fake.close()
})
beforeEach(() => fake.reset())

async function setup() {
  const client = t.client()
  await registerOrg(client)
  const [gpt, mini] = await enableOpenAiModels(client, ['openai/gpt-4.1', 'openai/gpt-4.1-mini'])
  return { client, gpt, mini }
}

const send = async (client: TestClient, threadId: string, content: string) => {
  const cookie = client.cookieHeader()
  return t.app.request(`/api/threads/${threadId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: BASE_URL },
    body: JSON.stringify({ content }),
  })
}
const chatRequests = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions'))
const lastRequest = () => chatRequests().at(-2)! // the last is the title
/** The last model request: a reply's in a chat that has its title already. */
const latestRequest = () => chatRequests().at(-1)!
const systemOf = (r: { body: unknown }) => (r.body as { messages: { role: string; content: string }[] }).messages[0]!.content

describe('agents', () => {
  test('create, list, change and delete', async () => {
    const { client, gpt, mini } = await setup()
    const created = await client.post('/api/agents', { name: 'Reviewer', instructions: 'Review code strictly.', modelId: gpt.id })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ name: 'Reviewer', modelId: gpt.id, available: true, model: { modelId: 'openai/gpt-4.1' } })
    const changed = await client.put(`/api/agents/${created.body.id}`, { name: 'Reviewer 2', instructions: 'Be kind.', modelId: mini.id })
    expect(changed.body).toMatchObject({ name: 'Reviewer 2', instructions: 'Be kind.', modelId: mini.id })
    expect((await client.get('/api/agents')).body.map((a: { name: string }) => a.name)).toEqual(['Reviewer 2'])
    expect((await client.delete(`/api/agents/${created.body.id}`)).status).toBe(204)
    expect((await client.get(`/api/agents/${created.body.id}`)).body.code).toBe('AGENT_NOT_FOUND')
  })

  test("a chat with an agent uses the agent's model and instructions; editing the agent affects the next reply", async () => {
    const { client, gpt, mini } = await setup()
    const agent = (await client.post('/api/agents', { name: 'Pirate', instructions: 'Talk like a pirate.', modelId: mini.id })).body
    const thread = (await client.post('/api/threads', { agentId: agent.id })).body
    expect(thread.agentId).toBe(agent.id)
    await readSse(await send(client, thread.id, 'Ahoy'))
    expect((lastRequest().body as { model: string }).model).toBe('gpt-4.1-mini')
    expect(systemOf(lastRequest())).toEndWith('Talk like a pirate.')
    await client.put(`/api/agents/${agent.id}`, { name: 'Pirate', instructions: 'Talk like a poet.', modelId: gpt.id })
    await readSse(await send(client, thread.id, 'Again'))
    const again = latestRequest()
    expect((again.body as { model: string }).model).toBe('gpt-4.1')
    expect(systemOf(again)).toEndWith('Talk like a poet.')
  })

  test('an agent whose model is unpermitted stays listed as unavailable; chatting gives No model found until it gets a permitted model', async () => {
    const { client, gpt, mini } = await setup()
    const agent = (await client.post('/api/agents', { name: 'Temp', instructions: 'x', modelId: mini.id })).body
    const thread = (await client.post('/api/threads', { agentId: agent.id })).body
    await client.delete(`/api/models/permitted/${mini.id}`)
    const listed = (await client.get('/api/agents')).body[0]
    expect(listed).toMatchObject({ id: agent.id, available: false, model: null })
    const refused = await send(client, thread.id, 'hi')
    expect(refused.status).toBe(404)
    expect((await refused.json()).code).toBe('NO_MODEL_FOUND')
    await client.put(`/api/agents/${agent.id}`, { name: 'Temp', instructions: 'x', modelId: gpt.id })
    expect((await send(client, thread.id, 'hi')).status).toBe(200)
  })

  test('validation: empty or oversized fields, and models of other organisations or not permitted', async () => {
    const { client, gpt } = await setup()
    const empty = await client.post('/api/agents', { name: '', instructions: '  ', modelId: '' })
    expect(empty.body.fields).toEqual({ name: 'Name is required', instructions: 'Instructions are required', modelId: 'Model is required' })
    const big = await client.post('/api/agents', { name: 'n'.repeat(101), instructions: 'i'.repeat(20_001), modelId: gpt.id })
    expect(big.body.fields).toEqual({ name: 'Name must be at most 100 characters', instructions: 'Instructions must be at most 20000 characters' })
    expect((await client.post('/api/agents', {})).body).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: { name: 'Name is required', instructions: 'Instructions are required', modelId: 'Model is required' },
    })
    // Models that are not this organisation's permitted language models, each refused with a field message.
    const notPermitted = { status: 404, code: 'MODEL_NOT_FOUND', fields: { modelId: 'Choose a model your organisation permits' } }
    const embedding = (await client.post('/api/models/permitted', { modelId: 'openai/text-embedding-3-small' })).body
    for (const modelId of ['openai/gpt-4.1', crypto.randomUUID(), embedding.id]) {
      const res = await client.post('/api/agents', { name: 'A', instructions: 'B', modelId })
      expect({ modelId, ...res.body }).toMatchObject({ modelId, ...notPermitted })
    }
    expect((await client.post('/api/agents', { name: 'A', instructions: 'B', modelId: 'm'.repeat(65) })).body).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: { modelId: 'Choose a model your organisation permits' },
    })
    const other = await setup()
    const foreign = await client.post('/api/agents', { name: 'A', instructions: 'B', modelId: other.gpt.id })
    expect(foreign.status).toBe(404)
    expect(foreign.body).toMatchObject({ code: 'MODEL_NOT_FOUND', fields: { modelId: 'Choose a model your organisation permits' } })
    // An agent of another user cannot be used for a chat.
    const agent = (await client.post('/api/agents', { name: 'Mine', instructions: 'x', modelId: gpt.id })).body
    expect((await other.client.post('/api/threads', { agentId: agent.id })).body.code).toBe('AGENT_NOT_FOUND')
    expect((await other.client.put(`/api/agents/${agent.id}`, { name: 'x', instructions: 'y', modelId: other.gpt.id })).status).toBe(404)
    // A model of a provider the admin disabled is no longer permitted either.
    expect((await client.request('DELETE', '/api/models/providers/permitted', { providerId: 'openai' })).status).toBe(204)
    expect((await client.post('/api/agents', { name: 'A', instructions: 'B', modelId: gpt.id })).body).toMatchObject(notPermitted)
    expect((await client.put(`/api/agents/${agent.id}`, { name: 'Mine', instructions: 'x', modelId: gpt.id })).body).toMatchObject(notPermitted)
  })
  test('an agent offers only the built-in tools chosen for it; a new one gets every tool', async () => {
    const { client, gpt } = await setup()
    // The web search is configured (never reached here); source_query needs files, so a chat without any is not offered it.
    // The first reply in a chat is followed by its title request; later ones are the last request.
    const offered = (first = false) => {
      const reply = first ? lastRequest() : latestRequest()
      return ((reply.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name)
    }
    const agent = (await client.post('/api/agents', { name: 'Scout', instructions: 'Look things up.', modelId: gpt.id })).body
    expect(agent.tools).toEqual([...AGENT_TOOLS])
    const thread = (await client.post('/api/threads', { agentId: agent.id })).body
    await readSse(await send(client, thread.id, 'Find it'))
    expect(offered(true)).toEqual(['internet_search', 'website_content', 'send_email'])

    // Without web search: not offered, and a change without `tools` keeps the choice.
    const chosen = await client.put(`/api/agents/${agent.id}`, { name: 'Scout', instructions: 'Read pages.', modelId: gpt.id, tools: ['send_email', 'website_content', 'website_content'] })
    expect(chosen.body.tools).toEqual(['website_content', 'send_email'])
    expect((await client.put(`/api/agents/${agent.id}`, { name: 'Scout', instructions: 'Read pages.', modelId: gpt.id })).body.tools).toEqual(['website_content', 'send_email'])
    await readSse(await send(client, thread.id, 'Again'))
    expect(offered()).toEqual(['website_content', 'send_email'])
    expect((await client.get(`/api/agents/${agent.id}`)).body.tools).toEqual(['website_content', 'send_email'])

    // The system prompt names the agent's collections while it may search them with source_query.
    const collection = (await client.post('/api/collections', { name: 'Atlas' })).body
    await client.put(`/api/agents/${agent.id}`, { name: 'Scout', instructions: 'Read.', modelId: gpt.id, tools: ['source_query'], collectionIds: [collection.id] })
    await readSse(await send(client, thread.id, 'Search'))
    expect(systemOf(latestRequest())).toContain('- Atlas: 0 ready files')

    // No tools at all: the model is offered none and is not told of collections it cannot search;
    // a chat without an agent still gets every available tool.
    await client.put(`/api/agents/${agent.id}`, { name: 'Scout', instructions: 'Just talk.', modelId: gpt.id, tools: [] })
    await readSse(await send(client, thread.id, 'Once more'))
    expect(offered()).toEqual([])
    expect(systemOf(latestRequest())).not.toContain('Atlas')
    const plain = (await client.post('/api/threads', {})).body
    await readSse(await send(client, plain.id, 'Hello'))
    expect(offered(true)).toEqual(['internet_search', 'website_content', 'send_email'])
  })

  test('the tool names are those of the built-in tools', () => {
    expect(TOOLS.map((t) => t.name).sort()).toEqual([...AGENT_TOOLS].sort())
  })

  test("validation: unknown tools, and another organisation's collection", async () => {
    const { client, gpt } = await setup()
    const unknown = await client.post('/api/agents', { name: 'A', instructions: 'B', modelId: gpt.id, tools: ['internet_search', 'shell'] })
    expect(unknown.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', fields: { 'tools.1': 'Unknown tool; the tools are internet_search, website_content, source_query, send_email' } })
    expect((await client.post('/api/agents', { name: 'A', instructions: 'B', modelId: gpt.id, tools: 'internet_search' })).body.fields).toEqual({ tools: 'Tools must be a list of tool names' })
    const agent = (await client.post('/api/agents', { name: 'A', instructions: 'B', modelId: gpt.id, tools: ['source_query'] })).body
    expect((await client.put(`/api/agents/${agent.id}`, { name: 'A', instructions: 'B', modelId: gpt.id, tools: [null] })).body.code).toBe('VALIDATION_FAILED')
    expect((await client.get(`/api/agents/${agent.id}`)).body.tools).toEqual(['source_query'])

    const other = await setup()
    const foreign = (await other.client.post('/api/collections', { name: 'Theirs' })).body.id
    await other.client.put(`/api/collections/${foreign}/sharing`, { organizationRole: 'reader', groups: [] })
    const refused = await client.put(`/api/agents/${agent.id}`, { name: 'A', instructions: 'B', modelId: gpt.id, collectionIds: [foreign] })
    expect(refused.body).toMatchObject({ code: 'VALIDATION_FAILED', fields: { collectionIds: 'Choose collections you may read' } })
    expect((await client.get(`/api/agents/${agent.id}`)).body.collections).toEqual([])
  })
})

describe('sharing agents', () => {
  test('shared with the organisation: colleagues chat with it and its tools, cannot change, share or delete it, and make a copy', async () => {
    const { client: admin, gpt } = await setup()
    const mia = await joinAsMember(t, admin)
    const max = await joinAsMember(t, admin, 'user', 'Max Member')
    const agent = (await mia.client.post('/api/agents', { name: 'Scout', instructions: 'Read pages.', modelId: gpt.id, tools: ['website_content'] })).body
    expect(agent).toMatchObject({ mine: true, sharedWithOrganization: false, groups: [], owner: { name: 'Mia Member' } })
    expect((await max.client.get('/api/agents')).body).toEqual([])
    expect((await max.client.post('/api/threads', { agentId: agent.id })).body.code).toBe('AGENT_NOT_FOUND')

    expect((await mia.client.put(`/api/agents/${agent.id}/sharing`, { organization: true, groupIds: [] })).body).toMatchObject({ sharedWithOrganization: true })
    expect((await max.client.get('/api/agents')).body).toEqual([expect.objectContaining({ id: agent.id, mine: false, tools: ['website_content'], owner: expect.objectContaining({ name: 'Mia Member' }) })])
    // A chat with the shared agent uses its model, instructions and tools.
    const thread = (await max.client.post('/api/threads', { agentId: agent.id })).body
    await readSse(await send(max.client, thread.id, 'Look at this page'))
    expect(systemOf(lastRequest())).toContain('Read pages.')
    expect(((lastRequest().body as { tools?: { function: { name: string } }[] }).tools ?? []).map((x) => x.function.name)).toEqual(['website_content'])
    expect((await max.client.get(`/api/threads/${thread.id}`)).body.agentId).toBe(agent.id)

    // Read-only for everyone but the owner.
    expect((await max.client.put(`/api/agents/${agent.id}`, { name: 'Mine', instructions: 'x', modelId: gpt.id })).body.code).toBe('FORBIDDEN')
    expect((await max.client.put(`/api/agents/${agent.id}/sharing`, { organization: false, groupIds: [] })).body.code).toBe('FORBIDDEN')
    expect((await admin.delete(`/api/agents/${agent.id}`)).status).toBe(403)
    const copy = await max.client.post(`/api/agents/${agent.id}/copy`)
    expect(copy.status).toBe(201)
    expect(copy.body).toMatchObject({ mine: true, name: 'Scout', instructions: 'Read pages.', modelId: gpt.id, tools: ['website_content'], sharedWithOrganization: false })
    expect((await max.client.put(`/api/agents/${copy.body.id}`, { name: 'My scout', instructions: 'Changed', modelId: gpt.id })).status).toBe(200)
    expect((await mia.client.get(`/api/agents/${agent.id}`)).body).toMatchObject({ name: 'Scout', instructions: 'Read pages.' })

    // Taken back: gone from the list, and the chat with it can no longer reach it.
    await mia.client.put(`/api/agents/${agent.id}/sharing`, { organization: false, groupIds: [] })
    expect((await max.client.get(`/api/agents/${agent.id}`)).status).toBe(404)
    expect((await max.client.get('/api/agents')).body.map((a: { name: string }) => a.name)).toEqual(['My scout'])
  }, 30_000) // several accounts, each signing up

  test('shared with a group: its members only; another organisation never; bad sharing input is refused', async () => {
    const { client: admin, gpt } = await setup()
    const mia = await joinAsMember(t, admin)
    const max = await joinAsMember(t, admin, 'user', 'Max Member')
    const group = (await admin.post('/api/groups', { name: 'Sales' })).body
    await admin.post(`/api/groups/${group.id}/members`, { userIds: [max.id] })
    const agent = (await mia.client.post('/api/agents', { name: 'Closer', instructions: 'Sell.', modelId: gpt.id })).body
    expect((await mia.client.put(`/api/agents/${agent.id}/sharing`, { organization: false, groupIds: [group.id] })).body.groups).toEqual([{ id: group.id, name: 'Sales' }])
    expect((await max.client.get('/api/agents')).body).toEqual([expect.objectContaining({ id: agent.id, mine: false, groups: [] })])
    // Its owner's list names every group, by name.
    const board = (await admin.post('/api/groups', { name: 'Board' })).body
    await mia.client.put(`/api/agents/${agent.id}/sharing`, { organization: false, groupIds: [group.id, board.id] })
    expect((await mia.client.get('/api/agents')).body).toEqual([
      expect.objectContaining({ id: agent.id, mine: true, groups: [{ id: board.id, name: 'Board' }, { id: group.id, name: 'Sales' }] }),
    ])
    await mia.client.put(`/api/agents/${agent.id}/sharing`, { organization: false, groupIds: [group.id] })
    expect((await admin.get('/api/agents')).body).toEqual([])
    expect((await admin.post(`/api/agents/${agent.id}/copy`)).status).toBe(404)

    const other = await setup()
    expect((await other.client.get(`/api/agents/${agent.id}`)).status).toBe(404)
    expect((await other.client.post('/api/threads', { agentId: agent.id })).status).toBe(404)
    const foreignGroup = (await other.client.post('/api/groups', { name: 'Foreign' })).body
    expect((await mia.client.put(`/api/agents/${agent.id}/sharing`, { organization: true, groupIds: [foreignGroup.id] })).body).toMatchObject({ status: 400, fields: { groupIds: 'Unknown group' } })
    expect((await mia.client.put(`/api/agents/${agent.id}/sharing`, { organization: 'yes', groupIds: [] })).body.fields).toEqual({ organization: 'Say whether the whole organisation may use it' })
    expect((await mia.client.get(`/api/agents/${agent.id}`)).body).toMatchObject({ sharedWithOrganization: false, groups: [{ id: group.id }] })
  }, 30_000) // several accounts, each signing up
})
