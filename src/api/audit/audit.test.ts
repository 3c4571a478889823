import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { auditEntries } from '../../../db/schema'
import { startTestMcpServer } from '../../../tests/support/mcp-servers'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { BASE_URL, createTestApp, PASSWORD, registerOrg, type TestClient } from '../../../tests/support/test-app'
import de from '../../../web/locales/de'
import en from '../../../web/locales/en'
import { AUDIT_ACTIONS, recordAudit } from './access'
import { csvCell } from '../../lib/csv'
import { totpCode } from '../../../tests/support/totp'
import { softwarePasskey } from '../../../tests/support/webauthn'
import { auditUpkeep, deleteExpiredAuditEntries } from './service'

// Each test signs up members (real password hashing): room for a loaded machine.
setDefaultTimeout(20_000)

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
let cloud: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  fake = await startFakeLlm()
  const env = { OPENAI_API_KEY: 'sk-audit', OPENAI_BASE_URL: `${fake.url}/v1` }
  ;[t, cloud] = await Promise.all([
    createTestApp({ env: { ...env, KONTOR_FETCH_ALLOWED_HOSTS: '127.0.0.1' } }),
    createTestApp({ env: { ...env, KONTOR_CLOUD: 'true' } }),
  ])
})
afterAll(async () => {
  await Promise.all([t.close(), cloud.close()])
  fake.close()
})

type Entry = {
  id: string
  createdAt: string
  action: string
  actor: { id: string | null; name: string | null; email: string | null }
  target: { type: string | null; id: string | null; label: string | null }
  details: Record<string, unknown>
  address: string | null
  requestId: string | null
}

/** A call that names its request id, so that its audit entry can be found by it. */
const call = (client: TestClient, method: string, path: string, requestId: string, body?: unknown) =>
  client.request(method, path, body ?? (method === 'GET' || method === 'DELETE' ? undefined : {}), { 'x-request-id': requestId })

async function allEntries(client: TestClient, query = ''): Promise<Entry[]> {
  const res = await client.get(`/api/audit-log?limit=200${query}`)
  expect(res.status).toBe(200)
  return res.body.entries
}

async function invitedMember(app: typeof t, admin: TestClient, name = 'Mia Member') {
  const email = `m-${crypto.randomUUID().slice(0, 8)}@acme.test`
  const invite = (await admin.post('/api/invites', { email, role: 'user' })).body
  const member = app.client()
  const token = new URL(invite.acceptUrl).searchParams.get('token')
  const accepted = await member.post('/api/invites/accept', { token, name, password: PASSWORD, passwordConfirmation: PASSWORD })
  expect(accepted.status).toBe(201)
  return { member, memberId: accepted.body.id as string, email }
}

describe('audit log entries', () => {
  test('every recorded action writes an entry with actor, target, address and request id', async () => {
    const admin = t.client()
    admin.setIp('198.51.100.7')
    const { user } = await registerOrg(admin, { name: 'Ada Admin' })
    const adminEmail = user.email as string
    const expected: Array<{ requestId: string; action: string; actorEmail: string | null; address: string; target: Partial<Entry['target']>; details?: Record<string, unknown> }> = []
    const expectEntry = (requestId: string, action: string, target: Partial<Entry['target']>, more: { actorEmail?: string | null; address?: string; details?: Record<string, unknown> } = {}) =>
      expected.push({ requestId, action, target, actorEmail: more.actorEmail === undefined ? adminEmail : more.actorEmail, address: more.address ?? '198.51.100.7', details: more.details })
    const ok = async (res: Promise<{ status: number; body: any }>, status = 200) => {
      const r = await res
      expect(r.status, JSON.stringify(r.body)).toBe(status)
      return r.body
    }

    // Sign-ins: success, failure and the refusal once the limit is reached; sign-out.
    const other = t.client()
    other.setIp('198.51.100.8')
    await ok(call(other, 'POST', '/api/auth/login', 'rid-sign-in', { email: adminEmail, password: PASSWORD }))
    expectEntry('rid-sign-in', 'sign_in.succeeded', { type: 'user', label: adminEmail }, { address: '198.51.100.8' })
    await ok(call(other, 'POST', '/api/auth/logout', 'rid-sign-out'))
    expectEntry('rid-sign-out', 'sign_out', { type: 'user', label: adminEmail }, { address: '198.51.100.8' })
    const guesser = t.client()
    guesser.setIp('198.51.100.9')
    await ok(call(guesser, 'POST', '/api/auth/login', 'rid-sign-in-failed', { email: adminEmail, password: 'Wrong1234' }), 401)
    // Anyone may type a member's address: a failed or refused attempt names the account as its target, not as the actor.
    expectEntry('rid-sign-in-failed', 'sign_in.failed', { type: 'user', label: adminEmail }, { address: '198.51.100.9', actorEmail: null })
    for (let i = 0; i < 4; i++) await guesser.post('/api/auth/login', { email: adminEmail, password: 'Wrong1234' })
    await ok(call(guesser, 'POST', '/api/auth/login', 'rid-sign-in-limited', { email: adminEmail, password: 'Wrong1234' }), 429)
    expectEntry('rid-sign-in-limited', 'sign_in.rate_limited', { type: 'user', label: adminEmail }, { address: '198.51.100.9', actorEmail: null })

    // Invitations: sent, sent again, revoked, accepted.
    const invite = await ok(call(admin, 'POST', '/api/invites', 'rid-invite', { email: 'olga@acme.test', role: 'user' }), 201)
    expectEntry('rid-invite', 'invite.sent', { type: 'invite', id: invite.id, label: 'olga@acme.test' }, { details: { role: 'user' } })
    await ok(call(admin, 'POST', `/api/invites/${invite.id}/resend`, 'rid-invite-resend'))
    expectEntry('rid-invite-resend', 'invite.resent', { type: 'invite', id: invite.id, label: 'olga@acme.test' })
    await ok(call(admin, 'DELETE', `/api/invites/${invite.id}`, 'rid-invite-revoke'), 204)
    expectEntry('rid-invite-revoke', 'invite.revoked', { type: 'invite', id: invite.id, label: 'olga@acme.test' })
    const second = await ok(admin.post('/api/invites', { email: 'max@acme.test', role: 'user' }), 201)
    const max = t.client()
    max.setIp('198.51.100.10')
    const token = new URL(second.acceptUrl).searchParams.get('token')
    const maxUser = await ok(call(max, 'POST', '/api/invites/accept', 'rid-invite-accept', { token, name: 'Max', password: PASSWORD, passwordConfirmation: PASSWORD }), 201)
    expectEntry('rid-invite-accept', 'invite.accepted', { type: 'invite', id: second.id, label: 'max@acme.test' }, { actorEmail: 'max@acme.test', address: '198.51.100.10' })

    // Members: role change and removal.
    await ok(call(admin, 'PATCH', `/api/users/${maxUser.id}/role`, 'rid-role', { role: 'admin' }))
    expectEntry('rid-role', 'member.role_changed', { type: 'user', id: maxUser.id, label: 'max@acme.test' }, { details: { from: 'user', to: 'admin' } })
    await ok(call(admin, 'DELETE', `/api/users/${maxUser.id}`, 'rid-remove'), 204)
    expectEntry('rid-remove', 'member.removed', { type: 'user', id: maxUser.id, label: 'max@acme.test' })

    // Providers, models, the organisation's default and embedding model.
    await ok(call(admin, 'POST', '/api/models/providers/permitted', 'rid-provider', { providerId: 'openai', termsAccepted: true }), 201)
    expectEntry('rid-provider', 'provider.permitted', { type: 'provider', id: 'openai' })
    const model = await ok(call(admin, 'POST', '/api/models/permitted', 'rid-model', { modelId: 'openai/gpt-4.1' }), 201)
    expectEntry('rid-model', 'model.permitted', { type: 'model', id: model.id, label: 'openai/gpt-4.1' })
    const embed = await ok(admin.post('/api/models/permitted', { modelId: 'openai/text-embedding-3-small' }), 201)
    await ok(call(admin, 'PUT', '/api/models/organization/default', 'rid-default', { id: model.id }))
    expectEntry('rid-default', 'model.default_changed', { type: 'model', id: model.id })
    await ok(call(admin, 'PUT', '/api/models/embedding', 'rid-embedding', { id: embed.id }))
    expectEntry('rid-embedding', 'model.embedding_changed', { type: 'model', id: embed.id })
    await ok(call(admin, 'PUT', `/api/models/permitted/${model.id}/price`, 'rid-price', { input: 2, output: 8 }))
    expectEntry('rid-price', 'model.price_changed', { type: 'model', id: model.id, label: 'openai/gpt-4.1' }, { details: { input: 2, output: 8 } })

    // Groups, and a model open to one of them.
    const group = await ok(call(admin, 'POST', '/api/groups', 'rid-group', { name: 'Finance' }), 201)
    expectEntry('rid-group', 'group.created', { type: 'group', id: group.id, label: 'Finance' })
    await ok(call(admin, 'PATCH', `/api/groups/${group.id}`, 'rid-group-rename', { name: 'Finance team' }))
    expectEntry('rid-group-rename', 'group.renamed', { type: 'group', id: group.id, label: 'Finance team' }, { details: { from: 'Finance', to: 'Finance team' } })
    await ok(call(admin, 'POST', `/api/groups/${group.id}/members`, 'rid-group-add', { userIds: [user.id] }))
    expectEntry('rid-group-add', 'group.members_added', { type: 'group', id: group.id }, { details: { members: adminEmail } })
    await ok(call(admin, 'PUT', `/api/models/permitted/${model.id}/access`, 'rid-access', { restricted: true, groupIds: [group.id] }))
    expectEntry('rid-access', 'model.access_changed', { type: 'model', id: model.id }, { details: { restricted: true, groups: 'Finance team' } })
    await ok(call(admin, 'DELETE', `/api/groups/${group.id}/members/${user.id}`, 'rid-group-remove'))
    expectEntry('rid-group-remove', 'group.member_removed', { type: 'group', id: group.id }, { details: { userId: user.id } })
    await ok(call(admin, 'DELETE', `/api/groups/${group.id}`, 'rid-group-delete'), 204)
    expectEntry('rid-group-delete', 'group.deleted', { type: 'group', id: group.id, label: 'Finance team' })
    await ok(admin.put(`/api/models/permitted/${model.id}/access`, { restricted: false }))

    await ok(call(admin, 'DELETE', `/api/models/permitted/${embed.id}`, 'rid-model-off'), 204)
    expectEntry('rid-model-off', 'model.unpermitted', { type: 'model', id: embed.id, label: 'openai/text-embedding-3-small' })

    // Own endpoints.
    const endpoint = await ok(call(admin, 'POST', '/api/models/endpoints', 'rid-endpoint', { name: 'Our vLLM', baseUrl: `${fake.url}/v1` }), 201)
    expectEntry('rid-endpoint', 'endpoint.created', { type: 'endpoint', id: endpoint.id, label: 'Our vLLM' })
    await ok(call(admin, 'DELETE', `/api/models/endpoints/${endpoint.id}`, 'rid-endpoint-off'), 204)
    expectEntry('rid-endpoint-off', 'endpoint.removed', { type: 'endpoint', id: endpoint.id, label: 'Our vLLM' })

    // MCP servers and their tools.
    const dictionary = startTestMcpServer()
    try {
      const mcp = await ok(call(admin, 'POST', '/api/mcp-servers', 'rid-mcp', { name: 'Dictionary', url: dictionary.url, bearerToken: 'tok' }), 201)
      expectEntry('rid-mcp', 'mcp_server.added', { type: 'mcp_server', id: mcp.id, label: 'Dictionary' }, { details: { url: dictionary.url, headers: ['authorization'] } })
      await ok(call(admin, 'PUT', `/api/mcp-servers/${mcp.id}/tools/lookup`, 'rid-mcp-tool', { scope: 'everyone' }))
      expectEntry('rid-mcp-tool', 'mcp_tool.enabled', { type: 'mcp_tool', label: 'Dictionary: lookup' }, { details: { scope: 'everyone' } })
      await ok(call(admin, 'DELETE', `/api/mcp-servers/${mcp.id}/tools/lookup`, 'rid-mcp-tool-off'), 204)
      expectEntry('rid-mcp-tool-off', 'mcp_tool.disabled', { type: 'mcp_tool', label: 'Dictionary: lookup' })
      await ok(call(admin, 'DELETE', `/api/mcp-servers/${mcp.id}`, 'rid-mcp-off'), 204)
      expectEntry('rid-mcp-off', 'mcp_server.removed', { type: 'mcp_server', id: mcp.id, label: 'Dictionary' })
    } finally {
      dictionary.close()
    }

    // Sessions: a member signs out another browser of theirs; an admin signs a member out everywhere.
    const third = await ok(admin.post('/api/invites', { email: 'sam@acme.test', role: 'user' }), 201)
    const sam = t.client()
    sam.setIp('198.51.100.12')
    const samUser = await ok(sam.post('/api/invites/accept', { token: new URL(third.acceptUrl).searchParams.get('token'), name: 'Sam', password: PASSWORD, passwordConfirmation: PASSWORD }), 201)
    const samLaptop = t.client()
    await ok(samLaptop.post('/api/auth/login', { email: 'sam@acme.test', password: PASSWORD }))
    const laptopSession = (await ok(samLaptop.get('/api/sessions'))).find((x: { current: boolean }) => x.current)
    await ok(call(sam, 'DELETE', `/api/sessions/${laptopSession.id}`, 'rid-session-end'), 204)
    expectEntry('rid-session-end', 'session.ended', { type: 'user', id: samUser.id, label: 'sam@acme.test' }, { actorEmail: 'sam@acme.test', address: '198.51.100.12', details: { count: 1 } })
    await ok(call(admin, 'DELETE', `/api/users/${samUser.id}/sessions`, 'rid-member-sessions'))
    expectEntry('rid-member-sessions', 'member.sessions_ended', { type: 'user', id: samUser.id, label: 'sam@acme.test' }, { details: { count: 1 } })

    // Organisation, API access and keys, chats deleted at once.
    await ok(call(admin, 'PATCH', '/api/organization', 'rid-rename', { name: 'Acme Audit' }))
    expectEntry('rid-rename', 'organization.renamed', { type: 'organization', label: 'Acme Audit' })
    await ok(call(admin, 'PUT', '/api/api-keys/settings', 'rid-api-access', { apiAccess: true }))
    expectEntry('rid-api-access', 'api_access.changed', { type: 'organization' }, { details: { apiAccess: true } })
    await ok(call(admin, 'PUT', '/api/organization/retention', 'rid-retention', { chatDays: 365, fileDays: null }))
    expectEntry('rid-retention', 'retention.changed', { type: 'organization' }, { details: { chatDays: 365, fileDays: 'never' } })
    const key = await ok(call(admin, 'POST', '/api/api-keys', 'rid-key', { name: 'Laptop' }), 201)
    expectEntry('rid-key', 'api_key.created', { type: 'api_key', id: key.id, label: 'Laptop' })
    await ok(call(admin, 'DELETE', `/api/api-keys/${key.id}`, 'rid-key-off'), 204)
    expectEntry('rid-key-off', 'api_key.revoked', { type: 'api_key', id: key.id, label: 'Laptop' })

    // SCIM: its tokens, and what a directory changes with one (the token is the actor, by name).
    const scimToken = await ok(call(admin, 'POST', '/api/scim-tokens', 'rid-scim-token', { name: 'Entra' }), 201)
    expectEntry('rid-scim-token', 'scim_token.created', { type: 'scim_token', id: scimToken.id, label: 'Entra' })
    const directory = t.client()
    directory.setIp('198.51.100.11')
    const scim = (method: string, path: string, requestId: string, body?: unknown) =>
      directory.request(method, `/scim/v2${path}`, body, { authorization: `Bearer ${scimToken.token}`, 'x-request-id': requestId })
    const byScim = { actorEmail: null, address: '198.51.100.11' }
    const USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
    const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
    const grace = await ok(scim('POST', '/Users', 'rid-scim-user', { schemas: [USER], userName: 'grace@acme.test', displayName: 'Grace' }), 201)
    expectEntry('rid-scim-user', 'scim.user_created', { type: 'user', id: grace.id, label: 'grace@acme.test' }, byScim)
    await ok(scim('PATCH', `/Users/${grace.id}`, 'rid-scim-user-update', { schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'Grace H.' }] }))
    expectEntry('rid-scim-user-update', 'scim.user_updated', { type: 'user', id: grace.id }, { ...byScim, details: { name: { from: 'Grace', to: 'Grace H.' } } })
    await ok(scim('PATCH', `/Users/${grace.id}`, 'rid-scim-user-off', { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] }))
    expectEntry('rid-scim-user-off', 'scim.user_deactivated', { type: 'user', id: grace.id }, byScim)
    await ok(scim('PATCH', `/Users/${grace.id}`, 'rid-scim-user-on', { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: true }] }))
    expectEntry('rid-scim-user-on', 'scim.user_reactivated', { type: 'user', id: grace.id }, byScim)
    const scimGroup = await ok(scim('POST', '/Groups', 'rid-scim-group', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Pilots' }), 201)
    expectEntry('rid-scim-group', 'scim.group_created', { type: 'group', id: scimGroup.id, label: 'Pilots' }, byScim)
    await ok(scim('PATCH', `/Groups/${scimGroup.id}`, 'rid-scim-group-update', { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: grace.id }] }] }))
    expectEntry('rid-scim-group-update', 'scim.group_updated', { type: 'group', id: scimGroup.id }, { ...byScim, details: { membersAdded: 1 } })
    await ok(scim('DELETE', `/Groups/${scimGroup.id}`, 'rid-scim-group-delete'), 204)
    expectEntry('rid-scim-group-delete', 'scim.group_deleted', { type: 'group', id: scimGroup.id, label: 'Pilots' }, byScim)
    await ok(scim('DELETE', `/Users/${grace.id}`, 'rid-scim-user-delete'), 204)
    expectEntry('rid-scim-user-delete', 'scim.user_deleted', { type: 'user', id: grace.id, label: 'grace@acme.test' }, byScim)
    await ok(call(admin, 'DELETE', `/api/scim-tokens/${scimToken.id}`, 'rid-scim-token-off'), 204)
    expectEntry('rid-scim-token-off', 'scim_token.revoked', { type: 'scim_token', id: scimToken.id, label: 'Entra' })
    const chats = [(await ok(admin.post('/api/threads', {}), 201)).id, (await ok(admin.post('/api/threads', {}), 201)).id]
    await ok(call(admin, 'GET', `/api/threads/${chats[0]}/export?format=json`, 'rid-chat-export'))
    expectEntry('rid-chat-export', 'chat.exported', { type: 'thread', id: chats[0] }, { details: { format: 'json' } })
    const share = await ok(call(admin, 'POST', `/api/threads/${chats[0]}/shares`, 'rid-share', {}), 201)
    expectEntry('rid-share', 'chat.shared', { type: 'thread', id: chats[0] }, { details: { shareId: share.id, groups: [] } })
    await ok(call(admin, 'DELETE', `/api/shares/${share.id}`, 'rid-share-off'), 204)
    expectEntry('rid-share-off', 'chat.share_revoked', { type: 'thread', id: chats[0] }, { details: { shareId: share.id } })
    await ok(call(admin, 'GET', '/api/export', 'rid-export'))
    expectEntry('rid-export', 'data.exported', { type: 'user', label: adminEmail })
    await ok(call(admin, 'DELETE', '/api/threads', 'rid-chats', { ids: chats }), 204)
    expectEntry('rid-chats', 'chats.deleted', { type: 'user', label: adminEmail }, { details: { count: 2 } })
    const budget = await ok(call(admin, 'PUT', '/api/budgets', 'rid-budget', { scope: 'organization', metric: 'cost', limit: 50 }))
    expectEntry('rid-budget', 'budget.set', { type: 'organization' }, { details: { metric: 'cost', to: '50 cost' } })
    await ok(call(admin, 'DELETE', `/api/budgets/${budget.id}`, 'rid-budget-off'), 204)
    expectEntry('rid-budget-off', 'budget.removed', { type: 'organization' }, { details: { from: '50 cost' } })

    await ok(call(admin, 'PUT', '/api/api-keys/settings', 'rid-provider-off-prep', { apiAccess: false }))
    await ok(call(admin, 'DELETE', '/api/models/providers/permitted', 'rid-provider-off', { providerId: 'openai' }), 204)
    expectEntry('rid-provider-off', 'provider.unpermitted', { type: 'provider', id: 'openai' })

    // Second factors: the organisation's requirement, an authenticator app, its recovery codes, a wrong code at sign-in.
    await ok(call(admin, 'PUT', '/api/two-factor/requirement', 'rid-2fa-required', { required: true }))
    expectEntry('rid-2fa-required', 'two_factor.requirement_changed', { type: 'organization' }, { details: { required: true } })
    const totp = await ok(admin.post('/api/two-factor/totp', { password: PASSWORD }))
    await ok(call(admin, 'POST', '/api/two-factor/totp/verify', 'rid-2fa-on', { code: totpCode(totp.secret) }))
    expectEntry('rid-2fa-on', 'two_factor.enabled', { type: 'user', label: adminEmail })
    await ok(call(admin, 'POST', '/api/two-factor/recovery-codes', 'rid-2fa-codes', { password: PASSWORD }))
    expectEntry('rid-2fa-codes', 'two_factor.recovery_codes_renewed', { type: 'user', label: adminEmail })
    const laptop = t.client()
    laptop.setIp('198.51.100.12')
    await ok(laptop.post('/api/auth/login', { email: adminEmail, password: PASSWORD }))
    await ok(call(laptop, 'POST', '/api/auth/two-factor', 'rid-2fa-wrong', { code: totpCode(totp.secret, Date.now() - 10 * 60_000) }), 401)
    expectEntry('rid-2fa-wrong', 'sign_in.two_factor_failed', { type: 'user', label: adminEmail }, { address: '198.51.100.12', actorEmail: null, details: { secondFactor: 'totp' } })
    await ok(call(admin, 'PUT', '/api/two-factor/requirement', 'rid-2fa-optional', { required: false }))
    await ok(call(admin, 'POST', '/api/two-factor/totp/disable', 'rid-2fa-off', { password: PASSWORD }))
    expectEntry('rid-2fa-off', 'two_factor.disabled', { type: 'user', label: adminEmail })
    const authenticator = softwarePasskey(BASE_URL)
    const options = await ok(admin.post('/api/passkeys/options'))
    const passkey = await ok(call(admin, 'POST', '/api/passkeys', 'rid-passkey', { name: 'Laptop', response: authenticator.register(options) }), 201)
    expectEntry('rid-passkey', 'passkey.added', { type: 'passkey', id: passkey.id, label: 'Laptop' })
    await ok(call(admin, 'DELETE', `/api/passkeys/${passkey.id}`, 'rid-passkey-off'), 204)
    expectEntry('rid-passkey-off', 'passkey.removed', { type: 'passkey', id: passkey.id, label: 'Laptop' })

    const entries = await allEntries(admin)
    for (const e of expected) {
      const found = entries.filter((entry) => entry.requestId === e.requestId)
      expect(found.map((f) => f.action), e.requestId).toEqual([e.action])
      const entry = found[0]!
      expect(entry.actor.email, e.requestId).toBe(e.actorEmail)
      expect(entry.actor.id, e.requestId).toEqual(e.actorEmail === null ? null : expect.any(String))
      expect(entry.address, e.requestId).toBe(e.address)
      expect(entry.target, e.requestId).toMatchObject(e.target)
      if (e.details) expect(entry.details, e.requestId).toMatchObject(e.details)
    }
    // Every action the log knows was exercised above (sign-ups aside) and has words in both languages.
    const exercised = new Set(expected.map((e) => e.action))
    // Single sign-on needs an identity provider: src/api/sso/sso.test.ts exercises its actions;
    // the retention run has no request: src/api/retention/retention.test.ts exercises it; calls
    // with an API key: src/api/openai/openai.test.ts and src/api/mcp/mcp.test.ts.
    const elsewhere = (a: string) =>
      a.startsWith('subscription.') || a.startsWith('sso.') || a.endsWith('.sso') || a.endsWith('_by_sso') || a === 'retention.applied' || a === 'api.called'
    expect(AUDIT_ACTIONS.filter((a) => !exercised.has(a) && !elsewhere(a))).toEqual([])
    for (const strings of [en.audit, de.audit]) expect(AUDIT_ACTIONS.filter((a) => !(a in strings.actions))).toEqual([])
    // Newest first.
    const times = entries.map((e) => e.createdAt)
    expect([...times].sort().reverse()).toEqual(times)
   }, 30_000)

  test('subscription changes are recorded (cloud)', async () => {
    const admin = cloud.client()
    admin.setIp('198.51.100.20')
    await registerOrg(admin)
    const billing = { companyName: 'Acme GmbH', street: 'Hauptstraße', houseNumber: '1a', postalCode: '10115', city: 'Berlin', country: 'Germany' }
    expect((await call(admin, 'POST', '/api/subscriptions', 'rid-sub', { ...billing, noOfSeats: 5 })).status).toBe(201)
    expect((await call(admin, 'PUT', '/api/subscriptions/seats', 'rid-seats', { noOfSeats: 7 })).status).toBe(200)
    expect((await call(admin, 'PUT', '/api/subscriptions/billing-info', 'rid-billing', { ...billing, city: 'Hamburg' })).status).toBe(200)
    expect((await call(admin, 'DELETE', '/api/subscriptions', 'rid-cancel')).status).toBe(200)
    expect((await call(admin, 'POST', '/api/subscriptions/uncancel', 'rid-uncancel')).status).toBe(200)
    const entries = await allEntries(admin)
    const byRequest = Object.fromEntries(entries.map((e) => [e.requestId, e]))
    expect(byRequest['rid-sub']).toMatchObject({ action: 'subscription.created', address: '198.51.100.20', target: { type: 'subscription' }, details: { seats: 5 } })
    expect(byRequest['rid-seats']).toMatchObject({ action: 'subscription.seats_changed', details: { seats: 7 } })
    expect(byRequest['rid-billing']?.action).toBe('subscription.billing_changed')
    expect(byRequest['rid-cancel']?.action).toBe('subscription.cancelled')
    expect(byRequest['rid-uncancel']?.action).toBe('subscription.resumed')
  })

  test('a failed audit write is logged and the action still succeeds', async () => {
    const logged: unknown[] = []
    const broken = { insert: () => ({ values: () => Promise.reject(new Error('disk full')) }) } as unknown as typeof t.deps.db
    const logger = { ...t.deps.logger, error: (...args: unknown[]) => logged.push(args) }
    await recordAudit({ db: broken, logger }, { id: 'u', name: 'U', email: 'u@acme.test', organizationId: 'o' }, { requestId: 'r', address: '1.2.3.4' }, { action: 'sign_out' })
    expect(logged).toHaveLength(1)
    expect(JSON.stringify(logged[0])).toContain('audit entry not written')
  })
})

describe('reading the audit log', () => {
  async function orgWithEntries() {
    const admin = t.client()
    await registerOrg(admin)
    // A name without the letters a–f: the admin's address holds random hex, which the actor filter also searches.
    const { member, memberId, email } = await invitedMember(t, admin, 'Quinn Member')
    await admin.patch(`/api/users/${memberId}/role`, { role: 'admin' })
    await admin.patch(`/api/users/${memberId}/role`, { role: 'user' })
    await admin.patch('/api/organization', { name: 'Acme Filters' })
    return { admin, member, memberId, email }
  }

  test('filters by action, actor, target text and dates; pages with a cursor, newest first', async () => {
    const { admin, email } = await orgWithEntries()
    const roles = await allEntries(admin, '&action=member.role_changed')
    expect(roles.map((e) => e.details)).toEqual([
      { from: 'admin', to: 'user' },
      { from: 'user', to: 'admin' },
    ])
    expect((await allEntries(admin, `&target=${encodeURIComponent(email.slice(0, 6))}`)).every((e) => e.target.label === email)).toBe(true)
    expect((await allEntries(admin, '&actor=Quinn')).map((e) => e.action)).toEqual(['invite.accepted'])
    expect((await allEntries(admin, '&target=100%25')).length).toBe(0)
    const today = new Date().toISOString().slice(0, 10)
    const all = await allEntries(admin)
    expect(all.length).toBeGreaterThanOrEqual(5)
    expect((await allEntries(admin, `&from=${today}&to=${today}`)).length).toBe(all.length)
    expect((await allEntries(admin, '&to=2020-01-01')).length).toBe(0)

    const pages: Entry[] = []
    let cursor: string | null = null
    do {
      const res: { status: number; body: { entries: Entry[]; nextCursor: string | null } } = await admin.get(`/api/audit-log?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(res.status).toBe(200)
      expect(res.body.entries.length).toBeLessThanOrEqual(2)
      pages.push(...res.body.entries)
      cursor = res.body.nextCursor
    } while (cursor)
    expect(pages.map((e) => e.id)).toEqual(all.map((e) => e.id))
  })

  test('bad filters are refused with the field: backwards dates, unknown action, garbage cursor, bad dates', async () => {
    const { admin } = await orgWithEntries()
    const cases: Array<[string, string]> = [
      ['from=2026-03-02&to=2026-03-01', 'to'],
      ['action=member.promoted', 'action'],
      ['cursor=garbage', 'cursor'],
      ['from=2026-02-30', 'from'],
      ['to=yesterday', 'to'],
      ['limit=0', 'limit'],
    ]
    for (const [query, field] of cases) {
      for (const path of ['/api/audit-log', '/api/audit-log.csv']) {
        const res = await admin.get(`${path}?${query}`)
        expect(res.status, `${path}?${query}`).toBe(400)
        expect(res.body.code).toBe('VALIDATION_FAILED')
        expect(Object.keys(res.body.fields), query).toEqual([field])
      }
    }
  })

  test('another organisation never sees the entries; members are refused', async () => {
    const { admin, member } = await orgWithEntries()
    const other = t.client()
    await registerOrg(other)
    const mine = await allEntries(admin)
    const theirs = await allEntries(other)
    expect(theirs.filter((e) => mine.some((m) => m.id === e.id))).toEqual([])
    expect(theirs.every((e) => e.actor.email !== mine[0]!.actor.email)).toBe(true)
    const csv = await other.get('/api/audit-log.csv')
    expect(csv.body).not.toContain('Acme Filters')
    for (const path of ['/api/audit-log', '/api/audit-log.csv']) {
      const res = await member.get(path)
      expect(res.status).toBe(403)
      expect(res.body.code).toBe('FORBIDDEN')
      expect((await t.client().get(path)).status).toBe(401)
    }
  })

  test('the CSV export has the filtered entries, and cells that start like a formula are defused', async () => {
    const { admin } = await orgWithEntries()
    await admin.patch('/api/organization', { name: '=HYPERLINK("http://evil.example","click")' })
    const res = await admin.request('GET', '/api/audit-log.csv?action=organization.renamed')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/csv')
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/)
    const lines = (res.body as string).trimEnd().split('\r\n')
    expect(lines[0]).toBe('time,action,actor_name,actor_email,actor_id,target_type,target_id,target_label,details,address,request_id')
    expect(lines).toHaveLength(3)
    expect(lines[1]).toContain(`,organization.renamed,`)
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`)
    expect(lines[2]).toContain(',Acme Filters,')

    expect(csvCell('=1+2')).toBe("'=1+2")
    expect(csvCell('+49 30 1234')).toBe("'+49 30 1234")
    expect(csvCell('-2')).toBe("'-2")
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)")
    expect(csvCell('plain')).toBe('plain')
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"')
    expect(csvCell(null)).toBe('')
  })
})

describe('retention', () => {
  test('the cleanup deletes only entries older than the retention, once a day; entries cannot be changed', async () => {
    const admin = t.client()
    const { user } = await registerOrg(admin)
    const organizationId = user.organization.id as string
    const day = 24 * 60 * 60 * 1000
    const now = Date.now()
    const row = (id: string, ageDays: number) => ({ id, organizationId, createdAt: new Date(now - ageDays * day), action: 'sign_out', details: '{}' })
    const ids = { old: crypto.randomUUID(), edge: crypto.randomUUID(), recent: crypto.randomUUID(), later: crypto.randomUUID() }
    await t.deps.db.insert(auditEntries).values([row(ids.old, 401), row(ids.edge, 399), row(ids.recent, 1)])
    const remaining = async () => (await t.deps.db.select({ id: auditEntries.id }).from(auditEntries).where(eq(auditEntries.organizationId, organizationId))).map((r) => r.id)

    expect(t.deps.config.auditRetentionDays).toBe(400)
    await auditUpkeep(t.deps, now)
    let left = await remaining()
    expect(left).not.toContain(ids.old)
    expect(left).toEqual(expect.arrayContaining([ids.edge, ids.recent]))

    // Later the same day another old entry waits for tomorrow's run.
    await t.deps.db.insert(auditEntries).values(row(ids.later, 500))
    await auditUpkeep(t.deps, now + 60_000)
    expect(await remaining()).toContain(ids.later)
    await auditUpkeep(t.deps, now + day + 60_000)
    left = await remaining()
    expect(left).not.toContain(ids.later)
    expect(left).toContain(ids.recent)

    const edited = async () => t.deps.db.update(auditEntries).set({ action: 'tampered' }).where(eq(auditEntries.organizationId, organizationId))
    await expect(edited()).rejects.toThrow()
    expect(await remaining()).toContain(ids.recent)
    // A shorter retention deletes more.
    expect(await deleteExpiredAuditEntries({ db: t.deps.db, config: { ...t.deps.config, auditRetentionDays: 1 } }, now + 3 * day)).toBeGreaterThan(0)
    expect(await remaining()).toEqual([])
  })
})
