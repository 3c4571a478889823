import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { accounts, auditEntries } from '../../../db/schema'
import { createTestApp, joinAsMember, PASSWORD, registerOrg, type TestClient } from '../../../tests/support/test-app'
import { totpCode } from '../../../tests/support/totp'
import { reencryptTwoFactorSecrets } from './secrets'

// Password hashing is slow on a busy machine.
setDefaultTimeout(30_000)

let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const actionsOf = async (organizationId: string) =>
  (await t.deps.db.select({ action: auditEntries.action }).from(auditEntries).where(eq(auditEntries.organizationId, organizationId))).map((e) => e.action)

/** Sets up an authenticator app for a signed-in client; returns its secret and recovery codes. */
async function enrol(client: TestClient) {
  const started = await client.post('/api/two-factor/totp', { password: PASSWORD })
  expect(started.status).toBe(200)
  const { secret, recoveryCodes, totpUri } = started.body as { secret: string; recoveryCodes: string[]; totpUri: string }
  expect(totpUri).toStartWith('otpauth://totp/Kontor:')
  expect(recoveryCodes).toHaveLength(10)
  const verified = await client.post('/api/two-factor/totp/verify', { code: totpCode(secret) })
  expect(verified.status).toBe(200)
  expect(verified.body).toMatchObject({ totp: true, recoveryCodesLeft: 10 })
  return { secret, recoveryCodes }
}

/** A fresh browser that types the password: the answer asks for the second factor. */
async function passwordStep(email: string) {
  const browser = t.client()
  const res = await browser.post('/api/auth/login', { email, password: PASSWORD })
  expect(res.status).toBe(200)
  return { browser, res }
}

describe('authenticator app', () => {
  test('enrolment needs the password and a first code; then a sign-in asks for a code, and a wrong one is refused clearly', async () => {
    const admin = t.client()
    const { email, user } = await registerOrg(admin)
    expect((await admin.post('/api/two-factor/totp', { password: 'Wrong1234' })).body.code).toBe('CURRENT_PASSWORD_INCORRECT')
    const started = await admin.post('/api/two-factor/totp', { password: PASSWORD })
    // Not set up until a code is entered: a wrong code changes nothing.
    expect((await admin.post('/api/two-factor/totp/verify', { code: '000000' })).body.code).toBe('INVALID_TWO_FACTOR_CODE')
    expect((await admin.get('/api/two-factor')).body).toMatchObject({ totp: false, hasPassword: true, required: false })
    const verified = await admin.post('/api/two-factor/totp/verify', { code: totpCode(started.body.secret) })
    expect(verified.status).toBe(200)
    // The session was renewed and still works.
    expect((await admin.get('/api/auth/me')).status).toBe(200)
    expect((await admin.post('/api/two-factor/totp', { password: PASSWORD })).body.code).toBe('TWO_FACTOR_ALREADY_ENABLED')

    const { browser, res } = await passwordStep(email)
    expect(res.body).toEqual({ twoFactorRequired: true, methods: ['totp'] })
    // No session yet.
    expect((await browser.get('/api/auth/me')).status).toBe(401)
    const wrong = await browser.post('/api/auth/two-factor', { code: '123456' === totpCode(started.body.secret) ? '654321' : '123456' })
    expect(wrong.status).toBe(401)
    expect(wrong.body.code).toBe('INVALID_TWO_FACTOR_CODE')
    const right = await browser.post('/api/auth/two-factor', { code: totpCode(started.body.secret) })
    expect(right.status).toBe(200)
    expect(right.body).toMatchObject({ email, twoFactorSetupRequired: false })
    expect((await browser.get('/api/threads')).status).toBe(200)

    // Without a pending sign-in there is nothing to complete.
    expect((await t.client().post('/api/auth/two-factor', { code: '123456' })).body.code).toBe('TWO_FACTOR_SIGN_IN_EXPIRED')
    expect(await actionsOf(user.organization.id)).toEqual(expect.arrayContaining(['two_factor.enabled', 'sign_in.two_factor_failed', 'sign_in.succeeded']))
  })

  test('a recovery code signs in once; new codes replace the old; removing the app needs the password', async () => {
    const admin = t.client()
    const { email, user } = await registerOrg(admin)
    const { recoveryCodes } = await enrol(admin)

    const first = await passwordStep(email)
    const used = await first.browser.post('/api/auth/two-factor', { code: recoveryCodes[0], kind: 'recovery' })
    expect(used.status).toBe(200)
    expect((await first.browser.get('/api/two-factor')).body.recoveryCodesLeft).toBe(9)

    const again = await passwordStep(email)
    const reused = await again.browser.post('/api/auth/two-factor', { code: recoveryCodes[0], kind: 'recovery' })
    expect(reused.status).toBe(401)
    expect(reused.body.code).toBe('INVALID_TWO_FACTOR_CODE')

    const renewed = await admin.post('/api/two-factor/recovery-codes', { password: PASSWORD })
    expect(renewed.status).toBe(200)
    expect(renewed.body.recoveryCodes).toHaveLength(10)
    expect((await again.browser.post('/api/auth/two-factor', { code: recoveryCodes[1], kind: 'recovery' })).body.code).toBe('INVALID_TWO_FACTOR_CODE')
    expect((await again.browser.post('/api/auth/two-factor', { code: renewed.body.recoveryCodes[0], kind: 'recovery' })).status).toBe(200)

    expect((await admin.post('/api/two-factor/totp/disable', { password: 'Wrong1234' })).body.code).toBe('CURRENT_PASSWORD_INCORRECT')
    const disabled = await admin.post('/api/two-factor/totp/disable', { password: PASSWORD })
    expect(disabled.status).toBe(200)
    expect(disabled.body).toMatchObject({ totp: false, recoveryCodesLeft: null })
    expect((await admin.get('/api/auth/me')).status).toBe(200)
    const plain = await passwordStep(email)
    expect(plain.res.body).toMatchObject({ email })
    expect(await actionsOf(user.organization.id)).toEqual(expect.arrayContaining(['two_factor.recovery_codes_renewed', 'two_factor.disabled']))
  })

  test('wrong codes count towards the sign-in limits', async () => {
    const admin = t.client()
    const { email } = await registerOrg(admin)
    await enrol(admin)
    const { browser } = await passwordStep(email)
    const statuses = []
    for (let i = 0; i < 5; i++) statuses.push((await browser.post('/api/auth/two-factor', { code: `99999${i}` })).status)
    expect(statuses).toEqual([401, 401, 401, 401, 401])
    // Entering the password again does not forget them: this account from this address is held back.
    const held = await browser.post('/api/auth/login', { email, password: PASSWORD })
    expect(held.status).toBe(429)
    expect(held.body.code).toBe('TOO_MANY_LOGIN_ATTEMPTS')
  })
})

describe('the second step holds', () => {
  test("a session cookie beside the pending sign-in's cookie does not let another member's code count", async () => {
    const victim = t.client()
    const { email } = await registerOrg(victim)
    await enrol(victim)
    const attacker = t.client()
    await registerOrg(attacker)
    const own = await enrol(attacker)
    // The attacker knows the victim's password: the pending sign-in's cookie, beside the attacker's own session.
    const pending = t.client()
    await pending.post('/api/auth/login', { email, password: PASSWORD })
    for (const [name, value] of pending.cookies) if (!name.includes('session_')) attacker.cookies.set(name, value)
    const answer = await attacker.post('/api/auth/two-factor', { code: totpCode(own.secret) })
    expect(answer.status).toBe(401)
    expect(JSON.stringify(answer.body)).not.toContain(email)
    const victimId = (await victim.get('/api/auth/me')).body.id as string
    const succeeded = await t.deps.db.select().from(auditEntries).where(and(eq(auditEntries.action, 'sign_in.succeeded'), eq(auditEntries.targetId, victimId)))
    expect(succeeded.filter((e) => JSON.parse(e.details).secondFactor)).toEqual([])
  })

  test('codes sent at the same moment are counted before they are checked: at most ten per member in a quarter of an hour', async () => {
    const admin = t.client()
    const { email } = await registerOrg(admin)
    const { secret } = await enrol(admin)
    const right = totpCode(secret)
    const wrong = right === '111111' ? '222222' : '111111'
    // Several pending sign-ins (from several addresses), each sending its guesses at once.
    const browsers = await Promise.all(
      Array.from({ length: 4 }, async (_, i) => {
        const b = t.client()
        b.setIp(`10.9.${i}.1`)
        await b.post('/api/auth/login', { email, password: PASSWORD })
        return b
      }),
    )
    const answers = await Promise.all(browsers.flatMap((b) => Array.from({ length: 4 }, () => b.post('/api/auth/two-factor', { code: wrong }))))
    const limited = answers.filter((a) => a.body.code === 'TOO_MANY_LOGIN_ATTEMPTS')
    expect(answers.length - limited.length).toBeLessThanOrEqual(10)
    expect(limited.length).toBeGreaterThanOrEqual(6)
    expect(limited[0]!.headers.get('retry-after')).toBeTruthy()
    // The right code waits too, until the quarter of an hour is over.
    const late = t.client()
    late.setIp('10.9.9.9')
    await late.post('/api/auth/login', { email, password: PASSWORD })
    expect((await late.post('/api/auth/two-factor', { code: right })).body.code).toBe('TOO_MANY_LOGIN_ATTEMPTS')
  })

  test('a password over 128 characters is a field error; a second first code for an app in use is refused', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const long = await admin.post('/api/two-factor/totp', { password: 'A1a'.repeat(50) })
    expect(long.status).toBe(400)
    expect(long.body).toMatchObject({ code: 'VALIDATION_FAILED', fields: { password: expect.any(String) } })
    const { secret } = await enrol(admin)
    expect((await admin.post('/api/two-factor/totp/verify', { code: totpCode(secret) })).body.code).toBe('TWO_FACTOR_ALREADY_ENABLED')
  })
})

describe('rotating KONTOR_SECRET', () => {
  test("authenticator apps are moved to the new secret at start, and their members sign in with codes as before", async () => {
    const admin = t.client()
    const { email } = await registerOrg(admin)
    const { secret, recoveryCodes } = await enrol(admin)
    // The same database served with a new secret, the old one as KONTOR_SECRET_PREVIOUS.
    const rotated = await createTestApp({
      databaseUrl: t.databaseUrl,
      env: { KONTOR_SECRET: 'rotated-secret-rotated-secret-0123456789', KONTOR_SECRET_PREVIOUS: 'test-secret-test-secret-test-secret-0123' },
    })
    try {
      expect(await reencryptTwoFactorSecrets(rotated.deps)).toBeGreaterThanOrEqual(1)
      expect(await reencryptTwoFactorSecrets(rotated.deps)).toBe(0)
      const browser = rotated.client()
      expect((await browser.post('/api/auth/login', { email, password: PASSWORD })).body).toMatchObject({ twoFactorRequired: true })
      const signedIn = await browser.post('/api/auth/two-factor', { code: totpCode(secret) })
      expect(signedIn.status).toBe(200)
      expect((await browser.get('/api/auth/me')).body.email).toBe(email)
      // The recovery codes moved too.
      const other = rotated.client()
      await other.post('/api/auth/login', { email, password: PASSWORD })
      expect((await other.post('/api/auth/two-factor', { code: recoveryCodes[0], kind: 'recovery' })).status).toBe(200)
    } finally {
      await rotated.close()
    }
  })
})

describe('organisation requirement', () => {
  test('when on, a member with a password and no second factor can only set one up; members without a password are not affected', async () => {
    const admin = t.client()
    const { user } = await registerOrg(admin)
    const member = await joinAsMember(t, admin)
    const ssoOnly = await joinAsMember(t, admin, 'user', 'Sam Sso')
    // A member who signs in through the identity provider only: no password.
    await t.deps.db
      .update(accounts)
      .set({ providerId: 'acme-sso', password: null })
      .where(and(eq(accounts.userId, ssoOnly.id), eq(accounts.providerId, 'credential')))

    expect((await member.client.put('/api/two-factor/requirement', { required: true })).status).toBe(403)
    const on = await admin.put('/api/two-factor/requirement', { required: true })
    expect(on.body).toEqual({ required: true })

    // The admin themselves has no second factor either.
    expect((await admin.get('/api/auth/me')).body.twoFactorSetupRequired).toBe(true)
    const refused = await member.client.get('/api/threads')
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('TWO_FACTOR_REQUIRED')
    expect((await member.client.get('/api/auth/me')).body.twoFactorSetupRequired).toBe(true)
    expect((await member.client.get('/api/two-factor')).body).toMatchObject({ required: true, totp: false })
    const signIn = await t.client().post('/api/auth/login', { email: member.email, password: PASSWORD })
    expect(signIn.body.twoFactorSetupRequired).toBe(true)

    expect((await ssoOnly.client.get('/api/threads')).status).toBe(200)
    expect((await ssoOnly.client.get('/api/auth/me')).body.twoFactorSetupRequired).toBe(false)

    await enrol(member.client)
    expect((await member.client.get('/api/threads')).status).toBe(200)
    expect((await member.client.get('/api/auth/me')).body.twoFactorSetupRequired).toBe(false)

    // Enrolment is open to the admin, and switching the requirement off lets them back in.
    expect((await admin.put('/api/two-factor/requirement', { required: false })).status).toBe(403)
    await enrol(admin)
    expect((await admin.put('/api/two-factor/requirement', { required: false })).body).toEqual({ required: false })
    expect(await actionsOf(user.organization.id)).toEqual(expect.arrayContaining(['two_factor.requirement_changed']))
  })

  test("another organisation's admin changes only their own organisation", async () => {
    const admin = t.client()
    await registerOrg(admin)
    const other = t.client()
    await registerOrg(other)
    expect((await other.put('/api/two-factor/requirement', { required: true })).body).toEqual({ required: true })
    expect((await admin.get('/api/two-factor/requirement')).body).toEqual({ required: false })
    expect((await admin.get('/api/threads')).status).toBe(200)
  })
})
