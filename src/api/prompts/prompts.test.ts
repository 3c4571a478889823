import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestApp, joinAsMember, registerOrg } from '../../../tests/support/test-app'
import { promptVariables } from './service'

let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

async function user() {
  const client = t.client()
  await registerOrg(client)
  return client
}

describe('prompts', () => {
  test('create, list with search, read, change and delete', async () => {
    const client = await user()
    const a = await client.post('/api/prompts', { title: 'Summarise', content: 'Summarise {{document}} for {{ audience }}; keep {{document}} short.' })
    expect(a.status).toBe(201)
    expect(a.body).toMatchObject({ title: 'Summarise', variables: ['document', 'audience'] })
    await client.post('/api/prompts', { title: 'Translate', content: 'Translate into German: 50%_off' })
    expect((await client.get('/api/prompts')).body.map((p: { title: string }) => p.title)).toEqual(['Translate', 'Summarise'])
    expect((await client.get('/api/prompts?search=german')).body.map((p: { title: string }) => p.title)).toEqual(['Translate'])
    expect((await client.get('/api/prompts?search=50%25_')).body).toHaveLength(1)
    expect((await client.get('/api/prompts?search=%25')).body).toHaveLength(1) // % is searched literally
    const changed = await client.put(`/api/prompts/${a.body.id}`, { title: 'Summary', content: 'Short please' })
    expect(changed.body).toMatchObject({ title: 'Summary', content: 'Short please', variables: [] })
    expect((await client.get('/api/prompts')).body[0].title).toBe('Summary')
    expect((await client.get(`/api/prompts/${a.body.id}`)).body.title).toBe('Summary')
    expect((await client.delete(`/api/prompts/${a.body.id}`)).status).toBe(204)
    expect((await client.get(`/api/prompts/${a.body.id}`)).body.code).toBe('PROMPT_NOT_FOUND')
  })

  test('belong to their user: others (same organisation or not) cannot read, change or delete them', async () => {
    const owner = await user()
    const prompt = (await owner.post('/api/prompts', { title: 'Mine', content: 'secret' })).body
    const stranger = await user()
    expect((await stranger.get(`/api/prompts/${prompt.id}`)).status).toBe(404)
    expect((await stranger.put(`/api/prompts/${prompt.id}`, { title: 'x', content: 'y' })).status).toBe(404)
    expect((await stranger.delete(`/api/prompts/${prompt.id}`)).status).toBe(404)
    expect((await stranger.get('/api/prompts')).body).toEqual([])
    expect((await owner.get(`/api/prompts/${prompt.id}`)).body.content).toBe('secret')
  })

  test('empty or oversized title and content are refused with field messages', async () => {
    const client = await user()
    const empty = await client.post('/api/prompts', { title: '  ', content: ' ' })
    expect(empty.status).toBe(400)
    expect(empty.body.fields).toEqual({ title: 'Title is required', content: 'Content is required' })
    const big = await client.post('/api/prompts', { title: 'x'.repeat(201), content: 'y'.repeat(20_001) })
    expect(big.body.fields).toEqual({ title: 'Title must be at most 200 characters', content: 'Content must be at most 20000 characters' })
    // The limits themselves are accepted.
    expect((await client.post('/api/prompts', { title: 'x'.repeat(200), content: 'y'.repeat(20_000) })).status).toBe(201)
    // Missing fields and other types read as empty; nothing was stored by the refusals.
    const missing = await client.post('/api/prompts', {})
    expect(missing.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', fields: { title: 'Title is required', content: 'Content is required' } })
    expect((await client.post('/api/prompts', { title: 5, content: null })).body.fields).toEqual({ title: 'Title is required', content: 'Content is required' })
    expect((await client.get('/api/prompts')).body).toHaveLength(1)
    const prompt = (await client.get('/api/prompts')).body[0]
    expect((await client.put(`/api/prompts/${prompt.id}`, { title: '', content: 'z'.repeat(20_001) })).body.fields).toEqual({
      title: 'Title is required',
      content: 'Content must be at most 20000 characters',
    })
    expect((await client.get(`/api/prompts/${prompt.id}`)).body.title).toBe('x'.repeat(200))
  })
})

describe('sharing prompts', () => {
  /** An organisation with an admin and two members. */
  async function org() {
    const admin = t.client()
    await registerOrg(admin)
    const mia = await joinAsMember(t, admin)
    const max = await joinAsMember(t, admin, 'user', 'Max Member')
    return { admin, mia, max }
  }

  test('shared with the organisation: others read, search and use it, but neither change, share nor delete it; a copy is their own', async () => {
    const { admin, mia, max } = await org()
    const prompt = (await mia.client.post('/api/prompts', { title: 'Weekly report', content: 'Report on {{team}}' })).body
    expect(prompt).toMatchObject({ mine: true, sharedWithOrganization: false, groups: [], owner: { name: 'Mia Member' } })
    // Private: nobody else sees or reaches it, an admin neither.
    expect((await max.client.get('/api/prompts')).body).toEqual([])
    expect((await admin.get(`/api/prompts/${prompt.id}`)).body.code).toBe('PROMPT_NOT_FOUND')
    expect((await admin.post(`/api/prompts/${prompt.id}/copy`)).body.code).toBe('PROMPT_NOT_FOUND')

    const shared = await mia.client.put(`/api/prompts/${prompt.id}/sharing`, { organization: true, groupIds: [] })
    expect(shared.body).toMatchObject({ sharedWithOrganization: true, mine: true })
    await max.client.post('/api/prompts', { title: 'Own one', content: 'mine' })
    const list = (await max.client.get('/api/prompts')).body
    expect(list.map((p: { title: string; mine: boolean }) => [p.title, p.mine])).toEqual([
      ['Own one', true],
      ['Weekly report', false],
    ])
    expect((await max.client.get('/api/prompts?search=team')).body).toEqual([expect.objectContaining({ id: prompt.id, mine: false, variables: ['team'], owner: expect.objectContaining({ name: 'Mia Member' }) })])
    expect((await max.client.get(`/api/prompts/${prompt.id}`)).body.content).toBe('Report on {{team}}')
    // Read-only for everyone but the owner.
    expect((await max.client.put(`/api/prompts/${prompt.id}`, { title: 'Mine now', content: 'x' })).body.code).toBe('FORBIDDEN')
    expect((await max.client.put(`/api/prompts/${prompt.id}/sharing`, { organization: false, groupIds: [] })).body.code).toBe('FORBIDDEN')
    expect((await admin.delete(`/api/prompts/${prompt.id}`)).status).toBe(403)
    expect((await mia.client.get(`/api/prompts/${prompt.id}`)).body).toMatchObject({ title: 'Weekly report', sharedWithOrganization: true })

    // A copy is the caller's own, private and changeable; the original stays as it was.
    const copy = await max.client.post(`/api/prompts/${prompt.id}/copy`)
    expect(copy.status).toBe(201)
    expect(copy.body).toMatchObject({ title: 'Weekly report', content: 'Report on {{team}}', mine: true, sharedWithOrganization: false, owner: { name: 'Max Member' } })
    expect((await max.client.put(`/api/prompts/${copy.body.id}`, { title: 'My report', content: 'Changed' })).status).toBe(200)
    expect((await mia.client.get(`/api/prompts/${prompt.id}`)).body.content).toBe('Report on {{team}}')
    expect((await mia.client.get('/api/prompts')).body.map((p: { title: string }) => p.title)).toEqual(['Weekly report'])

    // Taken back: private again. The owner's deletion removes it for everyone.
    await mia.client.put(`/api/prompts/${prompt.id}/sharing`, { organization: false, groupIds: [] })
    expect((await max.client.get(`/api/prompts/${prompt.id}`)).status).toBe(404)
    await mia.client.put(`/api/prompts/${prompt.id}/sharing`, { organization: true, groupIds: [] })
    expect((await mia.client.delete(`/api/prompts/${prompt.id}`)).status).toBe(204)
    expect((await max.client.get('/api/prompts')).body.map((p: { title: string }) => p.title)).toEqual(['My report', 'Own one'])
  }, 30_000) // several accounts, each signing up

  test('shared with groups: their members see it, a member outside them never does', async () => {
    const { admin, mia, max } = await org()
    const group = (await admin.post('/api/groups', { name: 'Sales' })).body
    await admin.post(`/api/groups/${group.id}/members`, { userIds: [max.id] })
    const prompt = (await mia.client.post('/api/prompts', { title: 'Offer', content: 'Write an offer' })).body
    const shared = await mia.client.put(`/api/prompts/${prompt.id}/sharing`, { organization: false, groupIds: [group.id] })
    expect(shared.body).toMatchObject({ sharedWithOrganization: false, groups: [{ id: group.id, name: 'Sales' }] })
    expect((await max.client.get('/api/prompts')).body).toEqual([expect.objectContaining({ id: prompt.id, mine: false, groups: [] })])
    // The owner's list names every group, by name; others never see whom a prompt is shared with.
    const board = (await admin.post('/api/groups', { name: 'Board' })).body
    await mia.client.put(`/api/prompts/${prompt.id}/sharing`, { organization: false, groupIds: [group.id, board.id] })
    expect((await mia.client.get('/api/prompts')).body).toEqual([
      expect.objectContaining({ id: prompt.id, mine: true, groups: [{ id: board.id, name: 'Board' }, { id: group.id, name: 'Sales' }] }),
    ])
    expect((await max.client.get('/api/prompts')).body).toEqual([expect.objectContaining({ id: prompt.id, groups: [] })])
    // The admin is not in the group.
    expect((await admin.get('/api/prompts')).body).toEqual([])
    expect((await admin.get(`/api/prompts/${prompt.id}`)).status).toBe(404)
    expect((await admin.post(`/api/prompts/${prompt.id}/copy`)).status).toBe(404)
    // Leaving the group takes the access away.
    await admin.delete(`/api/groups/${group.id}/members/${max.id}`)
    expect((await max.client.get('/api/prompts')).body).toEqual([])
  }, 30_000) // several accounts, each signing up

  test('another organisation never sees it, nor may a prompt be shared with its groups; bad sharing input is refused', async () => {
    const { mia } = await org()
    const other = await org()
    const prompt = (await mia.client.post('/api/prompts', { title: 'Internal', content: 'x' })).body
    await mia.client.put(`/api/prompts/${prompt.id}/sharing`, { organization: true, groupIds: [] })
    expect((await other.admin.get('/api/prompts')).body).toEqual([])
    expect((await other.mia.client.get(`/api/prompts/${prompt.id}`)).status).toBe(404)
    expect((await other.admin.put(`/api/prompts/${prompt.id}`, { title: 'x', content: 'y' })).status).toBe(404)
    expect((await other.admin.post(`/api/prompts/${prompt.id}/copy`)).status).toBe(404)
    const foreignGroup = (await other.admin.post('/api/groups', { name: 'Foreign' })).body
    const foreign = await mia.client.put(`/api/prompts/${prompt.id}/sharing`, { organization: false, groupIds: [foreignGroup.id] })
    expect(foreign.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', fields: { groupIds: 'Unknown group' } })
    expect((await mia.client.put(`/api/prompts/${prompt.id}/sharing`, { organization: false, groupIds: ['g', 'g'] })).body.fields).toEqual({ groupIds: 'Each group once' })
    expect((await mia.client.put(`/api/prompts/${prompt.id}/sharing`, { groupIds: [] })).body.fields).toEqual({ organization: 'Say whether the whole organisation may use it' })
    // Nothing changed by the refusals.
    expect((await mia.client.get(`/api/prompts/${prompt.id}`)).body).toMatchObject({ sharedWithOrganization: true, groups: [] })
  }, 30_000) // several accounts, each signing up
})

test('prompt variables: names in order of first use, each once', () => {
  expect(promptVariables('{{topic}} and {{ Thema }} and {{topic}} and {{not closed')).toEqual(['topic', 'Thema'])
  expect(promptVariables('no variables')).toEqual([])
})
