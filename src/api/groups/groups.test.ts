import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { agents, groupMembers } from '../../../db/schema'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { readSse } from '../../../tests/support/sse'
import { BASE_URL, createTestApp, enableOpenAiModels, joinAsMember, registerOrg, type TestClient } from '../../../tests/support/test-app'

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-groups', OPENAI_BASE_URL: `${fake.url}/v1` } })
})
afterAll(async () => {
  await t.close()
  fake.close()
})
beforeEach(() => fake.reset())

/** An organisation with two members; two OpenAI chat models and an embedding model permitted. */
async function org() {
  const admin = t.client()
  const owner = await registerOrg(admin)
  const [gpt41, gpt4o, embedding] = await enableOpenAiModels(admin, ['openai/gpt-4.1', 'openai/gpt-4o', 'openai/text-embedding-3-small'])
  const mia = await joinAsMember(t, admin)
  const max = await joinAsMember(t, admin, 'user', 'Max Member')
  return { admin, adminId: owner.user.id as string, mia, max, gpt41: gpt41.id as string, gpt4o: gpt4o.id as string, embedding: embedding.id as string }
}

const pickerOf = async (client: TestClient) => (await client.get('/api/models/permitted/language-models')).body.map((m: { modelId: string }) => m.modelId)

describe('groups', () => {
  test('admins create, rename, fill, empty and delete groups; a member may be in several', async () => {
    const { admin, mia, max } = await org()
    const sales = await admin.post('/api/groups', { name: '  Sales ' })
    expect(sales.status).toBe(201)
    expect(sales.body).toMatchObject({ name: 'Sales', members: [] })
    const legal = (await admin.post('/api/groups', { name: 'Legal' })).body

    const added = await admin.post(`/api/groups/${sales.body.id}/members`, { userIds: [mia.id, max.id, mia.id] })
    expect(added.status).toBe(200)
    expect(added.body.members.map((m: { id: string }) => m.id).sort()).toEqual([mia.id, max.id].sort())
    // Adding again is harmless.
    expect((await admin.post(`/api/groups/${sales.body.id}/members`, { userIds: [mia.id] })).body.members).toHaveLength(2)
    await admin.post(`/api/groups/${legal.id}/members`, { userIds: [mia.id] })

    const renamed = await admin.patch(`/api/groups/${sales.body.id}`, { name: 'Sales DACH' })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({ name: 'Sales DACH' })
    expect(renamed.body.members).toHaveLength(2)

    const removed = await admin.delete(`/api/groups/${sales.body.id}/members/${max.id}`)
    expect(removed.status).toBe(200)
    expect(removed.body.members.map((m: { id: string }) => m.id)).toEqual([mia.id])
    expect((await admin.delete(`/api/groups/${sales.body.id}/members/${max.id}`)).body.code).toBe('USER_NOT_FOUND')

    const list = (await admin.get('/api/groups')).body
    expect(list.map((g: { name: string; members: unknown[] }) => [g.name, g.members.length])).toEqual([['Legal', 1], ['Sales DACH', 1]])

    expect((await admin.delete(`/api/groups/${legal.id}`)).status).toBe(204)
    expect((await admin.get('/api/groups')).body.map((g: { name: string }) => g.name)).toEqual(['Sales DACH'])
    // Mia is still in the other group and in the organisation.
    expect(await t.deps.db.select().from(groupMembers).where(eq(groupMembers.userId, mia.id))).toHaveLength(1)
    expect((await admin.get('/api/users')).body.some((u: { id: string }) => u.id === mia.id)).toBe(true)
  }, 30_000)

  test('a removed member leaves their groups', async () => {
    const { admin, mia } = await org()
    const g = (await admin.post('/api/groups', { name: 'Ops' })).body
    await admin.post(`/api/groups/${g.id}/members`, { userIds: [mia.id] })
    expect((await admin.delete(`/api/users/${mia.id}`)).status).toBe(204)
    expect((await admin.get('/api/groups')).body[0].members).toEqual([])
  }, 30_000)

  test('bad input: empty or long names, duplicates, unknown groups, members of another organisation; nothing changes half-way', async () => {
    const { admin, mia } = await org()
    const other = await org()
    const empty = await admin.post('/api/groups', { name: '   ' })
    expect(empty.status).toBe(400)
    expect(empty.body).toMatchObject({ code: 'VALIDATION_FAILED', fields: { name: 'Name is required' } })
    expect((await admin.post('/api/groups', { name: 'x'.repeat(61) })).body.fields.name).toBe('At most 60 characters')
    const g = (await admin.post('/api/groups', { name: 'Sales' })).body
    const dup = await admin.post('/api/groups', { name: 'Sales' })
    expect(dup.status).toBe(409)
    expect(dup.body).toMatchObject({ code: 'GROUP_NAME_TAKEN', fields: { name: expect.any(String) } })
    const h = (await admin.post('/api/groups', { name: 'Legal' })).body
    expect((await admin.patch(`/api/groups/${h.id}`, { name: 'Sales' })).body.code).toBe('GROUP_NAME_TAKEN')
    // Another organisation may use the same name.
    expect((await other.admin.post('/api/groups', { name: 'Sales' })).status).toBe(201)

    const mixed = await admin.post(`/api/groups/${g.id}/members`, { userIds: [mia.id, other.mia.id] })
    expect(mixed.status).toBe(400)
    expect(mixed.body).toMatchObject({ code: 'VALIDATION_FAILED', fields: { userIds: 'Unknown member' } })
    expect((await admin.post(`/api/groups/${g.id}/members`, { userIds: ['nobody'] })).body.code).toBe('VALIDATION_FAILED')
    expect((await admin.post(`/api/groups/${g.id}/members`, { userIds: [] })).body.fields.userIds).toBe('Choose at least one member')
    expect((await admin.get('/api/groups')).body.find((x: { id: string }) => x.id === g.id).members).toEqual([])

    expect((await admin.patch('/api/groups/unknown', { name: 'X' })).body.code).toBe('GROUP_NOT_FOUND')
    expect((await admin.delete('/api/groups/unknown')).status).toBe(404)
  }, 30_000)

  test("other organisations' groups are not found; members may not manage groups", async () => {
    const { admin, mia } = await org()
    const other = await org()
    const g = (await admin.post('/api/groups', { name: 'Secret' })).body
    for (const res of [
      await other.admin.patch(`/api/groups/${g.id}`, { name: 'Mine' }),
      await other.admin.delete(`/api/groups/${g.id}`),
      await other.admin.post(`/api/groups/${g.id}/members`, { userIds: [other.mia.id] }),
      await other.admin.delete(`/api/groups/${g.id}/members/${mia.id}`),
    ])
      expect(res.body.code).toBe('GROUP_NOT_FOUND')
    expect((await other.admin.get('/api/groups')).body).toEqual([])
    for (const res of [await mia.client.get('/api/groups'), await mia.client.post('/api/groups', { name: 'Mine' }), await mia.client.delete(`/api/groups/${g.id}`)])
      expect(res.status).toBe(403)
    expect((await admin.get('/api/groups')).body).toMatchObject([{ name: 'Secret' }])
  }, 30_000)
})

describe('model access by group', () => {
  test('a model restricted to a group leaves the picker, defaults and agents of everyone outside it, admins included', async () => {
    const o = await org()
    const sales = (await o.admin.post('/api/groups', { name: 'Sales' })).body
    await o.admin.post(`/api/groups/${sales.id}/members`, { userIds: [o.mia.id] })
    // Max's own default and agent use gpt-4o before it is restricted.
    await o.max.client.put('/api/models/user/default', { id: o.gpt4o })
    const agent = (await o.max.client.post('/api/agents', { name: 'Writer', instructions: 'Write.', modelId: o.gpt4o })).body
    await o.admin.put('/api/models/organization/default', { id: o.gpt4o })

    const res = await o.admin.put(`/api/models/permitted/${o.gpt4o}/access`, { restricted: true, groupIds: [sales.id] })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: o.gpt4o, restricted: true, groupIds: [sales.id] })
    expect((await o.admin.get('/api/models/permitted')).body.find((m: { id: string }) => m.id === o.gpt4o)).toMatchObject({ restricted: true, groupIds: [sales.id] })

    expect(await pickerOf(o.mia.client)).toEqual(['openai/gpt-4.1', 'openai/gpt-4o'])
    expect(await pickerOf(o.max.client)).toEqual(['openai/gpt-4.1'])
    expect(await pickerOf(o.admin)).toEqual(['openai/gpt-4.1'])
    // The organisation's default (gpt-4o) holds for Mia; Max's own default and the organisation's are closed to him.
    expect((await o.mia.client.get('/api/models/default')).body.modelId).toBe('openai/gpt-4o')
    expect((await o.max.client.get('/api/models/default')).body.modelId).toBe('openai/gpt-4.1')
    expect((await o.max.client.get('/api/models/user/default')).body.model).toBeNull()
    expect((await o.max.client.put('/api/models/user/default', { id: o.gpt4o })).body.code).toBe('MODEL_NOT_FOUND')
    // New chats and model changes refuse it; agents using it are unavailable and cannot be made.
    expect((await o.max.client.post('/api/threads', { modelId: o.gpt4o })).body.code).toBe('MODEL_NOT_FOUND')
    expect((await o.max.client.get('/api/agents')).body).toMatchObject([{ id: agent.id, available: false, model: null }])
    expect((await o.max.client.get(`/api/agents/${agent.id}`)).body).toMatchObject({ available: false })
    expect((await o.max.client.post('/api/agents', { name: 'X', instructions: 'x', modelId: o.gpt4o })).body).toMatchObject({ code: 'MODEL_NOT_FOUND', fields: { modelId: expect.any(String) } })
    expect((await o.mia.client.post('/api/agents', { name: 'X', instructions: 'x', modelId: o.gpt4o })).status).toBe(201)

    // Added to the group, Max sees it again; opened to everyone, so does the admin.
    await o.admin.post(`/api/groups/${sales.id}/members`, { userIds: [o.max.id] })
    expect(await pickerOf(o.max.client)).toEqual(['openai/gpt-4.1', 'openai/gpt-4o'])
    expect((await o.max.client.get('/api/agents')).body[0]).toMatchObject({ available: true })
    expect((await o.max.client.get('/api/models/user/default')).body.model.id).toBe(o.gpt4o)
    expect((await o.admin.put(`/api/models/permitted/${o.gpt4o}/access`, { restricted: false })).body).toMatchObject({ restricted: false, groupIds: [] })
    expect(await pickerOf(o.admin)).toEqual(['openai/gpt-4.1', 'openai/gpt-4o'])
  }, 30_000)

  test("losing access to a chat's model or agent's model answers 'No model found' and never calls the provider", async () => {
    const o = await org()
    const sales = (await o.admin.post('/api/groups', { name: 'Sales' })).body
    await o.admin.post(`/api/groups/${sales.id}/members`, { userIds: [o.mia.id] })
    await o.admin.put(`/api/models/permitted/${o.gpt4o}/access`, { restricted: true, groupIds: [sales.id] })
    const chat = (await o.mia.client.post('/api/threads', { modelId: o.gpt4o })).body
    const agent = (await o.mia.client.post('/api/agents', { name: 'A', instructions: 'x', modelId: o.gpt4o })).body
    const agentChat = (await o.mia.client.post('/api/threads', { agentId: agent.id })).body

    await o.admin.delete(`/api/groups/${sales.id}/members/${o.mia.id}`)
    for (const threadId of [chat.id, agentChat.id]) {
      const res = await t.app.request(`/api/threads/${threadId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: o.mia.client.cookieHeader(), origin: BASE_URL },
        body: JSON.stringify({ content: 'hello' }),
      })
      expect(res.status).toBe(404)
      expect(await res.json()).toMatchObject({ code: 'NO_MODEL_FOUND', message: 'No model found' })
    }
    expect(fake.requests.filter((r) => r.method === 'POST')).toEqual([])
    // The chat shows no model, so the page offers the 'No model found' path.
    expect((await o.mia.client.get(`/api/threads/${chat.id}`)).body.model).toBeNull()

    // A restricted model whose groups were all deleted is open to nobody, not to everyone.
    await o.admin.post(`/api/groups/${sales.id}/members`, { userIds: [o.mia.id] })
    const ok = await t.app.request(`/api/threads/${chat.id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: o.mia.client.cookieHeader(), origin: BASE_URL },
      body: JSON.stringify({ content: 'hello again' }),
    })
    expect((await readSse(ok)).at(-1)).toMatchObject({ event: 'message_end', data: { status: 'complete' } })
    await o.admin.delete(`/api/groups/${sales.id}`)
    expect(await pickerOf(o.mia.client)).toEqual(['openai/gpt-4.1'])
    expect((await o.admin.get('/api/models/permitted')).body.find((m: { id: string }) => m.id === o.gpt4o)).toMatchObject({ restricted: true, groupIds: [] })
    expect(await t.deps.db.select().from(agents).where(eq(agents.id, agent.id))).toHaveLength(1)
  }, 30_000)

  test('bad input: unknown groups or groups of another organisation, groups for an open model, embedding models, unknown models; nothing changes', async () => {
    const o = await org()
    const other = await org()
    const mine = (await o.admin.post('/api/groups', { name: 'Mine' })).body
    const theirs = (await other.admin.post('/api/groups', { name: 'Theirs' })).body
    const mixed = await o.admin.put(`/api/models/permitted/${o.gpt4o}/access`, { restricted: true, groupIds: [mine.id, theirs.id] })
    expect(mixed.status).toBe(400)
    expect(mixed.body).toMatchObject({ code: 'VALIDATION_FAILED', fields: { groupIds: 'Unknown group' } })
    const open = await o.admin.put(`/api/models/permitted/${o.gpt4o}/access`, { restricted: false, groupIds: [mine.id] })
    expect(open.body).toMatchObject({ code: 'VALIDATION_FAILED', fields: { groupIds: expect.any(String) } })
    expect((await o.admin.put(`/api/models/permitted/${o.gpt4o}/access`, { restricted: 'yes' })).body.code).toBe('VALIDATION_FAILED')
    expect((await o.admin.get('/api/models/permitted')).body.find((m: { id: string }) => m.id === o.gpt4o)).toMatchObject({ restricted: false, groupIds: [] })
    expect(await pickerOf(o.max.client)).toEqual(['openai/gpt-4.1', 'openai/gpt-4o'])

    expect((await o.admin.put(`/api/models/permitted/${o.embedding}/access`, { restricted: true, groupIds: [mine.id] })).body.code).toBe('NOT_A_LANGUAGE_MODEL')
    expect((await other.admin.put(`/api/models/permitted/${o.gpt4o}/access`, { restricted: true, groupIds: [theirs.id] })).body.code).toBe('MODEL_NOT_FOUND')
    expect((await o.mia.client.put(`/api/models/permitted/${o.gpt4o}/access`, { restricted: true, groupIds: [] })).status).toBe(403)
  }, 30_000)
})
