import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, spyOn, test } from 'bun:test'
import { createClient as createDbClient } from '@libsql/client'
import { symmetricDecrypt } from 'better-auth/crypto'
import { eq } from 'drizzle-orm'
import { existsSync, readFileSync } from 'node:fs'
import { modelEndpoints, outboxEmails, sessions, verifications } from '../../db/schema'
import { decryptEndpointKey, reencryptEndpointKeys } from '../../src/api/models/endpoint-keys'
import { createApp } from '../../src/app'
import { createDeps } from '../../src/deps'
import { parseConfig } from '../../src/lib/config'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm'
import { BASE_URL, createClient, createTestApp, PASSWORD, registerOrg, type TestClient } from '../support/test-app'

// Password hashing is slow on a busy machine.
setDefaultTimeout(30_000)

const COOKIE = 'kontor.session_token'
const DAY = 24 * 60 * 60 * 1000
const OLD_SECRET = 'test-secret-test-secret-test-secret-0123' // the test app's
const NEW_SECRET = 'a-brand-new-secret-after-the-rotation-4567'

let t: Awaited<ReturnType<typeof createTestApp>>
let fake: FakeLlm
let lines: string[] = []
const spies: { mockRestore(): void }[] = []

beforeAll(async () => {
  fake = await startFakeLlm({ models: ['llama3.1'] })
  // The real logger at level info, its JSON lines caught from the console; no SMTP: mail goes to the outbox.
  t = await createTestApp({ env: { LOG_LEVEL: 'info', KONTOR_FETCH_ALLOWED_HOSTS: '127.0.0.1' } })
  for (const method of ['log', 'error'] as const) spies.push(spyOn(console, method).mockImplementation((line: unknown) => void lines.push(String(line))))
})
afterAll(async () => {
  for (const spy of spies) spy.mockRestore()
  await t.close()
  fake.close()
})
beforeEach(() => {
  lines = []
})

/** The token inside the signed session cookie a client holds (`token.signature`). */
function cookieToken(client: TestClient): string {
  const value = decodeURIComponent(client.cookies.get(COOKIE)!)
  return value.slice(0, value.lastIndexOf('.'))
}

const sha256 = async (text: string) =>
  Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))), (b) => b.toString(16).padStart(2, '0')).join('')

/** Whether the text appears anywhere in the database's files (every table, index and journal). */
function databaseContains(text: string): boolean {
  const file = t.deps.config.database.url.replace(/^file:/, '')
  return [file, `${file}-wal`, `${file}-journal`].some((f) => existsSync(f) && readFileSync(f).includes(text))
}

const sessionRowsOf = (userId: string) => t.deps.db.select().from(sessions).where(eq(sessions.userId, userId))

async function signedIn(email: string, password = PASSWORD) {
  const client = t.client()
  const res = await client.post('/api/auth/login', { email, password })
  expect(res.status).toBe(200)
  return client
}

describe('session tokens are stored hashed', () => {
  test('the database holds only the SHA-256 of the cookie token; sign-in, me and sign-out work', async () => {
    const { email, user } = await registerOrg(t.client())
    const client = await signedIn(email)
    const token = cookieToken(client)
    expect(token.length).toBeGreaterThanOrEqual(32)

    const rows = await sessionRowsOf(user.id)
    expect(rows.map((r) => r.token)).toContain(await sha256(token))
    for (const row of rows) expect(row.token).toMatch(/^[0-9a-f]{64}$/)
    expect(databaseContains(token)).toBe(false)

    expect((await client.get('/api/auth/me')).body.email).toBe(email)
    const cookie = client.cookieHeader()
    expect((await client.post('/api/auth/logout')).status).toBe(200)
    expect((await sessionRowsOf(user.id)).map((r) => r.token)).not.toContain(await sha256(token))
    expect((await t.app.request('/api/auth/me', { headers: { cookie } })).status).toBe(401)
  })

  test('a stored hash is no session: presented in a cookie signed with the real secret, it is refused', async () => {
    const { user } = await registerOrg(t.client())
    const [row] = await sessionRowsOf(user.id)
    const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(t.deps.config.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
    const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(row!.token)))
    const cookie = `${COOKIE}=${encodeURIComponent(`${row!.token}.${btoa(String.fromCharCode(...signature))}`)}`
    expect((await t.app.request('/api/auth/me', { headers: { cookie } })).status).toBe(401)
  })

  test("better-auth's own reads keep working: a session due for extension is extended, still stored hashed", async () => {
    const { email, user } = await registerOrg(t.client())
    const client = await signedIn(email)
    const token = cookieToken(client)
    await t.deps.db.update(sessions).set({ expiresAt: new Date(Date.now() + 28 * DAY) }).where(eq(sessions.token, await sha256(token)))
    expect((await client.get('/api/prompts')).status).toBe(200)
    const [row] = await t.deps.db.select().from(sessions).where(eq(sessions.token, await sha256(token)))
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * DAY)
    // The refreshed cookie carries the token, not its hash.
    expect(cookieToken(client)).toBe(token)
    expect((await client.get('/api/auth/me')).status).toBe(200)
    expect(databaseContains(token)).toBe(false)
    expect(await sessionRowsOf(user.id)).not.toHaveLength(0)
  })

  test('changing the password signs out the other sessions; the new session is stored hashed', async () => {
    const { email } = await registerOrg(t.client())
    const [here, elsewhere] = [await signedIn(email), await signedIn(email)]
    const res = await here.patch('/api/users/password', { currentPassword: PASSWORD, newPassword: 'Fresh456Pass' })
    expect(res.status).toBe(200)
    expect((await elsewhere.get('/api/auth/me')).status).toBe(401)
    expect((await here.get('/api/auth/me')).status).toBe(200)
    expect(databaseContains(cookieToken(here))).toBe(false)
  })

  test('a removed member loses their sessions at once', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const invite = await admin.post('/api/invites', { email: `member-${crypto.randomUUID().slice(0, 8)}@acme.test`, role: 'user' })
    const member = t.client()
    const accepted = await member.post('/api/invites/accept', {
      token: new URL(invite.body.acceptUrl).searchParams.get('token'),
      name: 'Mia Member',
      password: PASSWORD,
      passwordConfirmation: PASSWORD,
    })
    expect(accepted.status).toBe(201)
    expect((await member.get('/api/auth/me')).status).toBe(200)
    expect(databaseContains(cookieToken(member))).toBe(false)
    expect((await admin.delete(`/api/users/${accepted.body.id}`)).status).toBe(204)
    expect(await sessionRowsOf(accepted.body.id)).toHaveLength(0)
    expect((await member.get('/api/auth/me')).status).toBe(401)
  })
})

describe('mail without SMTP', () => {
  test('the log line names kind and recipient only; the link and its token stay in the outbox', async () => {
    const { email } = await registerOrg(t.client())
    expect((await t.client().post('/api/users/forgot-password', { email })).status).toBe(200)
    const [mail] = await t.deps.db.select().from(outboxEmails).where(eq(outboxEmails.to, email))
    const token = new URL(mail!.text.match(/https?:\/\/\S+/)![0]).searchParams.get('token')!
    expect(token.length).toBeGreaterThan(10)

    const logged = lines.filter((line) => line.includes('"mail (no SMTP configured)'))
    expect(logged).toHaveLength(1)
    const entry = JSON.parse(logged[0]!)
    expect(entry).toMatchObject({ level: 'info', kind: 'resetPassword', to: email, outboxId: mail!.id })
    expect(Object.keys(entry).sort()).toEqual(['kind', 'level', 'msg', 'outboxId', 'time', 'to'])
    for (const line of lines) {
      expect(line).not.toContain(token)
      expect(line).not.toContain(encodeURIComponent(token))
      expect(line).not.toContain('/password/reset')
    }

    // The reset token is kept hashed too (the outbox has the mail as sent); the mailed one works.
    const stored = await t.deps.db.select().from(verifications)
    expect(stored.length).toBeGreaterThan(0)
    expect(JSON.stringify(stored)).not.toContain(token)
    const reset = await t.client().post('/api/users/reset-password', { token, password: 'Fresh456Pass' })
    expect(reset.status).toBe(200)
    expect((await t.client().post('/api/auth/login', { email, password: 'Fresh456Pass' })).status).toBe(200)
  })

  test('an invitation mail is logged by kind and recipient, without its link', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const to = `invitee-${crypto.randomUUID().slice(0, 8)}@acme.test`
    const invite = await admin.post('/api/invites', { email: to, role: 'user' })
    expect(invite.status).toBe(201)
    const token = new URL(invite.body.acceptUrl).searchParams.get('token')!
    const entry = lines.map((line) => JSON.parse(line)).find((e) => e.msg === 'mail (no SMTP configured), kept in the outbox')
    expect(entry).toMatchObject({ kind: 'invite', to })
    for (const line of lines) expect(line).not.toContain(token)
  })
})

describe('rotating KONTOR_SECRET: endpoint keys', () => {
  /** Kontor on the test app's database with other secrets, as after a restart with a new environment. */
  function restartedWith(env: Record<string, string>) {
    const url = t.deps.config.database.url
    const config = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', KONTOR_BASE_URL: BASE_URL, KONTOR_TRUST_PROXY: 'true', DATABASE_URL: url, KONTOR_FETCH_ALLOWED_HOSTS: '127.0.0.1', ...env })
    const db = createDbClient({ url })
    const deps = createDeps(config, { client: db })
    const app = createApp(deps)
    return { deps, client: () => createClient(app), close: () => db.close() }
  }

  async function orgWithEndpoint(apiKey: string) {
    const admin = t.client()
    const org = await registerOrg(admin)
    const res = await admin.post('/api/models/endpoints', { name: 'Our vLLM', baseUrl: `${fake.url}/v1`, apiKey })
    expect(res.status).toBe(201)
    return { email: org.email, endpointId: res.body.id as string }
  }
  const storedKey = async (id: string) => (await t.deps.db.select().from(modelEndpoints).where(eq(modelEndpoints.id, id)))[0]!.apiKeyEncrypted!
  const keyFakeSaw = () => fake.requests.filter((r) => r.path === '/v1/models').at(-1)?.headers.authorization

  test('with the previous secret set, a key is read with it and encrypted again with the new one when used', async () => {
    const { email, endpointId } = await orgWithEndpoint('key-used-after-rotation')
    const before = await storedKey(endpointId)
    const rotated = restartedWith({ KONTOR_SECRET: NEW_SECRET, KONTOR_SECRET_PREVIOUS: OLD_SECRET })
    try {
      const admin = rotated.client()
      // Sessions were signed with the old secret: everyone signs in again.
      expect((await admin.post('/api/auth/login', { email, password: PASSWORD })).status).toBe(200)
      const available = await admin.get('/api/models/available')
      expect(available.status).toBe(200)
      expect(available.body.unreachableProviders).toEqual([])
      expect(keyFakeSaw()).toBe('Bearer key-used-after-rotation')
      const after = await storedKey(endpointId)
      expect(after).not.toBe(before)
      expect(await symmetricDecrypt({ key: NEW_SECRET, data: after })).toBe('key-used-after-rotation')
    } finally {
      rotated.close()
    }
  })

  test('the run at start moves every key, after which the previous secret can go', async () => {
    const first = await orgWithEndpoint('first-key')
    const second = await orgWithEndpoint('second-key')
    const rotated = restartedWith({ KONTOR_SECRET: NEW_SECRET, KONTOR_SECRET_PREVIOUS: OLD_SECRET })
    try {
      expect(await reencryptEndpointKeys(rotated.deps)).toBeGreaterThanOrEqual(2)
      expect(await reencryptEndpointKeys(rotated.deps)).toBe(0)
    } finally {
      rotated.close()
    }
    expect(await symmetricDecrypt({ key: NEW_SECRET, data: await storedKey(first.endpointId) })).toBe('first-key')
    expect(await symmetricDecrypt({ key: NEW_SECRET, data: await storedKey(second.endpointId) })).toBe('second-key')

    const done = restartedWith({ KONTOR_SECRET: NEW_SECRET })
    try {
      const admin = done.client()
      expect((await admin.post('/api/auth/login', { email: second.email, password: PASSWORD })).status).toBe(200)
      expect((await admin.get('/api/models/available')).body.unreachableProviders).toEqual([])
      expect(keyFakeSaw()).toBe('Bearer second-key')
    } finally {
      done.close()
    }
  })

  test('a secret changed without the previous one leaves a key unreadable, and the log says why', async () => {
    const { endpointId } = await orgWithEndpoint('stranded-key')
    const changed = restartedWith({ KONTOR_SECRET: NEW_SECRET, LOG_LEVEL: 'error' })
    try {
      await expect(decryptEndpointKey(changed.deps, { id: endpointId, apiKeyEncrypted: await storedKey(endpointId) })).rejects.toThrow()
      expect(lines.some((line) => line.includes('KONTOR_SECRET_PREVIOUS') && line.includes(endpointId))).toBe(true)
    } finally {
      changed.close()
    }
  })
})
