import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { QueryClient } from '@tanstack/react-query'
import { createTestApp, enableOpenAiModels, registerOrg, type TestClient } from '../../tests/support/test-app'
import { createApiClient } from '../lib/api-client'
import { loadNewChat } from './chat.loader'

// The /chat loader against the real API.
let selfHosted: Awaited<ReturnType<typeof createTestApp>>
const env = { OPENAI_API_KEY: 'sk-loader', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }

beforeAll(async () => {
  selfHosted = await createTestApp({ env })
})
afterAll(async () => {
  await selfHosted.close()
})

/** What the loader gets in the browser: a fresh query cache and the API with the user's cookies. */
function loaderContext(app: typeof selfHosted, client: TestClient) {
  const api = createApiClient((input, init) =>
    Promise.resolve(
      app.app.request(input, {
        ...init,
        headers: { ...(init?.headers as Record<string, string>), cookie: client.cookieHeader() },
      }),
    ),
  )
  return { api, queryClient: new QueryClient({ defaultOptions: { queries: { retry: false } } }) }
}

async function admin(app = selfHosted) {
  const client = app.client()
  await registerOrg(client)
  const [gpt, mini] = await enableOpenAiModels(client, ['openai/gpt-4.1', 'openai/gpt-4.1-mini'])
  return { client, gpt, mini }
}

describe('the /chat loader', () => {
  test('without search parameters: the default model, no embedding model, a subscription (self-hosted), no prompt', async () => {
    const { client, gpt } = await admin()
    const data = await loadNewChat(loaderContext(selfHosted, client), {})
    expect(data).toEqual({ modelId: gpt.id, agent: null, isEmbeddingModelEnabled: false, promptContent: null, promptTitle: null })

    const embedding = (await client.post('/api/models/permitted', { modelId: 'openai/text-embedding-3-small' })).body
    expect((await client.put('/api/models/embedding', { id: embedding.id })).status).toBe(200)
    expect((await loadNewChat(loaderContext(selfHosted, client), {})).isEmbeddingModelEnabled).toBe(true)
  })

  test('the given model (by id or reference) wins over the given agent; an agent alone brings its model', async () => {
    const { client, mini } = await admin()
    const agent = (await client.post('/api/agents', { name: 'Helper', instructions: 'Help.', modelId: mini.id })).body
    const ctx = () => loaderContext(selfHosted, client)
    expect((await loadNewChat(ctx(), { modelId: mini.id })).modelId).toBe(mini.id)
    expect((await loadNewChat(ctx(), { modelId: 'openai/gpt-4.1-mini' })).modelId).toBe(mini.id)
    expect(await loadNewChat(ctx(), { modelId: mini.id, agentId: agent.id })).toMatchObject({ modelId: mini.id, agent: null })
    const withAgent = await loadNewChat(ctx(), { agentId: agent.id })
    expect(withAgent).toMatchObject({ modelId: null, agent: { id: agent.id, name: 'Helper', model: { id: mini.id } } })
  })

  test('unknown models, agents and prompts fall back: the default model, no agent, an empty field', async () => {
    const { client, gpt } = await admin()
    const data = await loadNewChat(loaderContext(selfHosted, client), { modelId: 'nope', agentId: 'gone', prompt: 'missing' })
    expect(data).toMatchObject({ modelId: gpt.id, agent: null, promptContent: null, promptTitle: null })
  })

  test("a saved prompt's content prefills the field", async () => {
    const { client } = await admin()
    const prompt = (await client.post('/api/prompts', { title: 'Proofread', content: 'Proofread this:' })).body
    expect(await loadNewChat(loaderContext(selfHosted, client), { prompt: prompt.id })).toMatchObject({ promptContent: 'Proofread this:', promptTitle: 'Proofread' })
  })
})
