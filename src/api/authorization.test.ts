/**
 * The authorisation matrix: every API route called as nobody, as a member (role user), as an
 * admin of the same organisation and as an admin of another organisation. A route added to the
 * API without a row here fails the first test.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { collections, messages, passkeys, sources, threads } from '../../db/schema'
import { loadApiRoutes } from '../app'
import { openAiRoutes } from './openai/routes'
import { startFakeLlm, type FakeLlm } from '../../tests/support/fake-llm'
import { startTestMcpServer } from '../../tests/support/mcp-servers'
import { createTestApp, PASSWORD, registerOrg, type TestClient } from '../../tests/support/test-app'

type Caller = 'anonymous' | 'user' | 'admin' | 'otherAdmin'
type Fixture = Awaited<ReturnType<typeof createFixture>>
type Row = {
  route: string
  /** Resolves the concrete path (and creates what the call consumes). */
  path?: (f: Fixture) => string | Promise<string>
  /** The body sent (a promise when it names what it consumes). */
  body?: (f: Fixture) => unknown
  expect: Record<Caller, number>
  /** The caller holds a secret (an invite token) that entitles them to see what it names. */
  tokenHolder?: boolean
  /** The call ends the session: it gets a client of its own. */
  freshSession?: boolean
}

const ADMIN = { anonymous: 401, user: 403, otherAdmin: 404 }
const ADMIN_LIST = { anonymous: 401, user: 403, otherAdmin: 200 }
const SIGNED_IN = { anonymous: 401 }

const MATRIX: Row[] = [
  { route: 'GET /', expect: { anonymous: 200, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'GET /health', expect: { anonymous: 200, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'GET /ready', expect: { anonymous: 200, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'GET /auth/me', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'POST /auth/logout', freshSession: true, expect: { anonymous: 200, user: 200, admin: 200, otherAdmin: 200 } },
  {
    route: 'POST /auth/login',
    body: () => ({ email: 'nobody@acme.test', password: 'Wrong1234' }),
    expect: { anonymous: 401, user: 401, admin: 401, otherAdmin: 401 },
  },
  {
    route: 'POST /auth/register',
    body: (f) => ({ email: f.admin.email, name: 'X', organizationName: 'Y', password: PASSWORD, passwordConfirmation: PASSWORD, termsAccepted: true }),
    expect: { anonymous: 409, user: 409, admin: 409, otherAdmin: 409 },
  },
  { route: 'POST /users/confirm-email', body: () => ({ token: 'x.y.z' }), expect: { anonymous: 400, user: 400, admin: 400, otherAdmin: 400 } },
  { route: 'POST /users/resend-confirmation', body: () => ({ email: 'nobody@acme.test' }), expect: { anonymous: 200, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'POST /users/forgot-password', body: () => ({ email: 'nobody@acme.test' }), expect: { anonymous: 200, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'POST /users/reset-password', body: () => ({ token: 'nope', password: PASSWORD }), expect: { anonymous: 400, user: 400, admin: 400, otherAdmin: 400 } },
  { route: 'PATCH /users/name', body: () => ({ name: 'Renamed' }), expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'PATCH /users/locale', body: () => ({ locale: 'en' }), expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'PATCH /users/theme', body: () => ({ theme: 'dark' }), expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  {
    route: 'PATCH /users/password',
    body: () => ({ currentPassword: 'Wrong1234', newPassword: PASSWORD }),
    expect: { ...SIGNED_IN, user: 400, admin: 400, otherAdmin: 400 },
  },
  { route: 'GET /users', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'PATCH /users/:id/role', path: (f) => `/users/${f.member.id}/role`, body: () => ({ role: 'user' }), expect: { ...ADMIN, admin: 200 } },
  { route: 'DELETE /users/:id', path: async (f) => `/users/${await f.newMember()}`, expect: { ...ADMIN, admin: 204 } },
  { route: 'GET /groups', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'POST /groups', body: () => ({ name: `Matrix ${crypto.randomUUID().slice(0, 6)}` }), expect: { ...ADMIN_LIST, otherAdmin: 201, admin: 201 } },
  { route: 'PATCH /groups/:id', path: (f) => `/groups/${f.groupId}`, body: () => ({ name: `Secret Org A group ${crypto.randomUUID().slice(0, 6)}` }), expect: { ...ADMIN, admin: 200 } },
  { route: 'DELETE /groups/:id', path: async (f) => `/groups/${await f.newGroup()}`, expect: { ...ADMIN, admin: 204 } },
  { route: 'POST /groups/:id/members', path: (f) => `/groups/${f.groupId}/members`, body: (f) => ({ userIds: [f.member.id] }), expect: { ...ADMIN, admin: 200 } },
  {
    route: 'DELETE /groups/:id/members/:userId',
    path: async (f) => {
      await f.admin.client.post(`/api/groups/${f.groupId}/members`, { userIds: [f.member.id] })
      return `/groups/${f.groupId}/members/${f.member.id}`
    },
    expect: { ...ADMIN, admin: 200 },
  },
  { route: 'GET /budgets', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'GET /budgets/own', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'PUT /budgets', body: () => ({ scope: 'organization', metric: 'cost', limit: 1e6 }), expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'DELETE /budgets/:id', path: async (f) => `/budgets/${await f.newBudget()}`, expect: { ...ADMIN, admin: 204 } },
  { route: 'GET /usage.csv', path: () => '/usage.csv?from=2026-01-01&to=2026-12-31&by=group', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'GET /usage/own', path: () => '/usage/own?from=2026-01-01&to=2026-12-31', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'GET /usage', path: () => '/usage?from=2026-01-01&to=2026-12-31&by=user', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'POST /invites', body: () => ({ email: `matrix-${crypto.randomUUID().slice(0, 6)}@acme.test`, role: 'user' }), expect: { ...ADMIN_LIST, otherAdmin: 201, admin: 201 } },
  { route: 'GET /invites', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'GET /invites/preview', path: (f) => `/invites/preview?token=${f.inviteToken}`, tokenHolder: true, expect: { anonymous: 200, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'POST /invites/accept', body: () => ({ token: 'nope', name: 'N', password: PASSWORD, passwordConfirmation: PASSWORD }), expect: { anonymous: 404, user: 404, admin: 404, otherAdmin: 404 } },
  { route: 'GET /invites/:id', path: (f) => `/invites/${f.inviteId}`, expect: { ...ADMIN, admin: 200 } },
  { route: 'POST /invites/:id/resend', path: async (f) => `/invites/${await f.newInvite()}/resend`, expect: { ...ADMIN, admin: 200 } },
  { route: 'DELETE /invites/:id', path: async (f) => `/invites/${await f.newInvite()}`, expect: { ...ADMIN, admin: 204 } },
  { route: 'GET /models/available', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'GET /models/permitted', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'POST /models/permitted', path: async (f) => { await f.freeModel(); return '/models/permitted' }, body: () => ({ modelId: 'openai/gpt-4o' }), expect: { ...ADMIN_LIST, otherAdmin: 409, admin: 201 } },
  { route: 'PUT /models/permitted/:id/access', path: (f) => `/models/permitted/${f.modelId}/access`, body: () => ({ restricted: false }), expect: { ...ADMIN, admin: 200 } },
  { route: 'PUT /models/permitted/:id/price', path: (f) => `/models/permitted/${f.modelId}/price`, body: () => ({ input: 1, output: 2 }), expect: { ...ADMIN, admin: 200 } },
  { route: 'DELETE /models/permitted/:id/price', path: (f) => `/models/permitted/${f.modelId}/price`, expect: { ...ADMIN, admin: 200 } },
  { route: 'DELETE /models/permitted/:id', path: async (f) => `/models/permitted/${await f.newPermittedModel()}`, expect: { ...ADMIN, admin: 204 } },
  { route: 'GET /models/permitted/language-models', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'GET /models/default', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 404 } },
  { route: 'PUT /models/organization/default', body: (f) => ({ id: f.modelId }), expect: { ...ADMIN, admin: 200 } },
  { route: 'DELETE /models/organization/default', expect: { ...ADMIN_LIST, otherAdmin: 204, admin: 204 } },
  { route: 'GET /models/user/default', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'PUT /models/user/default', body: (f) => ({ id: f.modelId }), expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 404 } },
  { route: 'DELETE /models/user/default', expect: { ...SIGNED_IN, user: 204, admin: 204, otherAdmin: 204 } },
  { route: 'GET /models/providers/all-with-permitted-status', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'POST /models/providers/permitted', path: async (f) => { await f.unpermitMistral(); return '/models/providers/permitted' }, body: () => ({ providerId: 'mistral', termsAccepted: true }), expect: { ...ADMIN_LIST, otherAdmin: 201, admin: 201 } },
  { route: 'DELETE /models/providers/permitted', path: async (f) => { await f.permitMistral(); return '/models/providers/permitted' }, body: () => ({ providerId: 'mistral' }), expect: { ...ADMIN_LIST, otherAdmin: 409, admin: 204 } },
  { route: 'GET /models/embedding/enabled', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'PUT /models/embedding', body: (f) => ({ id: f.embeddingId }), expect: { ...ADMIN, admin: 200 } },
  { route: 'DELETE /models/embedding', expect: { ...ADMIN_LIST, otherAdmin: 204, admin: 204 } },
  { route: 'GET /models/endpoints', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'GET /mcp-servers', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'POST /mcp-servers', body: () => ({ name: `Matrix MCP ${crypto.randomUUID().slice(0, 6)}`, url: 'https://mcp.example.com/mcp', bearerToken: 't' }), expect: { ...ADMIN_LIST, otherAdmin: 201, admin: 201 } },
  { route: 'GET /mcp-servers/agent-choices', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'DELETE /mcp-servers/:id', path: async (f) => `/mcp-servers/${await f.newMcpServer()}`, expect: { ...ADMIN, admin: 204 } },
  { route: 'GET /mcp-servers/:id/tools', path: (f) => `/mcp-servers/${f.mcpServerId}/tools`, expect: { ...ADMIN, admin: 200 } },
  { route: 'PUT /mcp-servers/:id/tools/:name', path: (f) => `/mcp-servers/${f.mcpServerId}/tools/lookup`, body: () => ({ scope: 'everyone' }), expect: { ...ADMIN, admin: 200 } },
  {
    route: 'DELETE /mcp-servers/:id/tools/:name',
    path: async (f) => {
      await f.admin.client.put(`/api/mcp-servers/${f.mcpServerId}/tools/lookup`, { scope: 'everyone' })
      return `/mcp-servers/${f.mcpServerId}/tools/lookup`
    },
    expect: { ...ADMIN, admin: 204 },
  },
  { route: 'POST /models/endpoints', body: () => ({ name: 'Matrix endpoint', baseUrl: 'https://llm.example.com/v1', apiKey: 'k' }), expect: { ...ADMIN_LIST, otherAdmin: 201, admin: 201 } },
  { route: 'DELETE /models/endpoints/:id', path: async (f) => `/models/endpoints/${await f.newEndpoint()}`, expect: { ...ADMIN, admin: 204 } },
  { route: 'POST /threads', expect: { ...SIGNED_IN, user: 201, admin: 201, otherAdmin: 404 } },
  { route: 'GET /threads', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'GET /threads/:id', path: (f) => `/threads/${f.threadId}`, expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'GET /threads/:id/messages', path: (f) => `/threads/${f.threadId}/messages?before=1000`, expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'PATCH /threads/:id', path: (f) => `/threads/${f.threadId}`, body: () => ({ title: 'Secret Org A chat', pinned: true }), expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  // After the rename above: organisation A's admin finds 'Secret Org A chat'; nobody else sees it.
  { route: 'GET /search', path: () => '/search?q=Secret%20Org%20A', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'DELETE /threads', body: async (f) => ({ ids: [await f.newThread()] }), expect: { ...SIGNED_IN, user: 404, admin: 204, otherAdmin: 404 } },
  { route: 'DELETE /threads/:id', path: async (f) => `/threads/${await f.newThread()}`, expect: { ...SIGNED_IN, user: 404, admin: 204, otherAdmin: 404 } },
  { route: 'PUT /threads/:id/branch', path: (f) => `/threads/${f.threadId}/branch`, body: async (f) => ({ messageId: await newMessage(f.threadId) }), expect: { ...SIGNED_IN, user: 404, admin: 204, otherAdmin: 404 } },
  { route: 'POST /threads/:id/shares', path: (f) => `/threads/${f.threadId}/shares`, body: () => ({}), expect: { ...SIGNED_IN, user: 404, admin: 201, otherAdmin: 404 } },
  { route: 'GET /threads/:id/shares', path: (f) => `/threads/${f.threadId}/shares`, expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  // A chat shared with the whole organisation: its members read it and continue it; another organisation finds nothing.
  { route: 'GET /shares/:id', path: async (f) => `/shares/${await newShare(f)}`, expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 404 } },
  { route: 'POST /shares/:id/continue', path: async (f) => `/shares/${await newShare(f)}/continue`, expect: { ...SIGNED_IN, user: 201, admin: 201, otherAdmin: 404 } },
  { route: 'DELETE /shares/:id', path: async (f) => `/shares/${await newShare(f)}`, expect: { ...SIGNED_IN, user: 404, admin: 204, otherAdmin: 404 } },
  { route: 'PATCH /threads/:id/model', path: (f) => `/threads/${f.threadId}/model`, body: (f) => ({ modelId: f.modelId }), expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'PATCH /threads/:id/agent', path: (f) => `/threads/${f.threadId}/agent`, body: () => ({ agentId: null }), expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'GET /threads/:id/export', path: (f) => `/threads/${f.threadId}/export?format=json`, expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'GET /export', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'POST /threads/:id/messages', path: async (f) => `/threads/${await f.newThread()}/messages`, body: () => ({ content: 'hello' }), expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'GET /threads/:id/messages/:messageId/stream', path: async (f) => `/threads/${f.threadId}/messages/${await newReply(f.threadId)}/stream`, expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'POST /threads/:id/messages/:messageId/stop', path: async (f) => `/threads/${f.threadId}/messages/${await newReply(f.threadId)}/stop`, expect: { ...SIGNED_IN, user: 404, admin: 204, otherAdmin: 404 } },
  { route: 'POST /threads/:id/regenerate', path: async (f) => `/threads/${await f.newThread()}/regenerate`, expect: { ...SIGNED_IN, user: 404, admin: 409, otherAdmin: 404 } },
  // The matrix sends JSON: the owner gets past authorisation to the multipart check (415). An
  // earlier row removed the embedding model, without which uploads are refused first (409).
  { route: 'POST /threads/:id/sources/file', path: async (f) => { await f.admin.client.put('/api/models/embedding', { id: f.embeddingId }); return `/threads/${f.threadId}/sources/file` }, expect: { ...SIGNED_IN, user: 404, admin: 415, otherAdmin: 404 } },
  { route: 'GET /threads/:id/sources', path: (f) => `/threads/${f.threadId}/sources`, expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'PATCH /threads/:id/sources/:sourceId', path: async (f) => `/threads/${f.threadId}/sources/${await newSource(f.threadId)}`, body: () => ({ name: 'Renamed file' }), expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'POST /threads/:id/sources/:sourceId/retry', path: async (f) => `/threads/${f.threadId}/sources/${await newSource(f.threadId)}/retry`, expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'GET /sources/embedding', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'DELETE /threads/:id/sources/:sourceId', path: async (f) => `/threads/${f.threadId}/sources/${await newSource(f.threadId)}`, expect: { ...SIGNED_IN, user: 404, admin: 204, otherAdmin: 404 } },
  // Collections: the admin's collection is private, so the member of the same organisation finds it as little as another organisation.
  { route: 'GET /collections', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'POST /collections', body: () => ({ name: 'K' }), expect: { ...SIGNED_IN, user: 201, admin: 201, otherAdmin: 201 } },
  { route: 'GET /collections/share-targets', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'GET /collections/:id', path: (f) => `/collections/${f.collectionId}`, expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'PATCH /collections/:id', path: (f) => `/collections/${f.collectionId}`, body: () => ({ name: 'Secret Org A collection' }), expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'PUT /collections/:id/sharing', path: (f) => `/collections/${f.collectionId}/sharing`, body: () => ({ organizationRole: null, groups: [] }), expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'DELETE /collections/:id', path: async (f) => `/collections/${await f.newCollection()}`, expect: { ...SIGNED_IN, user: 404, admin: 204, otherAdmin: 404 } },
  { route: 'GET /collections/:id/files', path: (f) => `/collections/${f.collectionId}/files`, expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  // As with a chat's upload: JSON gets the owner past authorisation to the multipart check (415).
  { route: 'POST /collections/:id/files', path: async (f) => { await f.admin.client.put('/api/models/embedding', { id: f.embeddingId }); return `/collections/${f.collectionId}/files` }, expect: { ...SIGNED_IN, user: 404, admin: 415, otherAdmin: 404 } },
  { route: 'POST /collections/:id/files/:fileId/retry', path: async (f) => `/collections/${f.collectionId}/files/${await newCollectionFile(f.collectionId)}/retry`, expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'DELETE /collections/:id/files/:fileId', path: async (f) => `/collections/${f.collectionId}/files/${await newCollectionFile(f.collectionId)}`, expect: { ...SIGNED_IN, user: 404, admin: 204, otherAdmin: 404 } },
  { route: 'GET /threads/:id/collections', path: (f) => `/threads/${f.threadId}/collections`, expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'PUT /threads/:id/collections/:collectionId', path: (f) => `/threads/${f.threadId}/collections/${f.collectionId}`, expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'DELETE /threads/:id/collections/:collectionId', path: (f) => `/threads/${f.threadId}/collections/${f.collectionId}`, expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'POST /prompts', body: () => ({ title: 'T', content: 'C' }), expect: { ...SIGNED_IN, user: 201, admin: 201, otherAdmin: 201 } },
  { route: 'GET /prompts', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'GET /prompts/:id', path: (f) => `/prompts/${f.promptId}`, expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'PUT /prompts/:id', path: (f) => `/prompts/${f.promptId}`, body: () => ({ title: 'Secret Org A prompt', content: 'C' }), expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'PUT /prompts/:id/sharing', path: (f) => `/prompts/${f.promptId}/sharing`, body: () => ({ organization: false, groupIds: [] }), expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'POST /prompts/:id/copy', path: (f) => `/prompts/${f.promptId}/copy`, expect: { ...SIGNED_IN, user: 404, admin: 201, otherAdmin: 404 } },
  { route: 'DELETE /prompts/:id', path: async (f) => `/prompts/${await f.newPrompt()}`, expect: { ...SIGNED_IN, user: 404, admin: 204, otherAdmin: 404 } },
  { route: 'POST /agents', body: (f) => ({ name: 'A', instructions: 'I', modelId: f.modelId }), expect: { ...SIGNED_IN, user: 201, admin: 201, otherAdmin: 404 } },
  { route: 'GET /agents', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'GET /agents/:id', path: (f) => `/agents/${f.agentId}`, expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'PUT /agents/:id', path: (f) => `/agents/${f.agentId}`, body: (f) => ({ name: 'Secret Org A agent', instructions: 'I', modelId: f.modelId }), expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'PUT /agents/:id/sharing', path: (f) => `/agents/${f.agentId}/sharing`, body: () => ({ organization: false, groupIds: [] }), expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'POST /agents/:id/copy', path: (f) => `/agents/${f.agentId}/copy`, expect: { ...SIGNED_IN, user: 404, admin: 201, otherAdmin: 404 } },
  { route: 'DELETE /agents/:id', path: async (f) => `/agents/${await f.newAgent()}`, expect: { ...SIGNED_IN, user: 404, admin: 204, otherAdmin: 404 } },
  // The matrix instance is self-hosted: subscription management answers SUBSCRIPTIONS_NOT_USED (404) to admins.
  { route: 'GET /subscriptions', expect: { ...ADMIN, admin: 404 } },
  { route: 'POST /subscriptions', body: () => ({ companyName: 'C', street: 'S', houseNumber: '1', postalCode: '1', city: 'C', country: 'D', noOfSeats: 5 }), expect: { ...ADMIN, admin: 404 } },
  { route: 'DELETE /subscriptions', expect: { ...ADMIN, admin: 404 } },
  { route: 'POST /subscriptions/uncancel', expect: { ...ADMIN, admin: 404 } },
  { route: 'GET /subscriptions/active', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'GET /subscriptions/price', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'PUT /subscriptions/seats', body: () => ({ noOfSeats: 5 }), expect: { ...ADMIN, admin: 404 } },
  { route: 'PUT /subscriptions/billing-info', body: () => ({ companyName: 'C', street: 'S', houseNumber: '1', postalCode: '1', city: 'C', country: 'D' }), expect: { ...ADMIN, admin: 404 } },
  { route: 'GET /subscriptions/webhook-deliveries', expect: { ...ADMIN, admin: 404 } },
  { route: 'GET /dev/outbox', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'GET /organization', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'PATCH /organization', body: () => ({ name: 'Renamed Org' }), expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'GET /organization/retention', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'PUT /organization/retention', body: () => ({ chatDays: null, fileDays: null }), expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'GET /api-keys', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'POST /api-keys', body: () => ({ name: 'Matrix key' }), expect: { ...SIGNED_IN, user: 201, admin: 201, otherAdmin: 201 } },
  { route: 'DELETE /api-keys/:id', path: async (f) => `/api-keys/${await f.newApiKey()}`, expect: { ...SIGNED_IN, user: 404, admin: 204, otherAdmin: 404 } },
  { route: 'GET /api-keys/settings', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'PUT /api-keys/settings', body: () => ({ apiAccess: true }), expect: { ...ADMIN_LIST, otherAdmin: 200, admin: 200 } },
  { route: 'GET /audit-log', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'GET /sso', expect: { ...ADMIN_LIST, admin: 200 } },
  {
    // No identity provider answers in this test: an admin gets as far as the discovery check (src/api/sso/sso.test.ts has the rest).
    route: 'PUT /sso',
    body: () => ({ issuer: 'http://127.0.0.1:9', clientId: 'c', clientSecret: 's', domains: ['matrix-sso.example'], defaultRole: 'user', passwordSignIn: true }),
    expect: { anonymous: 401, user: 403, admin: 400, otherAdmin: 400 },
  },
  { route: 'DELETE /sso', expect: { anonymous: 401, user: 403, admin: 404, otherAdmin: 404 } },
  { route: 'POST /sso/domains/:domain/verify', path: () => '/sso/domains/matrix-sso.example/verify', expect: { anonymous: 401, user: 403, admin: 404, otherAdmin: 404 } },
  { route: 'POST /auth/sso/lookup', body: () => ({ email: 'nobody@acme.test' }), expect: { anonymous: 200, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'POST /auth/sso/start', body: () => ({ email: 'nobody@acme.test' }), expect: { anonymous: 404, user: 404, admin: 404, otherAdmin: 404 } },
  { route: 'GET /auth/sso/callback/:providerId', path: () => '/auth/sso/callback/unknown', expect: { anonymous: 302, user: 302, admin: 302, otherAdmin: 302 } },
  // The identity provider's page posts a form; any JSON or form that is no signed response goes back to /login (src/api/sso/saml.test.ts has the rest).
  { route: 'POST /auth/sso/saml2/sp/acs/:providerId', path: () => '/auth/sso/saml2/sp/acs/unknown', expect: { anonymous: 302, user: 302, admin: 302, otherAdmin: 302 } },
  { route: 'GET /auth/sso/saml2/sp/metadata', path: () => '/auth/sso/saml2/sp/metadata?providerId=unknown', expect: { anonymous: 404, user: 404, admin: 404, otherAdmin: 404 } },
  { route: 'GET /audit-log.csv', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'GET /scim-tokens', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'POST /scim-tokens', body: () => ({ name: 'Matrix directory' }), expect: { ...ADMIN_LIST, otherAdmin: 201, admin: 201 } },
  { route: 'DELETE /scim-tokens/:id', path: async (f) => `/scim-tokens/${await f.newScimToken()}`, expect: { ...ADMIN, admin: 204 } },
  { route: 'GET /sessions', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'DELETE /sessions/:id', path: (f) => f.newAdminSession(), expect: { ...SIGNED_IN, user: 404, admin: 204, otherAdmin: 404 } },
  { route: 'DELETE /users/:id/sessions', path: async (f) => `/users/${await f.newMember()}/sessions`, expect: { ...ADMIN, admin: 200 } },
  // Second factors: every caller sets up their own (nobody has one in the fixture); the requirement is the caller's organisation's.
  { route: 'GET /two-factor', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'POST /two-factor/totp', body: () => ({ password: 'Wrong1234' }), expect: { ...SIGNED_IN, user: 400, admin: 400, otherAdmin: 400 } },
  { route: 'POST /two-factor/totp/verify', body: () => ({ code: '000000' }), expect: { ...SIGNED_IN, user: 409, admin: 409, otherAdmin: 409 } },
  { route: 'POST /two-factor/totp/disable', body: () => ({ password: PASSWORD }), expect: { ...SIGNED_IN, user: 409, admin: 409, otherAdmin: 409 } },
  { route: 'POST /two-factor/recovery-codes', body: () => ({ password: PASSWORD }), expect: { ...SIGNED_IN, user: 409, admin: 409, otherAdmin: 409 } },
  { route: 'POST /auth/two-factor', body: () => ({ code: '000000' }), expect: { anonymous: 401, user: 401, admin: 401, otherAdmin: 401 } },
  { route: 'GET /two-factor/requirement', expect: { ...ADMIN_LIST, admin: 200 } },
  { route: 'PUT /two-factor/requirement', body: () => ({ required: false }), expect: { ...ADMIN_LIST, admin: 200 } },
  // Passkeys: each caller's own; organisation A's admin owns the one in the path.
  { route: 'GET /passkeys', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'POST /passkeys/options', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
  {
    route: 'POST /passkeys',
    body: () => ({ name: 'Matrix key', response: { id: 'matrix', rawId: 'matrix', type: 'public-key', response: {} } }),
    expect: { ...SIGNED_IN, user: 400, admin: 400, otherAdmin: 400 },
  },
  { route: 'PATCH /passkeys/:id', path: async (f) => `/passkeys/${await f.newPasskey()}`, body: () => ({ name: 'Renamed' }), expect: { ...SIGNED_IN, user: 404, admin: 200, otherAdmin: 404 } },
  { route: 'DELETE /passkeys/:id', path: async (f) => `/passkeys/${await f.newPasskey()}`, expect: { ...SIGNED_IN, user: 404, admin: 204, otherAdmin: 404 } },
  { route: 'POST /auth/passkey/options', expect: { anonymous: 200, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'POST /auth/passkey', body: () => ({ response: { id: 'matrix', type: 'public-key' } }), expect: { anonymous: 400, user: 400, admin: 400, otherAdmin: 400 } },
  // Last: it signs out the caller's other sessions, the fixture's own among them.
  { route: 'POST /sessions/end-others', expect: { ...SIGNED_IN, user: 200, admin: 200, otherAdmin: 200 } },
]

let t: Awaited<ReturnType<typeof createTestApp>>

/** A source of a thread, written straight to the database (the matrix app has no file store to upload to). */
async function newSource(threadId: string) {
  const thread = await t.deps.db.query.threads.findFirst({ where: eq(threads.id, threadId) })
  const id = crypto.randomUUID()
  await t.deps.db.insert(sources).values({
    id, organizationId: thread!.organizationId, threadId, userId: thread!.userId, name: 'a.txt', fileName: 'a.txt', kind: 'txt',
    mimeType: 'text/plain', size: 1, fileKey: `sources/matrix/${id}`, status: 'failed', error: 'SOURCE_NO_TEXT',
  })
  return id
}
/** A message of a thread (its first, a version of any other first), written straight to the database. */
let messageSeq = 0
async function newMessage(threadId: string) {
  const id = crypto.randomUUID()
  await t.deps.db.insert(messages).values({ id, threadId, seq: 1_000 + ++messageSeq, role: 'user', content: 'Matrix', status: 'complete', onBranch: false })
  return id
}
/** An ended reply of a thread (off the branch shown), written straight to the database. */
async function newReply(threadId: string) {
  const id = crypto.randomUUID()
  await t.deps.db.insert(messages).values({ id, threadId, seq: 1_000 + ++messageSeq, role: 'assistant', content: 'Matrix', status: 'complete', onBranch: false })
  return id
}
/** A share of the admin's chat with the whole organisation. */
async function newShare(f: Fixture) {
  return (await f.admin.client.post(`/api/threads/${f.threadId}/shares`, {})).body.id as string
}
/** A file of a collection, written straight to the database like `newSource`. */
async function newCollectionFile(collectionId: string) {
  const collection = await t.deps.db.query.collections.findFirst({ where: eq(collections.id, collectionId) })
  const id = crypto.randomUUID()
  await t.deps.db.insert(sources).values({
    id, organizationId: collection!.organizationId, collectionId, userId: collection!.userId, name: 'a.txt', fileName: 'a.txt', kind: 'txt',
    mimeType: 'text/plain', size: 1, fileKey: `collections/matrix/${id}`, status: 'failed', error: 'SOURCE_NO_TEXT',
  })
  return id
}
let fake: FakeLlm
let mcp: ReturnType<typeof startTestMcpServer>
let f: Fixture
let callers: Record<Caller, (fresh?: boolean) => Promise<TestClient>>

async function createFixture() {
  const adminClient = t.client()
  const admin = await registerOrg(adminClient, { organizationName: 'Secret Org A' })
  const otherClient = t.client()
  const other = await registerOrg(otherClient, { organizationName: 'Org B' })
  const invite = async () => (await adminClient.post('/api/invites', { email: `inv-${crypto.randomUUID().slice(0, 8)}@acme.test`, role: 'user' })).body
  const member = async () => {
    const inv = await invite()
    const client = t.client()
    const token = new URL(inv.acceptUrl).searchParams.get('token')
    const res = await client.post('/api/invites/accept', { token, name: 'Member', password: PASSWORD, passwordConfirmation: PASSWORD })
    return { id: res.body.id as string, email: res.body.email as string, client }
  }
  const m = await member()
  const pending = await invite()
  await adminClient.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
  await adminClient.post('/api/models/providers/permitted', { providerId: 'mistral', termsAccepted: true })
  const chatModel = (await adminClient.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })).body
  const embeddingModel = (await adminClient.post('/api/models/permitted', { modelId: 'openai/text-embedding-3-small' })).body
  const permitModel = async (modelId: string) => (await adminClient.post('/api/models/permitted', { modelId })).body.id as string
  return {
    admin: { ...admin, client: adminClient },
    other: { ...other, client: otherClient },
    member: m,
    inviteId: pending.id as string,
    inviteToken: new URL(pending.acceptUrl).searchParams.get('token')!,
    inviteEmail: pending.email as string,
    newMember: async () => (await member()).id,
    /** A session of organisation A's admin in a browser of its own: its path to end it. */
    newAdminSession: async () => {
      const browser = t.client()
      await browser.post('/api/auth/login', { email: admin.email, password: PASSWORD })
      return `/sessions/${(await browser.get('/api/sessions')).body.find((x: { current: boolean }) => x.current).id}`
    },
    newInvite: async () => (await invite()).id as string,
    modelId: chatModel.id as string,
    embeddingId: embeddingModel.id as string,
    newPermittedModel: async () => {
      const existing = (await adminClient.get('/api/models/permitted')).body.find((x: { modelId: string }) => x.modelId === 'mistral/mistral-small-latest')
      return existing?.id ?? (await permitModel('mistral/mistral-small-latest'))
    },
    /** Makes sure gpt-4o is not permitted yet, so permitting it can succeed. */
    freeModel: async () => {
      const existing = (await adminClient.get('/api/models/permitted')).body.find((x: { modelId: string }) => x.modelId === 'openai/gpt-4o')
      if (existing) await adminClient.delete(`/api/models/permitted/${existing.id}`)
    },
    /** Organisation A permits Mistral and B does not: B's removal must not touch A's. */
    permitMistral: async () => {
      await adminClient.post('/api/models/providers/permitted', { providerId: 'mistral', termsAccepted: true })
      await otherClient.request('DELETE', '/api/models/providers/permitted', { providerId: 'mistral' })
    },
    unpermitMistral: async () => {
      await adminClient.request('DELETE', '/api/models/providers/permitted', { providerId: 'mistral' })
      await otherClient.request('DELETE', '/api/models/providers/permitted', { providerId: 'mistral' })
    },
    threadId: (await adminClient.post('/api/threads', {})).body.id as string,
    newThread: async () => (await adminClient.post('/api/threads', {})).body.id as string,
    promptId: (await adminClient.post('/api/prompts', { title: 'Secret Org A prompt', content: 'x' })).body.id as string,
    newPrompt: async () => (await adminClient.post('/api/prompts', { title: 'P', content: 'x' })).body.id as string,
    agentId: (await adminClient.post('/api/agents', { name: 'Secret Org A agent', instructions: 'x', modelId: chatModel.id })).body.id as string,
    newAgent: async () => (await adminClient.post('/api/agents', { name: 'G', instructions: 'x', modelId: chatModel.id })).body.id as string,
    collectionId: (await adminClient.post('/api/collections', { name: 'Secret Org A collection' })).body.id as string,
    newCollection: async () => (await adminClient.post('/api/collections', { name: 'C' })).body.id as string,
    /** A passkey of organisation A's admin, written straight to the database (no authenticator here). */
    newPasskey: async () => {
      const id = crypto.randomUUID()
      await t.deps.db.insert(passkeys).values({ id, name: 'Secret Org A key', publicKey: 'x', userId: admin.user.id, credentialID: id, counter: 0, deviceType: 'singleDevice', backedUp: false })
      return id
    },
    newApiKey: async () => (await adminClient.post('/api/api-keys', { name: 'Secret Org A key' })).body.id as string,
    groupId: (await adminClient.post('/api/groups', { name: 'Secret Org A group' })).body.id as string,
    newBudget: async () => (await adminClient.put('/api/budgets', { scope: 'user', targetId: m.id, metric: 'tokens', limit: 1e9 })).body.id as string,
    newScimToken: async () => (await adminClient.post('/api/scim-tokens', { name: 'Directory' })).body.id as string,
    newGroup: async () => (await adminClient.post('/api/groups', { name: `G ${crypto.randomUUID().slice(0, 6)}` })).body.id as string,
    mcpServerId: (await adminClient.post('/api/mcp-servers', { name: 'Secret Org A MCP', url: mcp.url })).body.id as string,
    newMcpServer: async () => (await adminClient.post('/api/mcp-servers', { name: `M ${crypto.randomUUID().slice(0, 6)}`, url: mcp.url })).body.id as string,
    newEndpoint: async () => (await adminClient.post('/api/models/endpoints', { name: 'E', baseUrl: 'https://llm.example.com/v1' })).body.id as string,
  }
}

beforeAll(async () => {
  fake = await startFakeLlm()
  mcp = startTestMcpServer()
  // The operator allows 127.0.0.1, where the test MCP server runs.
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-matrix', OPENAI_BASE_URL: `${fake.url}/v1`, MISTRAL_API_KEY: 'm-matrix', KONTOR_FETCH_ALLOWED_HOSTS: '127.0.0.1' } })
  f = await createFixture()
  const cache = new Map<string, TestClient>()
  const signIn = async (email: string, fresh = false) => {
    if (!fresh && cache.has(email)) return cache.get(email)!
    const client = t.client()
    const res = await client.post('/api/auth/login', { email, password: PASSWORD })
    if (res.status !== 200) throw new Error(`login failed for ${email}`)
    if (!fresh) cache.set(email, client)
    return client
  }
  callers = {
    anonymous: async () => t.client(),
    user: (fresh) => signIn(f.member.email, fresh),
    admin: (fresh) => signIn(f.admin.email, fresh),
    otherAdmin: (fresh) => signIn(f.other.email, fresh),
  }
}, 60_000)
afterAll(async () => {
  await t.close()
  fake.close()
  mcp.close()
})

// better-auth's handler is not mounted (src/auth/auth.ts): its plugins' own endpoints answer nothing.
test("better-auth's two-factor and passkey endpoints are not reachable", async () => {
  for (const path of ['/api/auth/two-factor/enable', '/api/auth/two-factor/verify-totp', '/api/auth/passkey/verify-authentication', '/api/auth/sign-in/email']) {
    expect((await (await callers.admin()).post(path, {})).status).toBe(404)
  }
})

test('every API route has a row in the matrix', async () => {
  const declared = (await loadApiRoutes()).map((r) => `${r.method.toUpperCase()} ${r.path}`).sort()
  expect(MATRIX.map((r) => r.route).sort()).toEqual(declared)
})

describe.each(MATRIX.map((row) => [row.route, row] as const))('%s', (_name, row) => {
  for (const caller of ['anonymous', 'user', 'admin', 'otherAdmin'] as const) {
    test(`as ${caller}: ${row.expect[caller]}`, async () => {
      const [method, template] = row.route.split(' ') as [string, string]
      const path = row.path ? await row.path(f) : template
      const client = await callers[caller](row.freshSession)
      const res = await client.request(method, `/api${path === '/' ? '' : path}`, (await row.body?.(f)) ?? (method === 'GET' || method === 'DELETE' ? undefined : {}))
      expect({ caller, status: res.status }).toEqual({ caller, status: row.expect[caller] })
      if (res.status >= 400) expect(res.body).toMatchObject({ code: expect.any(String), message: expect.any(String), status: res.status })
      if (caller === 'otherAdmin' && !row.tokenHolder) {
        // Nothing of organisation A may show up in another organisation's answers.
        const text = JSON.stringify(res.body)
        for (const secret of ['Secret Org A', f.admin.email, f.member.email, f.inviteEmail]) expect(text).not.toContain(secret)
      }
    })
  }
})

/**
 * The OpenAI-compatible API (/v1): called without a key, with a wrong key, and with the API keys
 * of a member and an admin of organisation A and of an admin of organisation B (which permits no
 * models). Every refusal is in OpenAI's error format.
 */
type KeyCaller = 'none' | 'wrongKey' | 'user' | 'admin' | 'otherAdmin'
const V1_MATRIX: Array<{ route: string; path?: string; body?: unknown; expect: Record<KeyCaller, number> }> = [
  { route: 'GET /models', expect: { none: 401, wrongKey: 401, user: 200, admin: 200, otherAdmin: 200 } },
  { route: 'GET /models/:model{.+}', path: '/models/openai/gpt-4.1', expect: { none: 401, wrongKey: 401, user: 200, admin: 200, otherAdmin: 404 } },
  {
    route: 'POST /chat/completions',
    body: { model: 'openai/gpt-4.1', messages: [{ role: 'user', content: 'Secret Org A question' }] },
    expect: { none: 401, wrongKey: 401, user: 200, admin: 200, otherAdmin: 404 },
  },
  {
    route: 'POST /embeddings',
    body: { model: 'openai/text-embedding-3-small', input: 'Secret Org A text' },
    expect: { none: 401, wrongKey: 401, user: 200, admin: 200, otherAdmin: 404 },
  },
]

/** Kontor's MCP server at /mcp: an API key's owner only, in any organisation; refused without a valid key. */
describe('/mcp with API keys', () => {
  const keys: Partial<Record<KeyCaller, string>> = { wrongKey: `kontor_${'y'.repeat(64)}` }
  beforeAll(async () => {
    for (const caller of ['user', 'admin', 'otherAdmin'] as const) keys[caller] = (await (await callers[caller]()).post('/api/api-keys', { name: 'MCP matrix' })).body.key
  })
  const expected: Record<KeyCaller, number> = { none: 401, wrongKey: 401, user: 200, admin: 200, otherAdmin: 200 }
  for (const caller of ['none', 'wrongKey', 'user', 'admin', 'otherAdmin'] as const) {
    test(`POST /mcp initialize with ${caller}: ${expected[caller]}`, async () => {
      const res = await t.app.request('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(keys[caller] && { authorization: `Bearer ${keys[caller]}` }) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'matrix', version: '1' } } }),
      })
      expect({ caller, status: res.status }).toEqual({ caller, status: expected[caller] })
    })
  }
})

describe('/v1 with API keys', () => {
  const keys: Partial<Record<KeyCaller, string>> = { wrongKey: `kontor_${'x'.repeat(64)}` }
  beforeAll(async () => {
    for (const caller of ['user', 'admin', 'otherAdmin'] as const) keys[caller] = (await (await callers[caller]()).post('/api/api-keys', { name: 'Matrix' })).body.key
    await (await callers.admin()).put('/api/models/embedding', { id: f.embeddingId })
  })

  test('every /v1 route has a row', () => {
    expect(V1_MATRIX.map((r) => r.route).sort()).toEqual(openAiRoutes.map((r) => `${r.method.toUpperCase()} ${r.path}`).sort())
  })

  describe.each(V1_MATRIX.map((row) => [row.route, row] as const))('%s', (_name, row) => {
    for (const caller of ['none', 'wrongKey', 'user', 'admin', 'otherAdmin'] as const) {
      test(`with ${caller}: ${row.expect[caller]}`, async () => {
        const [method, template] = row.route.split(' ') as [string, string]
        const res = await t.app.request(`/v1${row.path ?? template}`, {
          method,
          headers: { 'content-type': 'application/json', ...(keys[caller] && { authorization: `Bearer ${keys[caller]}` }) },
          body: row.body ? JSON.stringify(row.body) : undefined,
        })
        const body = await res.json()
        expect({ caller, status: res.status }).toEqual({ caller, status: row.expect[caller] })
        if (res.status >= 400) {
          expect(Object.keys(body)).toEqual(['error'])
          expect(body.error).toMatchObject({ message: expect.any(String), type: expect.any(String), code: expect.any(String) })
          expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type'])
        }
        if (caller === 'otherAdmin') expect(JSON.stringify(body)).not.toContain('gpt-4.1')
      })
    }
  })
})
