import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { and, asc, eq, sql } from 'drizzle-orm'
import { usageDaily, usageEvents } from '../../../db/schema'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import type { SseEvent } from '../../../tests/support/sse'
import { BASE_URL, chatThrough, createTestApp, enableOpenAiModels, joinAsMember, registerOrg, type TestClient } from '../../../tests/support/test-app'
import { effectivePrice } from '../models/access'
import { processingIdle } from '../sources/process'
import { recordUsage, usageDay } from './access'

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-usage', OPENAI_BASE_URL: `${fake.url}/v1` }, localFiles: true })
})
afterAll(async () => {
  await processingIdle()
  await t.close()
  fake.close()
})
beforeEach(async () => {
  await processingIdle()
  fake.reset()
})

/** GPT-4.1's catalogue price, US dollars per million tokens. */
const GPT41 = { input: 2, output: 8 }

async function setup() {
  const client = t.client()
  const org = await registerOrg(client)
  const [model, embedding] = await enableOpenAiModels(client, ['openai/gpt-4.1', 'openai/text-embedding-3-small'])
  const thread = (await client.post('/api/threads', {})).body
  return { client, org, userId: org.user.id as string, orgId: org.user.organization.id as string, model, embedding, thread: thread as { id: string } }
}

const chat = (client: TestClient, threadId: string, content: string) => chatThrough(t.app, client, threadId, content)

const usageOf = (events: SseEvent[]) => events.filter((e) => e.event === 'usage').map((e) => e.data as { inputTokens: number; outputTokens: number })
const eventsOf = (threadId: string) => t.deps.db.select().from(usageEvents).where(eq(usageEvents.threadId, threadId)).orderBy(asc(sql`rowid`))
const costOf = (u: { inputTokens: number; outputTokens: number }, price: { input: number; output: number }) => (u.inputTokens * price.input + u.outputTokens * price.output) / 1_000_000

describe('usage of every model call', () => {
  test("a streamed reply's tool turns and its title are each recorded with the provider's numbers and the catalogue's price", async () => {
    const { client, thread, userId, orgId } = await setup()
    fake.script({ text: 'Drafting.', toolCalls: [{ name: 'send_email', arguments: { to: 'a@acme.test', subject: 'Hi', body: 'Hello' } }] }, { text: 'The draft is ready.' })
    const events = await chat(client, thread.id, 'Write to Anna please')
    expect(events.at(-1)).toMatchObject({ event: 'message_end', data: { status: 'complete' } })
    const [first, total] = usageOf(events)
    const second = { inputTokens: total!.inputTokens - first!.inputTokens, outputTokens: total!.outputTokens - first!.outputTokens }

    const rows = await eventsOf(thread.id)
    expect(rows.map((r) => r.kind)).toEqual(['chat', 'chat', 'completion'])
    expect(rows[0]).toMatchObject({ organizationId: orgId, userId, modelRef: 'openai/gpt-4.1', estimated: false, ...first })
    expect(rows[1]).toMatchObject({ estimated: false, ...second })
    expect(rows[0]!.cost).toBeCloseTo(costOf(first!, GPT41), 12)
    expect(rows[1]!.cost).toBeCloseTo(costOf(second, GPT41), 12)
    // The title: the fake counts the words it was given and the words it answered.
    const titleRequest = fake.requests.find((r) => r.body && !r.body.stream)!
    const title = rows[2]!
    expect(title).toMatchObject({ kind: 'completion', estimated: false })
    expect(title.inputTokens).toBe(titleRequest.body.messages.reduce((n: number, m: { content: string }) => n + m.content.split(/\s+/).filter(Boolean).length, 0))
    expect(title.outputTokens).toBeGreaterThan(0)

    // The day's roll-up holds the same sums.
    const [day] = await t.deps.db.select().from(usageDaily).where(eq(usageDaily.organizationId, orgId))
    expect(day).toMatchObject({
      day: usageDay(new Date()),
      userId,
      modelRef: 'openai/gpt-4.1',
      calls: 3,
      estimatedCalls: 0,
      inputTokens: rows.reduce((n, r) => n + r.inputTokens, 0),
      outputTokens: rows.reduce((n, r) => n + r.outputTokens, 0),
    })
    expect(day!.cost).toBeCloseTo(rows.reduce((n, r) => n + r.cost, 0), 12)
  }, 30_000)

  test('a provider that sends no usage: the tokens are estimated from the text and marked as such', async () => {
    const { client, thread, orgId } = await setup()
    const events = await chat(client, thread.id, 'Tell me something [[fake:no-usage]] [[fake:tokens=40]]')
    expect(usageOf(events)).toEqual([])
    const rows = await eventsOf(thread.id)
    expect(rows.map((r) => [r.kind, r.estimated])).toEqual([['chat', true], ['completion', true]])
    // 40 tokens "t0 t1 …" of about 3 characters each, estimated at 4 characters a token.
    expect(rows[0]!.outputTokens).toBeGreaterThan(20)
    expect(rows[0]!.inputTokens).toBeGreaterThan(0)
    expect(rows[0]!.cost).toBeCloseTo(costOf(rows[0]!, GPT41), 12)
    const [day] = await t.deps.db.select().from(usageDaily).where(eq(usageDaily.organizationId, orgId))
    expect(day).toMatchObject({ calls: 2, estimatedCalls: 2 })
  }, 30_000)

  test("a file's embeddings are recorded for the member and chat it was added to", async () => {
    const { client, thread, userId } = await setup()
    const form = new FormData()
    form.set('file', new File(['The boiler pressure is three bar.\n\nThe pump runs daily.'], 'notes.txt', { type: 'text/plain' }))
    const res = await t.app.request(`/api/threads/${thread.id}/sources/file`, { method: 'POST', headers: { cookie: client.cookieHeader(), origin: BASE_URL }, body: form })
    expect(res.status).toBe(201)
    await processingIdle()
    const embeddingRequest = fake.requests.find((r) => r.path.endsWith('/embeddings'))!
    const words = embeddingRequest.body.input.reduce((n: number, s: string) => n + s.split(/\s+/).filter(Boolean).length, 0)
    const rows = await eventsOf(thread.id)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ kind: 'embedding', userId, modelRef: 'openai/text-embedding-3-small', inputTokens: words, outputTokens: 0, estimated: false })
    expect(rows[0]!.cost).toBeCloseTo((words * 0.02) / 1_000_000, 12)
  }, 30_000)

  test("an admin's price replaces the catalogue's until reset; own endpoints cost 0 unless priced", async () => {
    const { client, thread, model } = await setup()
    const priced = await client.put(`/api/models/permitted/${model.id}/price`, { input: 1.5, output: 3 })
    expect(priced.status).toBe(200)
    expect(priced.body).toMatchObject({ price: { input: 1.5, output: 3 }, priceOverridden: true })
    await chat(client, thread.id, 'Hello there')
    const [reply] = await eventsOf(thread.id)
    expect(reply!.cost).toBeCloseTo(costOf(reply!, { input: 1.5, output: 3 }), 12)

    const reset = await client.delete(`/api/models/permitted/${model.id}/price`)
    expect(reset.body).toMatchObject({ price: GPT41, priceOverridden: false })
    expect(effectivePrice({ providerId: 'endpoint-x', model: 'llama3', priceInput: null, priceOutput: null })).toEqual({ price: { input: 0, output: 0 }, overridden: false })
    expect(effectivePrice({ providerId: 'endpoint-x', model: 'llama3', priceInput: 0.1, priceOutput: 0.2 })).toEqual({ price: { input: 0.1, output: 0.2 }, overridden: true })
  }, 30_000)

  test('prices that are not numbers, negative or absurd are refused and change nothing; members and other organisations may not set them', async () => {
    const { client, model } = await setup()
    for (const [body, field] of [
      [{ input: 'abc', output: 1 }, 'input'],
      [{ input: 1, output: -1 }, 'output'],
      [{ input: 1e9, output: 1 }, 'input'],
      [{ input: 1 }, 'output'],
    ] as const) {
      const res = await client.put(`/api/models/permitted/${model.id}/price`, body)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', fields: { [field]: expect.any(String) } })
    }
    expect((await client.get('/api/models/permitted')).body.find((m: { id: string }) => m.id === model.id)).toMatchObject({ price: GPT41, priceOverridden: false })
    const other = t.client()
    await registerOrg(other)
    expect((await other.put(`/api/models/permitted/${model.id}/price`, { input: 0, output: 0 })).body.code).toBe('MODEL_NOT_FOUND')
    const { client: member } = await joinAsMember(t, client)
    expect((await member.put(`/api/models/permitted/${model.id}/price`, { input: 0, output: 0 })).status).toBe(403)
  }, 30_000)

  test('concurrent calls of the same day all count in the roll-up', async () => {
    const { orgId, userId } = await setup()
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        recordUsage(t.deps, { organizationId: orgId, userId, threadId: null, modelRef: 'openai/gpt-4.1', kind: 'chat', inputTokens: 10, outputTokens: i, estimated: i % 2 === 0, cost: 0.5 }),
      ),
    )
    const [day] = await t.deps.db.select().from(usageDaily).where(and(eq(usageDaily.organizationId, orgId), eq(usageDaily.userId, userId)))
    expect(day).toMatchObject({ calls: 20, estimatedCalls: 10, inputTokens: 200, outputTokens: 190 })
    expect(day!.cost).toBeCloseTo(10, 9)
  }, 30_000)
})

describe('GET /api/usage', () => {
  test('sums by day, member, group and model over a range; a member in two groups counts in each', async () => {
    const { client, orgId, userId, org } = await setup()
    const g1 = (await client.post('/api/groups', { name: 'Alpha' })).body
    const g2 = (await client.post('/api/groups', { name: 'Beta' })).body
    await client.post(`/api/groups/${g1.id}/members`, { userIds: [userId] })
    await client.post(`/api/groups/${g2.id}/members`, { userIds: [userId] })
    const record = (day: string, modelRef: string, userIdOf = userId) =>
      recordUsage(t.deps, { organizationId: orgId, userId: userIdOf, threadId: null, modelRef, kind: 'chat', inputTokens: 100, outputTokens: 10, estimated: false, cost: 0.25, at: new Date(`${day}T12:00:00Z`) })
    await record('2026-03-01', 'openai/gpt-4.1')
    await record('2026-03-01', 'openai/gpt-4o')
    await record('2026-03-02', 'openai/gpt-4.1')
    await record('2026-03-02', 'openai/gpt-4.1', 'removed-member')
    await record('2026-04-01', 'openai/gpt-4.1') // outside the range

    const range = 'from=2026-03-01&to=2026-03-31'
    const byDay = (await client.get(`/api/usage?${range}&by=day`)).body
    expect(byDay.total).toEqual({ calls: 4, estimatedCalls: 0, inputTokens: 400, outputTokens: 40, cost: 1 })
    expect(byDay.rows.map((r: { key: string; calls: number }) => [r.key, r.calls])).toEqual([['2026-03-01', 2], ['2026-03-02', 2]])
    const byModel = (await client.get(`/api/usage?${range}&by=model`)).body
    expect(byModel.rows.map((r: { key: string; calls: number }) => [r.key, r.calls])).toEqual([['openai/gpt-4.1', 3], ['openai/gpt-4o', 1]])
    const byUser = (await client.get(`/api/usage?${range}&by=user`)).body
    expect(byUser.rows.map((r: { key: string; label: string | null; calls: number }) => [r.key, r.label, r.calls])).toEqual([[userId, org.name, 3], ['removed-member', null, 1]])
    const byGroup = (await client.get(`/api/usage?${range}&by=group`)).body
    expect(byGroup.rows.map((r: { label: string | null; calls: number }) => [r.label, r.calls])).toEqual([['Alpha', 3], ['Beta', 3], [null, 1]])
    expect(byGroup.total.calls).toBe(4)
  }, 30_000)

  test('bad ranges are refused; members and other organisations see nothing of it', async () => {
    const { client, orgId, userId } = await setup()
    await recordUsage(t.deps, { organizationId: orgId, userId, threadId: null, modelRef: 'openai/gpt-4.1', kind: 'chat', inputTokens: 1, outputTokens: 1, estimated: false, cost: 1, at: new Date('2026-05-05T00:00:00Z') })
    for (const [query, field] of [
      ['from=2026-05-10&to=2026-05-01', 'to'],
      ['from=2025-01-01&to=2026-01-02', 'to'],
      ['from=yesterday&to=2026-05-01', 'from'],
      ['from=2026-05-01', 'to'],
      ['from=2026-05-01&to=2026-05-02&by=week', 'by'],
    ]) {
      const res = await client.get(`/api/usage?${query}`)
      expect({ query, status: res.status, code: res.body.code, field: Boolean(res.body.fields?.[field!]) }).toEqual({ query, status: 400, code: 'VALIDATION_FAILED', field: true })
    }
    // A whole year (a leap year's 366 days) is fine.
    expect((await client.get('/api/usage?from=2028-01-01&to=2028-12-31')).status).toBe(200)
    const other = t.client()
    await registerOrg(other)
    expect((await other.get('/api/usage?from=2026-05-01&to=2026-05-31')).body.total.calls).toBe(0)
    const { client: member } = await joinAsMember(t, client)
    expect((await member.get('/api/usage?from=2026-05-01&to=2026-05-31')).status).toBe(403)
  }, 30_000)
})

describe('GET /api/usage.csv and GET /api/usage/own', () => {
  async function spendOf(orgId: string, userId: string, day: string, modelRef = 'openai/gpt-4.1') {
    await recordUsage(t.deps, { organizationId: orgId, userId, threadId: null, modelRef, kind: 'chat', inputTokens: 100, outputTokens: 10, estimated: false, cost: 0.25, at: new Date(`${day}T12:00:00Z`) })
  }

  test('the CSV holds the same rows and total as the report, names that look like formulas defused', async () => {
    const { client, orgId, userId } = await setup()
    const g = (await client.post('/api/groups', { name: '=Sales, North' })).body
    await client.post(`/api/groups/${g.id}/members`, { userIds: [userId] })
    await spendOf(orgId, userId, '2026-06-01')
    await spendOf(orgId, userId, '2026-06-02', 'openai/gpt-4o')
    await spendOf(orgId, 'removed-member', '2026-06-02')
    const res = await t.app.request('/api/usage.csv?from=2026-06-01&to=2026-06-30&by=group', { headers: { cookie: client.cookieHeader() } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/csv')
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="usage-group-2026-06-01-2026-06-30.csv"')
    expect((await res.text()).split('\r\n')).toEqual([
      'group_id,name,calls,estimated_calls,input_tokens,output_tokens,cost_usd',
      `${g.id},"'=Sales, North",2,0,200,20,0.5`,
      ',,1,0,100,10,0.25',
      'total,,3,0,300,30,0.75',
      '',
    ])
    const byDay = await (await t.app.request('/api/usage.csv?from=2026-06-01&to=2026-06-30', { headers: { cookie: client.cookieHeader() } })).text()
    expect(byDay.split('\r\n').slice(1, 3)).toEqual(['2026-06-01,,1,0,100,10,0.25', '2026-06-02,,2,0,200,20,0.5'])
    const bad = await client.get('/api/usage.csv?from=2026-06-30&to=2026-06-01')
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED', fields: { to: expect.any(String) } })
  }, 30_000)

  test("a member sees their own usage only, by day and by model; never another member's or organisation's", async () => {
    const { client, orgId, userId } = await setup()
    const { client: member, id: memberId } = await joinAsMember(t, client)
    await spendOf(orgId, memberId, '2026-07-01')
    await spendOf(orgId, memberId, '2026-07-03', 'openai/gpt-4o')
    await spendOf(orgId, userId, '2026-07-01')
    const other = t.client()
    const otherOrg = await registerOrg(other)
    await spendOf(otherOrg.user.organization.id, memberId, '2026-07-02')

    const byDay = (await member.get('/api/usage/own?from=2026-07-01&to=2026-07-31')).body
    expect(byDay.rows.map((r: { key: string; calls: number }) => [r.key, r.calls])).toEqual([['2026-07-01', 1], ['2026-07-03', 1]])
    expect(byDay.total).toEqual({ calls: 2, estimatedCalls: 0, inputTokens: 200, outputTokens: 20, cost: 0.5 })
    const byModel = (await member.get('/api/usage/own?from=2026-07-01&to=2026-07-31&by=model')).body
    expect(byModel.rows.map((r: { key: string }) => r.key)).toEqual(['openai/gpt-4.1', 'openai/gpt-4o'])
    expect((await client.get('/api/usage/own?from=2026-07-01&to=2026-07-31')).body.total.calls).toBe(1)
    for (const [query, field] of [
      ['from=2026-07-31&to=2026-07-01', 'to'],
      ['from=2026-07-01&to=2026-07-31&by=user', 'by'],
      ['from=2026-07-01&to=2027-08-01', 'to'],
    ]) {
      const res = await member.get(`/api/usage/own?${query}`)
      expect({ query, status: res.status, field: Boolean(res.body.fields?.[field!]) }).toEqual({ query, status: 400, field: true })
    }
  }, 30_000)
})
