import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestApp, registerOrg } from '../../../tests/support/test-app'
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

test('prompt variables: names in order of first use, each once', () => {
  expect(promptVariables('{{topic}} and {{ Thema }} and {{topic}} and {{not closed')).toEqual(['topic', 'Thema'])
  expect(promptVariables('no variables')).toEqual([])
})
