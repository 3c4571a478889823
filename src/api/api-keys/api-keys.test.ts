import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { apiKeys } from '../../../db/schema'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { createTestApp, enableOpenAiModels, PASSWORD, registerOrg, type TestClient } from '../../../tests/support/test-app'

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-keys', OPENAI_BASE_URL: `${fake.url}/v1` } })
})
afterAll(async () => {
  await t.close()
  fake.close()
})

/** An organisation with an admin, a member and one permitted model. */
async function orgSetup() {
  const admin = t.client()
  await registerOrg(admin)
  await enableOpenAiModels(admin, ['openai/gpt-4.1'])
  const invite = (await admin.post('/api/invites', { email: `m-${crypto.randomUUID().slice(0, 8)}@acme.test`, role: 'user' })).body
  const member = t.client()
  const token = new URL(invite.acceptUrl).searchParams.get('token')
  const accepted = await member.post('/api/invites/accept', { token, name: 'Mia Member', password: PASSWORD, passwordConfirmation: PASSWORD })
  return { admin, member, memberId: accepted.body.id as string }
}

const models = (key: string) => t.app.request('/v1/models', { headers: { authorization: `Bearer ${key}` } })
const createKey = (client: TestClient, body: Record<string, unknown> = { name: 'Laptop' }) => client.post('/api/api-keys', body)

describe('API keys', () => {
  test('a key is shown once, kept only as a hash, and works as a bearer token', async () => {
    const { member } = await orgSetup()
    const created = await createKey(member, { name: 'Laptop script' })
    expect(created.status).toBe(201)
    const key = created.body.key as string
    expect(key).toMatch(/^kontor_[A-Za-z]{64}$/)
    expect(created.body).toMatchObject({ name: 'Laptop script', start: key.slice(0, 11), expiresAt: null, lastUsedAt: null, owner: { name: 'Mia Member' } })

    // The database holds its SHA-256, not the key.
    const row = await t.deps.db.query.apiKeys.findFirst({ where: eq(apiKeys.id, created.body.id) })
    expect(row!.key).not.toBe(key)
    expect(JSON.stringify(row)).not.toContain(key.slice(7))
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)))
    expect(row!.key).toBe(btoa(String.fromCharCode(...digest)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''))

    // Listed without the key; the last use shows after a call.
    const listed = (await member.get('/api/api-keys')).body
    expect(listed).toEqual([{ ...created.body, key: undefined }].map(({ key: _, ...rest }) => rest))
    expect(JSON.stringify(listed)).not.toContain(key)
    expect((await models(key)).status).toBe(200)
    expect((await member.get('/api/api-keys')).body[0].lastUsedAt).toEqual(expect.any(String))
  })

  test('bad input is refused with the field named', async () => {
    const { member } = await orgSetup()
    for (const [body, field] of [
      [{}, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(65) }, 'name'],
      [{ name: 'K', expiresInDays: 0 }, 'expiresInDays'],
      [{ name: 'K', expiresInDays: 366 }, 'expiresInDays'],
      [{ name: 'K', expiresInDays: 1.5 }, 'expiresInDays'],
      [{ name: 'K', expiresInDays: '30' }, 'expiresInDays'],
    ] as const) {
      const res = await createKey(member, body)
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'VALIDATION_FAILED' })
      expect(Object.keys(res.body.fields)).toEqual([field])
    }
    expect((await member.get('/api/api-keys?scope=everything')).status).toBe(400)
  })

  test('a key with an expiry works until then and is refused after it', async () => {
    const { member } = await orgSetup()
    const created = (await createKey(member, { name: 'Short', expiresInDays: 7 })).body
    const days = (Date.parse(created.expiresAt) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(6.9)
    expect(days).toBeLessThanOrEqual(7)
    expect((await models(created.key)).status).toBe(200)
    await t.deps.db.update(apiKeys).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(apiKeys.id, created.id))
    const res = await models(created.key)
    expect(res.status).toBe(401)
    expect((await res.json()).error).toMatchObject({ code: 'invalid_api_key', type: 'invalid_request_error' })
  })

  test('members see and revoke their own keys only; admins see and revoke every key of the organisation', async () => {
    const { admin, member, memberId } = await orgSetup()
    const memberKey = (await createKey(member, { name: 'Member key' })).body
    const adminKey = (await createKey(admin, { name: 'Admin key' })).body

    expect((await member.get('/api/api-keys')).body.map((k: { name: string }) => k.name)).toEqual(['Member key'])
    expect((await admin.get('/api/api-keys')).body.map((k: { name: string }) => k.name)).toEqual(['Admin key'])
    expect((await member.get('/api/api-keys?scope=organization')).status).toBe(403)
    const all = (await admin.get('/api/api-keys?scope=organization')).body
    expect(all.map((k: { name: string; owner: { id: string } }) => [k.name, k.owner.id === memberId])).toEqual([
      ['Admin key', false],
      ['Member key', true],
    ])

    // A member cannot revoke the admin's key (nor learn that it exists).
    const refused = await member.delete(`/api/api-keys/${adminKey.id}`)
    expect(refused.status).toBe(404)
    expect(refused.body.code).toBe('API_KEY_NOT_FOUND')
    expect((await models(adminKey.key)).status).toBe(200)

    // The admin revokes the member's key: it stops working at once.
    expect((await models(memberKey.key)).status).toBe(200)
    expect((await admin.delete(`/api/api-keys/${memberKey.id}`)).status).toBe(204)
    expect((await models(memberKey.key)).status).toBe(401)
    expect((await member.get('/api/api-keys')).body).toEqual([])
    expect((await admin.delete(`/api/api-keys/${memberKey.id}`)).status).toBe(404)

    // The owner revokes their own.
    expect((await admin.delete(`/api/api-keys/${adminKey.id}`)).status).toBe(204)
    expect((await models(adminKey.key)).status).toBe(401)
  })

  test('another organisation neither sees nor revokes the keys', async () => {
    const { member } = await orgSetup()
    const key = (await createKey(member, { name: 'Secret Org key' })).body
    const other = t.client()
    await registerOrg(other)
    const listed = await other.get('/api/api-keys?scope=organization')
    expect(listed.status).toBe(200)
    expect(JSON.stringify(listed.body)).not.toContain('Secret Org key')
    expect((await other.delete(`/api/api-keys/${key.id}`)).status).toBe(404)
    expect((await models(key.key)).status).toBe(200)
  })

  test('a removed member\'s key stops working at once', async () => {
    const { admin, member, memberId } = await orgSetup()
    const key = (await createKey(member)).body
    expect((await models(key.key)).status).toBe(200)
    expect((await admin.delete(`/api/users/${memberId}`)).status).toBe(204)
    expect((await models(key.key)).status).toBe(401)
  })

  test('an admin switches API access off: keys stop working and no new ones are made, until it is back on', async () => {
    const { admin, member } = await orgSetup()
    const key = (await createKey(member)).body
    expect((await member.get('/api/api-keys/settings')).body).toEqual({ apiAccess: true })
    expect((await member.put('/api/api-keys/settings', { apiAccess: false })).status).toBe(403)
    expect((await admin.put('/api/api-keys/settings', { apiAccess: 'no' })).status).toBe(400)
    expect((await admin.put('/api/api-keys/settings', { apiAccess: false })).body).toEqual({ apiAccess: false })

    const res = await models(key.key)
    expect(res.status).toBe(403)
    expect((await res.json()).error).toMatchObject({ code: 'api_access_disabled', type: 'permission_error' })
    const refused = await createKey(member)
    expect([refused.status, refused.body.code]).toEqual([403, 'API_ACCESS_DISABLED'])
    expect((await member.get('/api/api-keys/settings')).body).toEqual({ apiAccess: false })

    await admin.put('/api/api-keys/settings', { apiAccess: true })
    expect((await models(key.key)).status).toBe(200)
  })
})
