import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { subscriptions, webhookDeliveries } from '../../../db/schema'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { readSse } from '../../../tests/support/sse'
import { BASE_URL, createTestApp, registerOrg, type TestClient } from '../../../tests/support/test-app'
import { deliverDueWebhooks, signWebhook } from './webhooks'

const SECRET = 'webhook-secret'
type Received = { headers: Record<string, string>; body: string }
const received: Received[] = []
let receiverMode: 'ok' | 'fail' | 'hang' = 'ok'
const receiver = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(req) {
    const body = await req.text()
    if (receiverMode === 'hang') await Bun.sleep(2000)
    if (receiverMode !== 'ok') return new Response('down', { status: 500 })
    received.push({ headers: Object.fromEntries(req.headers), body })
    return new Response('ok')
  },
})

let fake: FakeLlm
let cloud: Awaited<ReturnType<typeof createTestApp>>
let selfHosted: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  fake = await startFakeLlm()
  ;[cloud, selfHosted] = await Promise.all([
    createTestApp({
      env: {
        KONTOR_CLOUD: 'true',
        KONTOR_TRIAL_MESSAGES: '2',
        KONTOR_PRICE_PER_SEAT_MONTHLY: '1250',
        KONTOR_BILLING_WEBHOOK_URL: `http://127.0.0.1:${receiver.port}/hook`,
        KONTOR_BILLING_WEBHOOK_SECRET: SECRET,
        OPENAI_API_KEY: 'sk',
        OPENAI_BASE_URL: `${fake.url}/v1`,
      },
    }),
    createTestApp(),
  ])
})
afterAll(async () => {
  await Promise.all([cloud.close(), selfHosted.close()])
  fake.close()
  receiver.stop(true)
})
beforeEach(() => {
  receiverMode = 'ok'
})

const billing = { companyName: 'Acme GmbH', subText: 'Accounting', street: 'Hauptstraße', houseNumber: '1a', postalCode: '10115', city: 'Berlin', country: 'Germany', vatNumber: 'DE123456789' }

async function cloudAdmin() {
  const client = cloud.client()
  const org = await registerOrg(client, { email: `admin-${crypto.randomUUID().slice(0, 8)}@acme-corp.test` })
  return { client, org }
}

describe('self-hosted', () => {
  test('no subscription is used: active is true, management says so', async () => {
    const client = selfHosted.client()
    await registerOrg(client)
    expect((await client.get('/api/subscriptions/active')).body).toEqual({ hasActiveSubscription: true, trialMessagesLeft: null })
    const res = await client.get('/api/subscriptions')
    expect(res.status).toBe(404)
    expect(res.body.code).toBe('SUBSCRIPTIONS_NOT_USED')
    expect((await client.post('/api/subscriptions', { ...billing, noOfSeats: 5 })).body.code).toBe('SUBSCRIPTIONS_NOT_USED')
  })
})

describe('subscription lifecycle (cloud)', () => {
  test('none at first; create once with billing details; price and totals explained', async () => {
    const { client } = await cloudAdmin()
    const none = await client.get('/api/subscriptions')
    expect(none.status).toBe(404)
    expect(none.body).toEqual({ code: 'SUBSCRIPTION_NOT_FOUND', message: 'Subscription not found', status: 404 })
    expect((await client.get('/api/subscriptions/active')).body.hasActiveSubscription).toBe(false)
    expect((await client.get('/api/subscriptions/price')).body).toEqual({ pricePerSeatMonthlyCents: 1250, currency: 'EUR', billingInterval: 'yearly', paymentMethod: 'invoice' })

    const created = await client.post('/api/subscriptions', { ...billing, noOfSeats: 3 })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ status: 'active', seats: 3, usedSeats: 1, availableSeats: 2, yearlyTotalCents: 3 * 1250 * 12, cancelledAt: null, billingInfo: billing })
    const started = new Date(created.body.startedAt)
    expect(new Date(created.body.nextRenewalAt).getUTCFullYear()).toBe(started.getUTCFullYear() + 1)
    expect((await client.get('/api/subscriptions/active')).body.hasActiveSubscription).toBe(true)
    const twice = await client.post('/api/subscriptions', { ...billing, noOfSeats: 3 })
    expect(twice.body).toEqual({ code: 'SUBSCRIPTION_EXISTS', message: 'Subscription already exists', status: 409 })
  })

  test('concurrent creates make exactly one subscription', async () => {
    const { client, org } = await cloudAdmin()
    const results = await Promise.all([1, 2, 3].map(() => client.post('/api/subscriptions', { ...billing, noOfSeats: 2 })))
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409])
    expect(await cloud.deps.db.query.subscriptions.findMany({ where: eq(subscriptions.organizationId, org.user.organization.id) })).toHaveLength(1)
  })

  test('required billing fields and seat counts are validated', async () => {
    const { client } = await cloudAdmin()
    const empty = await client.post('/api/subscriptions', {})
    expect(empty.body.code).toBe('VALIDATION_FAILED')
    expect(empty.body.fields).toMatchObject({ companyName: expect.any(String), street: expect.any(String), houseNumber: expect.any(String), postalCode: expect.any(String), city: expect.any(String), country: expect.any(String), noOfSeats: expect.any(String) })
    expect(empty.body.fields.vatNumber).toBeUndefined()
    const blank = await client.post('/api/subscriptions', { ...billing, companyName: '  ', noOfSeats: 1 })
    expect(blank.body.fields).toEqual({ companyName: 'Company name is required' })
    for (const noOfSeats of [-1, 0, 1.5, 10_001, 'many']) {
      const res = await client.post('/api/subscriptions', { ...billing, noOfSeats })
      expect({ noOfSeats, code: res.body.code, field: Boolean(res.body.fields?.noOfSeats) }).toEqual({ noOfSeats, code: 'VALIDATION_FAILED', field: true })
    }
  })

  test('seats: never below the seats in use; more seats make room for invites', async () => {
    const { client } = await cloudAdmin()
    expect((await client.post('/api/invites', { email: 'x@acme-corp.test', role: 'user' })).body.code).toBe('INVITE_NOT_POSSIBLE')
    await client.post('/api/subscriptions', { ...billing, noOfSeats: 2 })
    expect((await client.post('/api/invites', { email: 'one@acme-corp.test', role: 'user' })).status).toBe(201)
    expect((await client.post('/api/invites', { email: 'two@acme-corp.test', role: 'user' })).body.code).toBe('INVITE_NOT_POSSIBLE')
    const below = await client.put('/api/subscriptions/seats', { noOfSeats: 1 })
    expect(below.body).toEqual({ code: 'TOO_MANY_USED_SEATS', message: 'Too many used seats', status: 409 })
    const more = await client.put('/api/subscriptions/seats', { noOfSeats: 5 })
    expect(more.body).toMatchObject({ seats: 5, usedSeats: 2, availableSeats: 3 })
    expect((await client.post('/api/invites', { email: 'two@acme-corp.test', role: 'user' })).status).toBe(201)
  })

  test('cancel keeps it usable until the renewal date; uncancel restores it; changes only while active', async () => {
    const { client } = await cloudAdmin()
    const created = (await client.post('/api/subscriptions', { ...billing, noOfSeats: 2 })).body
    const cancelled = await client.delete('/api/subscriptions')
    expect(cancelled.body).toMatchObject({ status: 'cancelled', nextRenewalAt: created.nextRenewalAt })
    expect(Date.parse(cancelled.body.cancelledAt)).toBeGreaterThan(Date.now() - 60_000)
    expect((await client.get('/api/subscriptions/active')).body.hasActiveSubscription).toBe(true)
    expect((await client.delete('/api/subscriptions')).body).toEqual({ code: 'SUBSCRIPTION_ALREADY_CANCELLED', message: 'Subscription already cancelled', status: 409 })
    expect((await client.put('/api/subscriptions/seats', { noOfSeats: 3 })).body.code).toBe('SUBSCRIPTION_NOT_ACTIVE')
    expect((await client.put('/api/subscriptions/billing-info', billing)).body.code).toBe('SUBSCRIPTION_NOT_ACTIVE')
    const back = await client.post('/api/subscriptions/uncancel')
    expect(back.body).toMatchObject({ status: 'active', cancelledAt: null })
    expect((await client.post('/api/subscriptions/uncancel')).body.code).toBe('SUBSCRIPTION_NOT_CANCELLED')
    const info = await client.put('/api/subscriptions/billing-info', { ...billing, city: 'Hamburg', vatNumber: '' })
    expect(info.body.billingInfo).toMatchObject({ city: 'Hamburg', vatNumber: null })
  })

  test('after its end date a cancelled subscription lapses: no subscription, no uncancel, subscribe again', async () => {
    const { client, org } = await cloudAdmin()
    await client.post('/api/subscriptions', { ...billing, noOfSeats: 2 })
    await client.delete('/api/subscriptions')
    await cloud.deps.db.update(subscriptions).set({ nextRenewalAt: new Date(Date.now() - 1000) }).where(eq(subscriptions.organizationId, org.user.organization.id))
    expect((await client.get('/api/subscriptions')).body.code).toBe('SUBSCRIPTION_NOT_FOUND')
    expect((await client.get('/api/subscriptions/active')).body.hasActiveSubscription).toBe(false)
    expect((await client.post('/api/subscriptions/uncancel')).body.code).toBe('SUBSCRIPTION_LAPSED')
    expect((await client.post('/api/subscriptions', { ...billing, noOfSeats: 1 })).status).toBe(201)
  })

  test('members may read active and price but not manage the subscription', async () => {
    const { client } = await cloudAdmin()
    await client.post('/api/subscriptions', { ...billing, noOfSeats: 2 })
    const invite = await client.post('/api/invites', { email: `m-${crypto.randomUUID().slice(0, 6)}@acme-corp.test`, role: 'user' })
    const member = cloud.client()
    await member.post('/api/invites/accept', { token: new URL(invite.body.acceptUrl).searchParams.get('token'), name: 'M', password: 'Secret123', passwordConfirmation: 'Secret123' })
    expect((await member.get('/api/subscriptions/active')).status).toBe(200)
    expect((await member.get('/api/subscriptions/price')).status).toBe(200)
    for (const res of [await member.get('/api/subscriptions'), await member.delete('/api/subscriptions'), await member.put('/api/subscriptions/seats', { noOfSeats: 9 })]) {
      expect(res.status).toBe(403)
    }
  })
})

describe('trial', () => {
  async function chatClient(client: TestClient) {
    await client.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
    await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
    const thread = (await client.post('/api/threads', {})).body
    const cookie = client.cookieHeader()
    return (content: string) =>
      cloud.app.request(`/api/threads/${thread.id}/messages`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, origin: BASE_URL }, body: JSON.stringify({ content }) })
  }

  test('without a subscription a cloud organisation has KONTOR_TRIAL_MESSAGES messages, then needs to upgrade', async () => {
    const { client } = await cloudAdmin()
    const send = await chatClient(client)
    const left = async () => (await client.get('/api/subscriptions/active')).body
    expect(await left()).toEqual({ hasActiveSubscription: false, trialMessagesLeft: 2 })
    for (let i = 0; i < 2; i++) {
      expect((await readSse(await send(`message ${i}`))).at(-1)!.data.status).toBe('complete')
      expect((await left()).trialMessagesLeft).toBe(1 - i)
    }
    const refused = await send('one more')
    expect(refused.status).toBe(402)
    expect(await refused.json()).toEqual({ code: 'SUBSCRIPTION_REQUIRED', message: 'You need to upgrade to a paid plan to use this feature.', status: 402 })
    expect((await left()).trialMessagesLeft).toBe(0)
    await client.post('/api/subscriptions', { ...billing, noOfSeats: 1 })
    expect(await left()).toEqual({ hasActiveSubscription: true, trialMessagesLeft: null })
    expect((await readSse(await send('now paid'))).at(-1)!.data.status).toBe('complete')
  })

  test('a refused send does not use up a trial message', async () => {
    const { client } = await cloudAdmin()
    const send = await chatClient(client)
    const slow = await send('[[fake:tokens=100]] [[fake:delay=10]] slow')
    expect((await send('while busy')).status).toBe(409) // REPLY_IN_PROGRESS
    expect((await client.get('/api/subscriptions/active')).body.trialMessagesLeft).toBe(1)
    await readSse(slow)
    expect((await readSse(await send('second'))).at(-1)!.data.status).toBe('complete')
  })
})

describe('billing webhooks', () => {
  test('every change is signed and delivered; a receiver that is down gets it later, nothing lost', async () => {
    const { client, org } = await cloudAdmin()
    const orgId = org.user.organization.id
    // Each change tries to deliver at once, in the background: wait until that attempt is over.
    const settled = async () => {
      for (let i = 0; i < 200; i++) {
        const rows = await cloud.deps.db.query.webhookDeliveries.findMany({ where: eq(webhookDeliveries.organizationId, orgId) })
        if (rows.every((r) => r.lockedUntil === null && (r.attempts > 0 || r.status === 'delivered'))) return
        await Bun.sleep(20)
      }
    }
    received.length = 0
    await client.post('/api/subscriptions', { ...billing, noOfSeats: 2 })
    await settled()
    receiverMode = 'fail'
    await client.put('/api/subscriptions/seats', { noOfSeats: 4 })
    await settled()
    receiverMode = 'hang'
    await client.put('/api/subscriptions/billing-info', { ...billing, city: 'Köln' })
    await settled()
    let log = (await client.get('/api/subscriptions/webhook-deliveries')).body
    expect(log.map((d: { event: string; status: string }) => `${d.event}:${d.status}`)).toEqual(['billing_info_updated:pending', 'seats_updated:pending', 'created:delivered'])
    expect(log[1]).toMatchObject({ lastStatus: 500 })
    expect(log[1].attempts).toBeGreaterThanOrEqual(1)

    // Later, with the receiver back, the retries go through (time moved past the backoff).
    receiverMode = 'ok'
    await client.delete('/api/subscriptions')
    await client.post('/api/subscriptions/uncancel')
    await settled()
    await deliverDueWebhooks(cloud.deps, { now: new Date(Date.now() + 2 * 60 * 60_000) })
    log = (await client.get('/api/subscriptions/webhook-deliveries')).body
    expect(log.every((d: { status: string }) => d.status === 'delivered')).toBe(true)
    const events = received.filter((r) => JSON.parse(r.body).organizationId === orgId).map((r) => JSON.parse(r.body).event)
    expect(events.sort()).toEqual(['billing_info_updated', 'cancelled', 'created', 'seats_updated', 'uncancelled'])

    for (const r of received) {
      const expected = await signWebhook(SECRET, Number(r.headers['x-kontor-timestamp']), r.body)
      expect(r.headers['x-kontor-signature']).toBe(expected)
    }
    const rows = await cloud.deps.db.query.webhookDeliveries.findMany({ where: eq(webhookDeliveries.organizationId, orgId) })
    expect(rows).toHaveLength(5)
  })

  test('two processes delivering at once send each event once', async () => {
    const { client, org } = await cloudAdmin()
    receiverMode = 'fail'
    await client.post('/api/subscriptions', { ...billing, noOfSeats: 2 })
    // The change tries to deliver at once, in the background: let that attempt fail before the receiver is back.
    const orgId = org.user.organization.id
    for (let i = 0; i < 500; i++) {
      const rows = await cloud.deps.db.query.webhookDeliveries.findMany({ where: eq(webhookDeliveries.organizationId, orgId) })
      if (rows.length > 0 && rows.every((r) => r.lockedUntil === null && r.attempts > 0)) break
      await Bun.sleep(20)
    }
    receiverMode = 'ok'
    received.length = 0
    const later = { now: new Date(Date.now() + 2 * 60 * 60_000) }
    await Promise.all([deliverDueWebhooks(cloud.deps, later), deliverDueWebhooks(cloud.deps, later)])
    expect(received.filter((r) => JSON.parse(r.body).organizationId === orgId)).toHaveLength(1)
  })
})
