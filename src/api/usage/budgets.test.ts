import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { readSse } from '../../../tests/support/sse'
import { BASE_URL, createTestApp, enableOpenAiModels, joinAsMember, registerConfirmedOrg, registerOrg, type TestClient } from '../../../tests/support/test-app'
import { recordUsage } from './access'
import { monthOf } from './budget-check'

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
/** With an SMTP sink, for the admins' e-mails. */
let mailing: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  fake = await startFakeLlm()
  const env = { OPENAI_API_KEY: 'sk-budgets', OPENAI_BASE_URL: `${fake.url}/v1` }
  ;[t, mailing] = await Promise.all([createTestApp({ env }), createTestApp({ smtp: true, env })])
})
afterAll(async () => {
  await Promise.all([t.close(), mailing.close()])
  fake.close()
})
beforeEach(() => fake.reset())

const resetsOn = monthOf(new Date()).next

async function setup() {
  const admin = t.client()
  const org = await registerOrg(admin, { locale: 'en' })
  await enableOpenAiModels(admin, ['openai/gpt-4.1'])
  const member = await joinAsMember(t, admin)
  return { admin, org, orgId: org.user.organization.id as string, adminId: org.user.id as string, member }
}

/** Spends `tokens` (input) and `cost` today for a member, as one recorded call. */
const spend = (orgId: string, userId: string, tokens: number, cost = 0, app = t) =>
  recordUsage(app.deps, { organizationId: orgId, userId, threadId: null, modelRef: 'openai/gpt-4.1', kind: 'chat', inputTokens: tokens, outputTokens: 0, estimated: false, cost })

async function send(client: TestClient, content = 'Hello there', app = t) {
  const thread = (await client.post('/api/threads', {})).body as { id: string }
  const res = await app.app.request(`/api/threads/${thread.id}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: client.cookieHeader(), origin: BASE_URL },
    body: JSON.stringify({ content }),
  })
  if (res.status !== 200) return { status: res.status, body: await res.json(), events: [], thread }
  return { status: 200, body: null, events: await readSse(res), thread }
}

describe('setting budgets', () => {
  test('admins set, replace and remove budgets of the organisation, a group and a member; each change is in the audit log', async () => {
    const { admin, member } = await setup()
    const group = (await admin.post('/api/groups', { name: 'Sales' })).body
    expect((await admin.put('/api/budgets', { scope: 'organization', metric: 'cost', limit: 100 })).body).toMatchObject({ scope: 'organization', label: null, metric: 'cost', limit: 100, spent: 0, resetsOn })
    expect((await admin.put('/api/budgets', { scope: 'group', targetId: group.id, metric: 'tokens', limit: 50_000 })).body).toMatchObject({ label: 'Sales', limit: 50_000 })
    const own = (await admin.put('/api/budgets', { scope: 'user', targetId: member.id, metric: 'cost', limit: 5 })).body
    expect(own).toMatchObject({ label: 'Mia Member' })
    // A second budget for the same target replaces the first.
    expect((await admin.put('/api/budgets', { scope: 'user', targetId: member.id, metric: 'tokens', limit: 1000 })).body).toMatchObject({ id: own.id, metric: 'tokens', limit: 1000 })
    const list = (await admin.get('/api/budgets')).body
    expect(list.map((b: { scope: string; label: string | null }) => [b.scope, b.label])).toEqual([['organization', null], ['group', 'Sales'], ['user', 'Mia Member']])
    expect((await admin.delete(`/api/budgets/${own.id}`)).status).toBe(204)
    expect((await admin.delete(`/api/budgets/${own.id}`)).body.code).toBe('BUDGET_NOT_FOUND')
    const log = (await admin.get('/api/audit-log?action=budget.set')).body.entries
    expect(log).toHaveLength(4)
    expect(log[0]).toMatchObject({ target: { type: 'user', id: member.id, label: 'Mia Member' }, details: { from: '5 cost', to: '1000 tokens' } })
    expect((await admin.get('/api/audit-log?action=budget.removed')).body.entries).toHaveLength(1)
  }, 30_000)

  test('bad input changes nothing: negative, zero, absurd or fractional-token limits, unknown metric, missing or foreign targets', async () => {
    const { admin } = await setup()
    const other = t.client()
    await registerOrg(other)
    const foreignGroup = (await other.post('/api/groups', { name: 'Theirs' })).body
    const foreignMember = (await other.get('/api/auth/me')).body
    for (const [body, field] of [
      [{ scope: 'organization', metric: 'cost', limit: -1 }, 'limit'],
      [{ scope: 'organization', metric: 'cost', limit: 0 }, 'limit'],
      [{ scope: 'organization', metric: 'cost', limit: 'ten' }, 'limit'],
      [{ scope: 'organization', metric: 'cost', limit: 1e10 }, 'limit'],
      [{ scope: 'organization', metric: 'tokens', limit: 10.5 }, 'limit'],
      [{ scope: 'organization', metric: 'euros', limit: 10 }, 'metric'],
      [{ scope: 'team', metric: 'cost', limit: 10 }, 'scope'],
      [{ scope: 'group', metric: 'cost', limit: 10 }, 'targetId'],
      [{ scope: 'group', targetId: foreignGroup.id, metric: 'cost', limit: 10 }, 'targetId'],
      [{ scope: 'user', targetId: foreignMember.id, metric: 'cost', limit: 10 }, 'targetId'],
    ] as const) {
      const res = await admin.put('/api/budgets', body)
      expect({ body, status: res.status, code: res.body.code, field: Boolean(res.body.fields?.[field]) }).toEqual({ body, status: 400, code: 'VALIDATION_FAILED', field: true })
    }
    expect((await admin.get('/api/budgets')).body).toEqual([])
    expect((await admin.get('/api/audit-log?action=budget.set')).body.entries).toEqual([])
  }, 30_000)
})

describe("a member's own budgets", () => {
  test("a member sees the budgets that apply to them with this month's spend, tightest first; not a colleague's, not another organisation's", async () => {
    const { admin, orgId, adminId, member } = await setup()
    const colleague = await joinAsMember(t, admin, 'user', 'Cleo Colleague')
    const group = (await admin.post('/api/groups', { name: 'Sales' })).body
    expect((await admin.post(`/api/groups/${group.id}/members`, { userIds: [member.id] })).status).toBe(200)
    await admin.put('/api/budgets', { scope: 'organization', metric: 'cost', limit: 100 })
    await admin.put('/api/budgets', { scope: 'group', targetId: group.id, metric: 'tokens', limit: 10_000 })
    await admin.put('/api/budgets', { scope: 'user', targetId: member.id, metric: 'cost', limit: 10 })
    await admin.put('/api/budgets', { scope: 'user', targetId: colleague.id, metric: 'cost', limit: 1 })
    await spend(orgId, member.id, 9_000, 2)
    await spend(orgId, adminId, 500, 3)
    const own = await member.client.get('/api/budgets/own')
    expect(own.status).toBe(200)
    expect(own.body.map((b: { scope: string; label: string | null; metric: string; limit: number; spent: number }) => [b.scope, b.label, b.metric, b.limit, b.spent])).toEqual([
      ['group', 'Sales', 'tokens', 10_000, 9_000],
      ['user', null, 'cost', 10, 2],
      ['organization', null, 'cost', 100, 5],
    ])
    for (const b of own.body) expect(b.resetsOn).toBe(resetsOn)
    // The admin is in no group and has no budget of their own: the organisation's only.
    expect((await admin.get('/api/budgets/own')).body.map((b: { scope: string }) => b.scope)).toEqual(['organization'])
    const stranger = t.client()
    await registerOrg(stranger)
    expect((await stranger.get('/api/budgets/own')).body).toEqual([])
  }, 30_000)
})

describe('enforcing budgets', () => {
  test('a budget used up refuses sending at each level, naming the limit and when it resets; the tightest applies', async () => {
    const { admin, orgId, member } = await setup()
    const group = (await admin.post('/api/groups', { name: 'Sales' })).body
    await admin.post(`/api/groups/${group.id}/members`, { userIds: [member.id] })
    await admin.put('/api/budgets', { scope: 'organization', metric: 'cost', limit: 100 })
    await admin.put('/api/budgets', { scope: 'user', targetId: member.id, metric: 'tokens', limit: 1_000_000 })
    const groupBudget = (await admin.put('/api/budgets', { scope: 'group', targetId: group.id, metric: 'tokens', limit: 1000 })).body
    await spend(orgId, member.id, 1000)

    // The group's 1,000 tokens are the tightest: the member's own million does not help.
    const refused = await send(member.client)
    expect(refused.status).toBe(429)
    expect(refused.body).toMatchObject({
      code: 'BUDGET_EXCEEDED',
      message: `The monthly budget of the group “Sales” (1,000 tokens) is used up. It resets on ${resetsOn} (UTC).`,
      details: { scope: 'group', group: 'Sales', metric: 'tokens', limit: 1000, resetsOn },
    })
    expect(fake.requests).toHaveLength(0)
    // Nothing was stored of the refused message.
    expect((await member.client.get(`/api/threads/${refused.thread.id}`)).body).toMatchObject({ messages: [] })
    // The admin is in no group: only the organisation's budget applies to them.
    expect((await send(admin)).status).toBe(200)

    // The member's own budget, then the organisation's.
    await admin.delete(`/api/budgets/${groupBudget.id}`)
    await admin.put('/api/budgets', { scope: 'user', targetId: member.id, metric: 'tokens', limit: 500 })
    expect((await send(member.client)).body).toMatchObject({ code: 'BUDGET_EXCEEDED', details: { scope: 'user', limit: 500 } })
    await admin.put('/api/budgets', { scope: 'user', targetId: member.id, metric: 'tokens', limit: 1_000_000 })
    await spend(orgId, member.id, 10, 100)
    const org = await send(admin)
    expect(org.body).toMatchObject({ code: 'BUDGET_EXCEEDED', details: { scope: 'organization', metric: 'cost', limitText: '$100.00' } })
    expect(org.body.message).toBe(`Your organisation's monthly budget ($100.00) is used up. It resets on ${resetsOn} (UTC).`)
  }, 60_000)

  test('regenerating and the /v1 API are refused too, the API in OpenAI\'s error format', async () => {
    const { admin, orgId, adminId } = await setup()
    const sent = await send(admin)
    expect(sent.status).toBe(200)
    await admin.put('/api/budgets', { scope: 'user', targetId: adminId, metric: 'cost', limit: 1 })
    await spend(orgId, adminId, 0, 1)
    const regenerate = await t.app.request(`/api/threads/${sent.thread.id}/regenerate`, { method: 'POST', headers: { cookie: admin.cookieHeader(), origin: BASE_URL } })
    expect(regenerate.status).toBe(429)
    expect((await regenerate.json()).code).toBe('BUDGET_EXCEEDED')

    const key = (await admin.post('/api/api-keys', { name: 'Budget' })).body.key
    const api = await t.app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4.1', messages: [{ role: 'user', content: 'Hi' }] }),
    })
    expect(api.status).toBe(429)
    expect(await api.json()).toEqual({
      error: { type: 'insufficient_quota', code: 'budget_exceeded', param: null, message: `Your monthly budget ($1.00) is used up. It resets on ${resetsOn} (UTC).` },
    })
  }, 30_000)

  test('from 80% the chat stream carries a notice with the tightest budget', async () => {
    const { admin, orgId, member } = await setup()
    await admin.put('/api/budgets', { scope: 'user', targetId: member.id, metric: 'tokens', limit: 10_000 })
    await spend(orgId, member.id, 7000)
    expect((await send(member.client)).events.some((e) => e.event === 'budget_notice')).toBe(false)
    await spend(orgId, member.id, 1500)
    const { events } = await send(member.client)
    expect(events.find((e) => e.event === 'budget_notice')?.data).toEqual({ scope: 'user', group: null, metric: 'tokens', limit: 10_000, spent: expect.any(Number) })
    expect(events.at(-1)).toMatchObject({ event: 'message_end', data: { status: 'complete' } })
  }, 30_000)

  test("the admins get one e-mail at 80% and one at 100% of the organisation's budget a month", async () => {
    const admin = mailing.client()
    const org = await registerConfirmedOrg(mailing, admin, { locale: 'en' })
    await enableOpenAiModels(admin, ['openai/gpt-4.1'])
    const orgId = org.user.organization.id as string
    const adminId = org.user.id as string
    const inbox = () => mailing.sink!.mails.filter((m) => m.to.includes(org.email.toLowerCase()) && m.subject.includes('budget'))
    await admin.put('/api/budgets', { scope: 'organization', metric: 'cost', limit: 10 })
    await spend(orgId, adminId, 0, 7, mailing)
    expect((await send(admin, 'Hi', mailing)).status).toBe(200)
    expect(inbox()).toEqual([])
    await spend(orgId, adminId, 0, 1.5, mailing)
    expect((await send(admin, 'Hi', mailing)).status).toBe(200)
    expect((await send(admin, 'Hi', mailing)).status).toBe(200)
    const eighty = await mailing.sink!.waitForMail(org.email, (m) => m.subject.includes('80%'))
    expect(eighty.subject).toBe("80% of your organisation's monthly budget is used")
    expect(eighty.text).toContain('($10.00)')
    expect(eighty.text).toContain(`${BASE_URL}/admin-settings/usage`)
    await spend(orgId, adminId, 0, 2, mailing)
    expect((await send(admin, 'Hi', mailing)).status).toBe(429)
    expect((await send(admin, 'Hi', mailing)).status).toBe(429)
    await mailing.sink!.waitForMail(org.email, (m) => m.subject.includes('100%'))
    expect(inbox().map((m) => m.subject.slice(0, 4))).toEqual(['80% ', '100%'])
  }, 30_000)

  test('many sends at once at the edge of a budget: one passes, the rest are refused, and the budget is not overshot', async () => {
    const { admin, orgId, member } = await setup()
    await admin.put('/api/budgets', { scope: 'user', targetId: member.id, metric: 'tokens', limit: 1000 })
    // 990 tokens in one call: a running reply reserves an average call (990), so a second one does not fit.
    await spend(orgId, member.id, 990)
    const results = await Promise.all(Array.from({ length: 8 }, () => send(member.client)))
    expect(results.map((r) => r.status).sort()).toEqual([200, 429, 429, 429, 429, 429, 429, 429])
    expect(fake.requests.filter((r) => r.body?.stream)).toHaveLength(1)
    // Its reservation ended with the reply.
    expect((await t.deps.db.run('SELECT count(*) AS n FROM budget_reservations')).rows[0]).toMatchObject({ n: 0 })
  }, 60_000)
})
