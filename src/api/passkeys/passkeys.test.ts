import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { generateKeyPairSync } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { auditEntries, ssoDomains, ssoProviders, users } from '../../../db/schema'
import { BASE_URL, createTestApp, joinAsMember, PASSWORD, registerOrg, type TestClient } from '../../../tests/support/test-app'
import { softwarePasskey } from '../../../tests/support/webauthn'

// Password hashing is slow on a busy machine.
setDefaultTimeout(30_000)

let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

type Authenticator = ReturnType<typeof softwarePasskey>

async function addPasskey(client: TestClient, name: string, authenticator: Authenticator = softwarePasskey(BASE_URL)) {
  const options = await client.post('/api/passkeys/options')
  expect(options.status).toBe(200)
  expect(options.body.rp).toEqual({ id: 'localhost', name: 'Kontor' })
  const added = await client.post('/api/passkeys', { name, response: authenticator.register(options.body) })
  expect(added.status, JSON.stringify(added.body)).toBe(201)
  return { authenticator, passkey: added.body as { id: string; name: string } }
}

async function signInWithPasskey(authenticator: Authenticator, client = t.client()) {
  const options = await client.post('/api/auth/passkey/options')
  expect(options.status).toBe(200)
  const response = authenticator.authenticate(options.body)
  return { client, response, res: await client.post('/api/auth/passkey', { response }) }
}

const audited = async (organizationId: string, action: string) =>
  t.deps.db.select().from(auditEntries).where(and(eq(auditEntries.organizationId, organizationId), eq(auditEntries.action, action)))

describe('passkeys', () => {
  test('a member adds, renames and lists a passkey; it signs in without a password, once per challenge', async () => {
    const admin = t.client()
    const { email, user } = await registerOrg(admin)
    const { authenticator, passkey } = await addPasskey(admin, 'Laptop')
    expect((await admin.get('/api/passkeys')).body).toEqual([expect.objectContaining({ id: passkey.id, name: 'Laptop' })])
    expect((await admin.patch(`/api/passkeys/${passkey.id}`, { name: 'Work laptop' })).body).toMatchObject({ name: 'Work laptop' })
    expect((await admin.patch(`/api/passkeys/${passkey.id}`, { name: '' })).body.code).toBe('VALIDATION_FAILED')

    const { client, response, res } = await signInWithPasskey(authenticator)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ email })
    expect((await client.get('/api/threads')).status).toBe(200)
    // The challenge was used up: the same answer again is refused.
    expect((await client.post('/api/auth/passkey', { response })).body.code).toBe('PASSKEY_FAILED')
    const entries = await audited(user.organization.id, 'sign_in.succeeded')
    expect(entries.some((e) => JSON.parse(e.details).method === 'passkey')).toBe(true)
    expect(await audited(user.organization.id, 'passkey.added')).toHaveLength(1)
  })

  test('with a passkey, a correct password is not enough: the passkey completes the sign-in', async () => {
    const admin = t.client()
    const { email } = await registerOrg(admin)
    const { authenticator } = await addPasskey(admin, 'Phone')
    const browser = t.client()
    const res = await browser.post('/api/auth/login', { email, password: PASSWORD })
    expect(res.body).toEqual({ twoFactorRequired: true, methods: ['passkey'] })
    expect((await browser.get('/api/auth/me')).status).toBe(401)
    expect((await signInWithPasskey(authenticator, browser)).res.status).toBe(200)
    expect((await browser.get('/api/auth/me')).status).toBe(200)
  })

  test('a wrong signature, an unknown passkey, an unverified person or a deactivated member is refused clearly', async () => {
    const admin = t.client()
    const { email } = await registerOrg(admin)
    const { authenticator } = await addPasskey(admin, 'Key')
    const client = t.client()
    const options = (await client.post('/api/auth/passkey/options')).body
    const forged = authenticator.authenticate(options, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey)
    const refused = await client.post('/api/auth/passkey', { response: forged })
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe('PASSKEY_FAILED')
    expect((await signInWithPasskey(softwarePasskey(BASE_URL))).res.body.code).toBe('PASSKEY_FAILED')
    // Touched, but without the PIN or biometrics: not enough to sign in alone.
    const unverified = authenticator.authenticate((await client.post('/api/auth/passkey/options')).body, undefined, { userVerified: false })
    expect((await client.post('/api/auth/passkey', { response: unverified })).body.code).toBe('PASSKEY_FAILED')
    // A member deactivated by the directory gets no session with their passkey either.
    await t.deps.db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.email, email))
    const deactivated = (await signInWithPasskey(authenticator)).res
    expect(deactivated.status).toBe(400)
    expect(deactivated.body.code).toBe('PASSKEY_FAILED')
    await t.deps.db.update(users).set({ deactivatedAt: null }).where(eq(users.email, email))
    // A passkey made for another site is refused when added.
    const elsewhere = softwarePasskey('https://evil.example')
    const added = await admin.post('/api/passkeys', { name: 'Evil', response: elsewhere.register((await admin.post('/api/passkeys/options')).body) })
    expect(added.body.code).toBe('PASSKEY_FAILED')
  })

  test('challenges are limited per address: 30 a minute, then 429 with Retry-After', async () => {
    const client = t.client()
    client.setIp('10.77.1.2')
    const answers = []
    for (let i = 0; i < 31; i++) answers.push(await client.post('/api/auth/passkey/options'))
    expect(answers.slice(0, 30).every((a) => a.status === 200)).toBe(true)
    expect(answers[30]!.status).toBe(429)
    expect(answers[30]!.body.code).toBe('TOO_MANY_REQUESTS')
    expect(answers[30]!.headers.get('retry-after')).toBeTruthy()
    // Another address is not held back.
    const other = t.client()
    other.setIp('10.78.1.2')
    expect((await other.post('/api/auth/passkey/options')).status).toBe(200)
  })

  test("a passkey meets the organisation's requirement; only its owner renames or removes it", async () => {
    const admin = t.client()
    const { user } = await registerOrg(admin)
    const member = await joinAsMember(t, admin)
    expect((await admin.put('/api/two-factor/requirement', { required: true })).status).toBe(200)
    expect((await member.client.get('/api/threads')).body.code).toBe('TWO_FACTOR_REQUIRED')
    const { passkey, authenticator } = await addPasskey(member.client, 'Security key')
    expect((await member.client.get('/api/threads')).status).toBe(200)
    expect((await member.client.get('/api/two-factor')).body).toMatchObject({ passkeys: 1, required: true })

    // The admin (of the same organisation) cannot touch the member's passkey.
    expect((await admin.patch(`/api/passkeys/${passkey.id}`, { name: 'Mine' })).status).toBe(404)
    expect((await admin.delete(`/api/passkeys/${passkey.id}`)).status).toBe(404)

    expect((await member.client.delete(`/api/passkeys/${passkey.id}`)).status).toBe(204)
    expect(await audited(user.organization.id, 'passkey.removed')).toHaveLength(1)
    expect((await member.client.get('/api/threads')).body.code).toBe('TWO_FACTOR_REQUIRED')
    expect((await signInWithPasskey(authenticator)).res.body.code).toBe('PASSKEY_FAILED')
  })

  test('an organisation that signs in only through its identity provider refuses passkey sign-ins', async () => {
    const admin = t.client()
    const { email, user } = await registerOrg(admin, { email: `ada@${crypto.randomUUID().slice(0, 8)}.sso-only.test` })
    const { authenticator } = await addPasskey(admin, 'Laptop')
    await t.deps.db.insert(ssoProviders).values({ id: crypto.randomUUID(), providerId: `p-${user.organization.id}`, issuer: 'https://idp.example', organizationId: user.organization.id, passwordSignIn: false })
    await t.deps.db.insert(ssoDomains).values({ domain: email.split('@')[1]!, organizationId: user.organization.id, verificationToken: 'x', verifiedAt: new Date() })
    const { client, res } = await signInWithPasskey(authenticator)
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('PASSWORD_SIGN_IN_DISABLED')
    expect((await client.get('/api/auth/me')).status).toBe(401)
  })
})
