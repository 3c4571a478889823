/**
 * Every outbound caller of the server goes through the guarded client (src/lib/outbound.ts):
 * an organisation's own endpoint (model list, chat, embeddings), the search backend and the
 * billing webhook. Targets are loopback servers only; those that must never be reached record
 * every request, and each test ends by checking they saw none.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { modelEndpoints, webhookDeliveries } from '../../db/schema'
import { processingIdle } from '../../src/api/sources/process'
import { deliverDueWebhooks } from '../../src/api/subscriptions/webhooks'
import { createLocalFileStore } from '../../src/storage/local'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm'
import { readSse } from '../support/sse'
import { BASE_URL, createTestApp, registerOrg, type TestClient } from '../support/test-app'

type TestApp = Awaited<ReturnType<typeof createTestApp>>
let fake: FakeLlm
let t: TestApp
/** Answers every request with a redirect to `localhost`, which nobody allowed (and which any plain fetch would follow). */
let redirector: ReturnType<typeof Bun.serve>
/** The internal service on localhost: it must never see a request. */
let internal: ReturnType<typeof Bun.serve>
const internalHits: string[] = []

/** DNS as the tests set it: names for loopback servers. */
const names = new Map<string, string[]>()

beforeAll(async () => {
  fake = await startFakeLlm({ models: ['llama3.1', 'nomic-embed-text'] })
  internal = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => (internalHits.push(new URL(req.url).pathname), new Response('{"results":[]}')) })
  redirector = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (req) => {
      const url = new URL(req.url)
      return new Response(null, { status: req.method === 'GET' ? 302 : 307, headers: { location: `http://localhost:${internal.port}${url.pathname}${url.search}` } })
    },
  })
  t = await createTestApp({
    env: {
      SEARXNG_URL: `http://127.0.0.1:${redirector.port}`,
      KONTOR_BILLING_WEBHOOK_URL: `http://127.0.0.1:${redirector.port}/webhook`,
    },
  })
  t.deps.resolveHost = async (host) => names.get(host) ?? Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }))
  t.deps.files = createLocalFileStore(join(mkdtempSync(join(tmpdir(), 'kontor-outbound-')), 'files'))
})
afterAll(async () => {
  await processingIdle()
  await t.close()
  fake.close()
  redirector.stop(true)
  internal.stop(true)
})
beforeEach(() => {
  fake.reset()
  internalHits.length = 0
  names.clear()
  names.set('localhost', ['127.0.0.1'])
  t.deps.config.fetchAllowedHosts.length = 0
})

const endpointHits = () => fake.requests.length

/**
 * An organisation whose own endpoint `llm.test` lists and serves models: set up while the
 * operator allowed the name, as for an internal vLLM.
 */
async function orgWithEndpoint(baseUrl = `http://llm.test:${new URL(fake.url).port}/v1`) {
  names.set('llm.test', ['127.0.0.1'])
  t.deps.config.fetchAllowedHosts.push('llm.test')
  const client = t.client()
  await registerOrg(client)
  const endpoint = (await client.post('/api/models/endpoints', { name: 'Own', baseUrl, apiKey: 'sk-own-endpoint' })).body
  expect(endpoint.providerId).toStartWith('endpoint-')
  await client.post('/api/models/providers/permitted', { providerId: endpoint.providerId, termsAccepted: true })
  const chatModel = await client.post('/api/models/permitted', { modelId: `${endpoint.providerId}/llama3.1` })
  const embedModel = await client.post('/api/models/permitted', { modelId: `${endpoint.providerId}/nomic-embed-text` })
  expect([chatModel.status, embedModel.status]).toEqual([201, 201])
  expect((await client.put('/api/models/embedding', { id: embedModel.body.id })).status).toBe(200)
  const thread = (await client.post('/api/threads', { modelId: chatModel.body.id })).body as { id: string }
  fake.reset()
  return { client, endpoint, thread }
}

const send = async (client: TestClient, threadId: string, content: string) =>
  readSse(
    await t.app.request(`/api/threads/${threadId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader(), origin: BASE_URL },
      body: JSON.stringify({ content }),
    }),
  )

async function uploadText(client: TestClient, threadId: string) {
  const form = new FormData()
  form.set('file', new File(['Kontor keeps its requests inside the public internet.'], 'notes.txt', { type: 'text/plain' }))
  const res = await t.app.request(`/api/threads/${threadId}/sources/file`, { method: 'POST', headers: { cookie: client.cookieHeader(), origin: BASE_URL }, body: form })
  expect(res.status).toBe(201)
  await processingIdle()
  return ((await client.get(`/api/threads/${threadId}/sources`)).body as { status: string; error: string | null }[])[0]!
}

describe("an organisation's own endpoint", () => {
  test('a name that resolves to loopback is refused when the endpoint is added, in every disguise', async () => {
    const client = t.client()
    await registerOrg(client)
    names.set('llm.test', ['127.0.0.1'])
    names.set('mapped.test', ['::ffff:127.0.0.1'])
    names.set('mixed.test', ['93.184.216.34', '127.0.0.1'])
    for (const host of ['llm.test', 'mapped.test', 'mixed.test', '127.0.0.1', '[::1]', 'localhost', '2130706433']) {
      const res = await client.post('/api/models/endpoints', { name: 'x', baseUrl: `http://${host}:${new URL(fake.url).port}/v1` })
      expect({ host, code: res.body.code, field: res.body.fields?.baseUrl }).toEqual({ host, code: 'INVALID_ENDPOINT_URL', field: 'Private addresses are not allowed' })
    }
    expect((await client.post('/api/models/endpoints', { name: 'x', baseUrl: 'http://nowhere.test/v1' })).body.fields.baseUrl).toBe('The host name could not be found')
    expect(endpointHits()).toBe(0)
  })

  test('when its name later resolves to a private address, no request leaves: model list, chat and embeddings', async () => {
    const { client, thread } = await orgWithEndpoint()
    // The operator takes the name off the list (or DNS now answers with an internal address).
    t.deps.config.fetchAllowedHosts.length = 0

    const available = (await client.get('/api/models/available')).body
    expect(available.unreachableProviders).toHaveLength(1)

    const events = await send(client, thread.id, 'Hello')
    expect(events.find((e) => e.event === 'error')?.data).toMatchObject({ code: 'PROVIDER_ADDRESS_REFUSED' })

    const source = await uploadText(client, thread.id)
    expect(source).toMatchObject({ status: 'failed', error: 'PROVIDER_ADDRESS_REFUSED' })
    expect(endpointHits()).toBe(0)
  })

  test('an allowed endpoint that redirects into the private network is not followed, and its key goes nowhere else', async () => {
    names.set('redirector.test', ['127.0.0.1'])
    const { client, thread, endpoint } = await orgWithEndpoint()
    // The endpoint now redirects every request to localhost.
    t.deps.config.fetchAllowedHosts.push('redirector.test')
    await t.deps.db.update(modelEndpoints).set({ baseUrl: `http://redirector.test:${redirector.port}/v1` })
    expect((await client.get('/api/models/available')).body.unreachableProviders).toEqual([endpoint.providerId])
    const events = await send(client, thread.id, 'Hello')
    expect(events.find((e) => e.event === 'error')?.data).toMatchObject({ code: 'PROVIDER_ADDRESS_REFUSED' })
    expect(internalHits).toEqual([])
  })
})

describe('operator-configured services', () => {
  test('the search backend is reached, but its redirect into the private network is not followed', async () => {
    const client = t.client()
    await registerOrg(client)
    // The search tool is called straight through its module, as the tool loop calls it.
    const { internetSearchTool } = await import('../../src/ai/tools/internet-search')
    const error = await internetSearchTool.run({ query: 'kontor' }, { deps: t.deps, signal: new AbortController().signal } as never).then(
      () => 'answered',
      (e: unknown) => String(e),
    )
    expect(error).toContain('The search service could not be reached')
    expect(internalHits).toEqual([])
  })

  test('the billing webhook goes to the operator’s address and never follows a redirect', async () => {
    await t.deps.db.insert(webhookDeliveries).values({ id: crypto.randomUUID(), organizationId: 'org-webhook', event: 'subscription.created', payload: '{}', status: 'pending', attempts: 0, nextAttemptAt: new Date(0), createdAt: new Date() })
    expect(await deliverDueWebhooks(t.deps)).toBe(0)
    const [row] = await t.deps.db.select().from(webhookDeliveries)
    expect(row).toMatchObject({ status: 'pending', lastStatus: 307 })
    expect(internalHits).toEqual([])
  })
})
