import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { createTestApp, registerOrg, type TestClient } from '../../../tests/support/test-app'

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
let cloud: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  fake = await startFakeLlm({ models: ['llama3.1', 'nomic-embed-text'] })
  const env = {
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: `${fake.url}/v1`,
    MISTRAL_API_KEY: 'mistral-test',
    MISTRAL_BASE_URL: fake.url,
    OLLAMA_BASE_URL: `${fake.url}/v1`,
    OLLAMA_API_KEY: 'ollama',
  }
  // The operator allows the local test server as an endpoint host, as one would allow an internal vLLM.
  ;[t, cloud] = await Promise.all([createTestApp({ env: { ...env, KONTOR_FETCH_ALLOWED_HOSTS: '127.0.0.1' } }), createTestApp({ env: { ...env, KONTOR_CLOUD: 'true' } })])
})
afterAll(async () => {
  await Promise.all([t.close(), cloud.close()])
  fake.close()
})

async function admin() {
  const client = t.client()
  const org = await registerOrg(client)
  return { client, org }
}

const permit = (client: TestClient, providerId: string) =>
  client.post('/api/models/providers/permitted', { providerId, termsAccepted: true })

describe('providers', () => {
  test('lists the providers with credentials, their region and permitted status', async () => {
    const { client } = await admin()
    const res = await client.get('/api/models/providers/all-with-permitted-status')
    expect(res.status).toBe(200)
    expect(res.body.map((p: { id: string }) => p.id)).toEqual(['openai', 'mistral', 'ollama'])
    expect(res.body[1]).toMatchObject({ name: 'Mistral AI', region: 'eu', permitted: false, acceptedAt: null })
  })

  test('permitting records who accepted which terms, once', async () => {
    const { client, org } = await admin()
    const res = await permit(client, 'mistral')
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ id: 'mistral', permitted: true, acceptedByName: org.name, termsVersion: '2025-01' })
    expect(Date.parse(res.body.acceptedAt)).toBeGreaterThan(Date.now() - 60_000)
    const twice = await permit(client, 'mistral')
    expect(twice.status).toBe(409)
    expect(twice.body.code).toBe('PROVIDER_ALREADY_PERMITTED')
  })

  test('terms must be accepted, and unknown or unconfigured providers are refused', async () => {
    const { client } = await admin()
    const noTerms = await client.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: false })
    expect(noTerms.body.fields.termsAccepted).toBeDefined()
    expect((await permit(client, 'anthropic')).body.code).toBe('PROVIDER_NOT_FOUND') // no ANTHROPIC_API_KEY here
    expect((await permit(client, 'nope')).status).toBe(404)
    expect((await client.request('DELETE', '/api/models/providers/permitted', { providerId: 'openai' })).body.code).toBe('PROVIDER_NOT_PERMITTED')
  })
})

describe('models', () => {
  test('the catalogue and a self-hosted endpoint\'s own models are available', async () => {
    const { client } = await admin()
    const res = await client.get('/api/models/available')
    expect(res.status).toBe(200)
    const ids = res.body.models.map((m: { modelId: string }) => m.modelId)
    expect(ids).toContain('openai/gpt-4.1')
    expect(ids).toContain('mistral/mistral-embed')
    expect(ids).toContain('ollama/llama3.1')
    const embed = res.body.models.find((m: { modelId: string }) => m.modelId === 'ollama/nomic-embed-text')
    expect(embed).toMatchObject({ embedding: true, region: 'selfHosted', providerPermitted: false, permittedId: null })
    const gpt = res.body.models.find((m: { modelId: string }) => m.modelId === 'openai/gpt-4.1')
    expect(gpt).toMatchObject({ streaming: true, reasoning: false, contextWindow: 1_047_576, price: { input: 2, output: 8 } })
  })

  test('a model can be permitted only when its provider is', async () => {
    const { client } = await admin()
    const early = await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
    expect(early.status).toBe(409)
    expect(early.body.code).toBe('PROVIDER_NOT_PERMITTED')
    await permit(client, 'openai')
    const ok = await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
    expect(ok.status).toBe(201)
    expect(ok.body).toMatchObject({ modelId: 'openai/gpt-4.1', displayName: 'GPT-4.1', providerName: 'OpenAI' })
    expect((await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })).body.code).toBe('MODEL_ALREADY_PERMITTED')
    expect((await client.post('/api/models/permitted', { modelId: 'openai/gpt-9' })).body.code).toBe('MODEL_NOT_FOUND')
    expect((await client.post('/api/models/permitted', { modelId: 'no-slash' })).body.code).toBe('VALIDATION_FAILED')
  })

  test('default model: the user\'s, else the organisation\'s, else the first permitted, else No model found', async () => {
    const { client } = await admin()
    const none = await client.get('/api/models/default')
    expect(none.status).toBe(404)
    expect(none.body).toEqual({ code: 'NO_MODEL_FOUND', message: 'No model found', status: 404 })
    await permit(client, 'openai')
    const first = (await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })).body
    const second = (await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1-mini' })).body
    expect((await client.get('/api/models/default')).body.id).toBe(first.id)
    expect((await client.put('/api/models/organization/default', { id: second.id })).status).toBe(200)
    expect((await client.get('/api/models/default')).body.id).toBe(second.id)
    expect((await client.put('/api/models/user/default', { id: first.id })).body.model.id).toBe(first.id)
    expect((await client.get('/api/models/default')).body.id).toBe(first.id)
    expect((await client.get('/api/models/user/default')).body.model.id).toBe(first.id)
    expect((await client.delete('/api/models/user/default')).status).toBe(204)
    expect((await client.get('/api/models/user/default')).body).toEqual({ model: null })
    expect((await client.get('/api/models/default')).body.id).toBe(second.id)
  })

  test('unpermitting a provider unpermits its models and clears the defaults pointing at them', async () => {
    const { client } = await admin()
    await permit(client, 'openai')
    await permit(client, 'mistral')
    const gpt = (await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })).body
    const small = (await client.post('/api/models/permitted', { modelId: 'mistral/mistral-small-latest' })).body
    await client.put('/api/models/organization/default', { id: gpt.id })
    await client.put('/api/models/user/default', { id: gpt.id })
    expect((await client.request('DELETE', '/api/models/providers/permitted', { providerId: 'openai' })).status).toBe(204)
    expect((await client.get('/api/models/permitted/language-models')).body.map((m: { id: string }) => m.id)).toEqual([small.id])
    expect((await client.get('/api/models/user/default')).body.model).toBeNull()
    expect((await client.get('/api/models/default')).body.id).toBe(small.id)
    // Permitting the provider again does not bring the models back.
    await permit(client, 'openai')
    expect((await client.get('/api/models/permitted/language-models')).body).toHaveLength(1)
  })

  test('exactly one embedding model: the first permitted becomes it, and it can be switched', async () => {
    const { client } = await admin()
    expect((await client.get('/api/models/embedding/enabled')).body).toEqual({ isEmbeddingModelEnabled: false })
    await permit(client, 'openai')
    await permit(client, 'mistral')
    const a = (await client.post('/api/models/permitted', { modelId: 'openai/text-embedding-3-small' })).body
    const b = (await client.post('/api/models/permitted', { modelId: 'mistral/mistral-embed' })).body
    expect(a.isEmbeddingModel).toBe(true)
    expect(b.isEmbeddingModel).toBe(false)
    expect((await client.get('/api/models/embedding/enabled')).body.isEmbeddingModelEnabled).toBe(true)
    await client.put('/api/models/embedding', { id: b.id })
    const all = (await client.get('/api/models/permitted')).body
    expect(all.filter((m: { isEmbeddingModel: boolean }) => m.isEmbeddingModel).map((m: { id: string }) => m.id)).toEqual([b.id])
    // Embedding models are not chat models.
    expect((await client.get('/api/models/permitted/language-models')).body).toEqual([])
    expect((await client.put('/api/models/user/default', { id: b.id })).body.code).toBe('NOT_A_LANGUAGE_MODEL')
    const chat = (await client.post('/api/models/permitted', { modelId: 'openai/gpt-4o' })).body
    expect((await client.put('/api/models/embedding', { id: chat.id })).body.code).toBe('NOT_AN_EMBEDDING_MODEL')
    await client.delete(`/api/models/permitted/${b.id}`)
    expect((await client.get('/api/models/embedding/enabled')).body.isEmbeddingModelEnabled).toBe(false)
  })

  test('members see the permitted language models and set their own default; admins only change the organisation', async () => {
    const { client } = await admin()
    await permit(client, 'ollama')
    const llama = (await client.post('/api/models/permitted', { modelId: 'ollama/llama3.1' })).body
    const invite = await client.post('/api/invites', { email: `m-${crypto.randomUUID().slice(0, 6)}@acme.test`, role: 'user' })
    const member = t.client()
    await member.post('/api/invites/accept', {
      token: new URL(invite.body.acceptUrl).searchParams.get('token'),
      name: 'Member',
      password: 'Secret123',
      passwordConfirmation: 'Secret123',
    })
    expect((await member.get('/api/models/permitted/language-models')).body.map((m: { modelId: string }) => m.modelId)).toEqual(['ollama/llama3.1'])
    expect((await member.put('/api/models/user/default', { id: llama.id })).status).toBe(200)
    expect((await member.put('/api/models/organization/default', { id: llama.id })).status).toBe(403)
    expect((await member.post('/api/models/permitted', { modelId: 'ollama/llama3.1' })).status).toBe(403)
    expect((await member.get('/api/models/available')).status).toBe(403)
  })

  test("another organisation's models cannot be used or removed", async () => {
    const { client } = await admin()
    await permit(client, 'openai')
    const gpt = (await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })).body
    const other = (await admin()).client
    expect((await other.put('/api/models/user/default', { id: gpt.id })).body.code).toBe('MODEL_NOT_FOUND')
    expect((await other.delete(`/api/models/permitted/${gpt.id}`)).status).toBe(404)
    expect((await client.get('/api/models/permitted/language-models')).body).toHaveLength(1)
  })
})

describe('organisation endpoints', () => {
  test('an own OpenAI-compatible endpoint lists its models; its key is stored encrypted and never returned', async () => {
    const { client } = await admin()
    const res = await client.post('/api/models/endpoints', { name: 'Our vLLM', baseUrl: `${fake.url}/v1`, apiKey: 'very-secret-key' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ id: expect.any(String), providerId: `endpoint-${res.body.id}`, name: 'Our vLLM', baseUrl: `${fake.url}/v1`, hasApiKey: true })
    const stored = await t.deps.db.query.modelEndpoints.findFirst()
    expect(JSON.stringify(stored)).not.toContain('very-secret-key')
    expect(JSON.stringify((await client.get('/api/models/endpoints')).body)).not.toContain('very-secret-key')
    await permit(client, res.body.providerId)
    const model = await client.post('/api/models/permitted', { modelId: `${res.body.providerId}/llama3.1` })
    expect(model.status).toBe(201)
    const seen = fake.requests.filter((r) => r.path === '/v1/models').at(-1)
    expect(seen?.headers.authorization).toBe('Bearer very-secret-key')
    expect((await client.delete(`/api/models/endpoints/${res.body.id}`)).status).toBe(204)
    expect((await client.get('/api/models/permitted/language-models')).body).toEqual([])
  })

  test('an endpoint that does not answer offers no models, and says so', async () => {
    const { client } = await admin()
    const res = await client.post('/api/models/endpoints', { name: 'Down', baseUrl: 'http://127.0.0.1:9/v1' })
    const available = await client.get('/api/models/available')
    expect(available.body.unreachableProviders).toEqual([res.body.providerId])
  })

  test('bad base URLs are refused; private addresses too, in both modes, unless the operator allowed the host', async () => {
    const { client } = await admin()
    expect((await client.post('/api/models/endpoints', { name: 'x', baseUrl: 'ftp://host' })).body.fields.baseUrl).toBeDefined()
    expect((await client.post('/api/models/endpoints', { name: 'x', baseUrl: 'http://u:p@host.example/v1' })).body.code).toBe('INVALID_ENDPOINT_URL')
    const cloudAdmin = cloud.client()
    await registerOrg(cloudAdmin, { email: `c-${crypto.randomUUID().slice(0, 6)}@acme-corp.test` })
    const privateUrls = ['http://127.0.0.1:8000/v1', 'http://10.1.2.3/v1', 'http://169.254.169.254/', 'http://[::1]/v1', 'http://localhost:11434/v1']
    // Every written form: IPv4-mapped IPv6 (hex and dotted), unique local, link-local, unspecified, shared (CGNAT), decimal IPv4.
    privateUrls.push('http://[::ffff:7f00:1]/v1', 'http://[::ffff:127.0.0.1]:8000/v1', 'http://[fc00::1]/v1', 'http://[fe80::1]/v1', 'http://0.0.0.0/v1', 'http://100.64.0.1/v1', 'http://2130706433/v1')
    for (const baseUrl of privateUrls) {
      const res = await cloudAdmin.post('/api/models/endpoints', { name: 'x', baseUrl })
      expect({ baseUrl, code: res.body.code, field: res.body.fields?.baseUrl }).toEqual({ baseUrl, code: 'INVALID_ENDPOINT_URL', field: 'Private addresses are not allowed' })
      // Self-hosted, the operator allowed 127.0.0.1 (also written as 2130706433), and nothing else.
      const own = await client.post('/api/models/endpoints', { name: 'x', baseUrl })
      expect({ baseUrl, status: own.status }).toEqual({ baseUrl, status: new URL(baseUrl).hostname === '127.0.0.1' ? 201 : 400 })
    }
    expect((await cloudAdmin.post('/api/models/endpoints', { name: 'x', baseUrl: 'https://llm.example.com/v1' })).status).toBe(201)
  })
})
