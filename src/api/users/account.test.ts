import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { createEmailVerificationToken } from 'better-auth/api'
import { eq } from 'drizzle-orm'
import { users } from '../../../db/schema'
import { linkFrom } from '../../../tests/support/smtp-sink'
import { createTestApp, PASSWORD, registerOrg, type TestClient } from '../../../tests/support/test-app'

// bunfig's [test] timeout is not read by bun test; password hashing is slow on a busy machine.
setDefaultTimeout(20_000)

const PASSWORD_MESSAGE = 'Invalid password. Must be at least 8 characters, uppercase, lowercase and numbers.'
const NEW_PASSWORD = 'Fresh456Pass'
const CONFIRM_SUBJECT = { en: 'Confirm your e-mail address for Kontor', de: 'Bestätigen Sie Ihre E-Mail-Adresse für Kontor' }
const RESET_SUBJECT = { en: 'Reset your Kontor password', de: 'Ihr Kontor-Passwort zurücksetzen' }

let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  t = await createTestApp({ smtp: true })
})
afterAll(() => t.close())

const mailsTo = (email: string) => t.sink!.mails.filter((m) => m.to.includes(email))
const tokenFrom = async (email: string, path: string, subject: string) =>
  linkFrom(await t.sink!.waitForMail(email, (m) => m.subject === subject), path).searchParams.get('token')!

/** Registers and confirms through the mail link: a verified admin, signed in on the returned client. */
async function verifiedUser(overrides: Parameters<typeof registerOrg>[1] = {}) {
  const client = t.client()
  const reg = await registerOrg(client, overrides)
  const token = await tokenFrom(reg.email, '/confirm-email', CONFIRM_SUBJECT[reg.locale])
  expect((await client.post('/api/users/confirm-email', { token })).status).toBe(200)
  return { client, ...reg }
}

async function signedIn(email: string, password = PASSWORD): Promise<TestClient> {
  const client = t.client()
  const res = await client.post('/api/auth/login', { email, password })
  expect(res.status).toBe(200)
  return client
}

describe('registration with SMTP', () => {
  test('GET /api says that mail is delivered', async () => {
    expect((await t.client().get('/api')).body).toEqual({ isCloud: false, registrationDisabled: false, emailDelivery: true, mailPage: true })
  })

  test('creates an unverified admin and mails the confirmation in German', async () => {
    const client = t.client()
    const { email, user } = await registerOrg(client, { locale: 'de' })
    expect(user).toMatchObject({ email, role: 'admin', emailVerified: false, locale: 'de' })
    const mail = await t.sink!.waitForMail(email)
    expect(mail.subject).toBe(CONFIRM_SUBJECT.de)
    expect(mail.text).toContain('Hallo')
    expect(linkFrom(mail, '/confirm-email').origin).toBe('http://localhost:3000')
  })

  test('mails the confirmation in English for an English registration', async () => {
    const { email } = await registerOrg(t.client(), { locale: 'en' })
    const mail = await t.sink!.waitForMail(email)
    expect(mail.subject).toBe(CONFIRM_SUBJECT.en)
    expect(mail.text).toContain('Hello')
  })

  test('the unverified session is refused by /me until the link is used, once', async () => {
    const client = t.client()
    const { email } = await registerOrg(client)
    const before = await client.get('/api/auth/me')
    expect(before.status).toBe(403)
    expect(before.body).toEqual({ code: 'EMAIL_NOT_VERIFIED', message: 'Please confirm your e-mail address first.', status: 403 })

    const token = await tokenFrom(email, '/confirm-email', CONFIRM_SUBJECT.en)
    const confirm = await t.client().post('/api/users/confirm-email', { token })
    expect(confirm.status).toBe(200)
    expect(confirm.body).toEqual({ ok: true })

    const again = await t.client().post('/api/users/confirm-email', { token })
    expect(again.status).toBe(400)
    expect(again.body).toEqual({ code: 'INVALID_CONFIRMATION_LINK', message: 'Invalid confirmation link.', status: 400 })

    const after = await client.get('/api/auth/me')
    expect(after.status).toBe(200)
    expect(after.body).toMatchObject({ email, emailVerified: true, role: 'admin' })
  })

  test('garbage, foreign-signed and expired tokens are invalid links', async () => {
    const { email, user } = await registerOrg(t.client())
    const invalid = { code: 'INVALID_CONFIRMATION_LINK', message: 'Invalid confirmation link.', status: 400 }
    const foreign = await createEmailVerificationToken('another-secret-another-secret-0123456789', email, undefined, 3600, {
      userId: user.id,
    })
    const secret = t.deps.config.secret
    const expired = await createEmailVerificationToken(secret, email, undefined, -10, { userId: user.id })
    const otherUser = await createEmailVerificationToken(secret, email, undefined, 3600, { userId: crypto.randomUUID() })
    for (const token of ['garbage', 'a.b.c', foreign, expired, otherUser]) {
      const res = await t.client().post('/api/users/confirm-email', { token })
      expect(res.status).toBe(400)
      expect(res.body).toEqual(invalid)
    }
    const empty = await t.client().post('/api/users/confirm-email', { token: '' })
    expect(empty.status).toBe(400)
    expect(empty.body.code).toBe('VALIDATION_FAILED')
    // None of them confirmed the address; the real link still does.
    const row = await t.deps.db.query.users.findFirst({ where: eq(users.id, user.id) })
    expect(row!.emailVerified).toBe(false)
    const token = await tokenFrom(email, '/confirm-email', CONFIRM_SUBJECT.en)
    expect((await t.client().post('/api/users/confirm-email', { token })).body).toEqual({ ok: true })
  })
})

describe('POST /api/users/resend-confirmation', () => {
  test('answers the same for unknown, verified and unverified addresses; mails only the unverified', async () => {
    const unverified = await registerOrg(t.client())
    await t.sink!.waitForMail(unverified.email)
    const verified = await verifiedUser()
    const unknown = `nobody-${crypto.randomUUID().slice(0, 8)}@acme.test`
    const before = { verified: mailsTo(verified.email).length, unverified: mailsTo(unverified.email).length }

    for (const email of [unknown, verified.email, unverified.email.toUpperCase()]) {
      const res = await t.client().post('/api/users/resend-confirmation', { email })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ ok: true })
    }
    await t.sink!.waitForMail(unverified.email, () => mailsTo(unverified.email).length === before.unverified + 1)
    expect(mailsTo(unverified.email).length).toBe(before.unverified + 1)
    expect(mailsTo(verified.email).length).toBe(before.verified)
    expect(mailsTo(unknown).length).toBe(0)
  })

  test('the resent link, in the user\'s language, confirms the address', async () => {
    const client = t.client()
    const { email } = await registerOrg(client, { locale: 'de' })
    await t.sink!.waitForMail(email)
    await t.client().post('/api/users/resend-confirmation', { email })
    const mail = await t.sink!.waitForMail(email, () => mailsTo(email).length === 2)
    expect(mail.subject).toBe(CONFIRM_SUBJECT.de)
    const token = linkFrom(mail, '/confirm-email').searchParams.get('token')!
    expect((await t.client().post('/api/users/confirm-email', { token })).body).toEqual({ ok: true })
    expect((await client.get('/api/auth/me')).status).toBe(200)
  })

  test('the fourth mail to one address within 15 minutes is refused with Retry-After', async () => {
    const { email } = await registerOrg(t.client()) // mail 1
    for (let i = 0; i < 2; i++) {
      const res = await t.client().post('/api/users/resend-confirmation', { email }) // mails 2 and 3
      expect(res.status).toBe(200)
    }
    const res = await t.client().post('/api/users/resend-confirmation', { email })
    expect(res.status).toBe(429)
    expect(res.body).toEqual({
      code: 'TOO_MANY_CONFIRMATION_EMAILS',
      message: 'Too many confirmation email requests. Please wait a few minutes and try again.',
      status: 429,
    })
    const retryAfter = Number(res.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(15 * 60)
    await t.sink!.waitForMail(email, () => mailsTo(email).length === 3)
    expect(mailsTo(email).length).toBe(3)
  })

  test('needs a valid address', async () => {
    const res = await t.client().post('/api/users/resend-confirmation', { email: 'not-an-address' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Some fields are invalid.',
      status: 400,
      fields: { email: 'Please enter a valid email address' },
    })
  })
})

describe('forgot and reset password', () => {
  test('answers the same for known and unknown addresses; mails only the known', async () => {
    const { email } = await verifiedUser()
    const unknown = `ghost-${crypto.randomUUID().slice(0, 8)}@acme.test`
    const known = await t.client().post('/api/users/forgot-password', { email })
    const stranger = await t.client().post('/api/users/forgot-password', { email: unknown })
    expect(known.status).toBe(200)
    expect(stranger.status).toBe(200)
    expect(known.body).toEqual({ ok: true })
    expect(stranger.body).toEqual(known.body)
    const mail = await t.sink!.waitForMail(email, (m) => m.subject === RESET_SUBJECT.en)
    expect(linkFrom(mail, '/password/reset').searchParams.get('token')).toBeTruthy()
    expect(mailsTo(unknown).length).toBe(0)
  })

  test('the mailed token sets a new password once and signs out every session', async () => {
    const { email, client } = await verifiedUser()
    const other = await signedIn(email)
    expect((await other.get('/api/auth/me')).status).toBe(200)

    await t.client().post('/api/users/forgot-password', { email })
    const token = await tokenFrom(email, '/password/reset', RESET_SUBJECT.en)

    const weak = await t.client().post('/api/users/reset-password', { token, password: 'weakpass' })
    expect(weak.status).toBe(400)
    expect(weak.body).toMatchObject({ code: 'VALIDATION_FAILED', status: 400, fields: { password: PASSWORD_MESSAGE } })

    const reset = await t.client().post('/api/users/reset-password', { token, password: NEW_PASSWORD })
    expect(reset.status).toBe(200)
    expect(reset.body).toEqual({ ok: true })

    for (const c of [client, other]) {
      const me = await c.get('/api/auth/me')
      expect(me.status).toBe(401)
      expect(me.body.code).toBe('UNAUTHORIZED')
    }
    const old = await t.client().post('/api/auth/login', { email, password: PASSWORD })
    expect(old.status).toBe(401)
    expect(old.body.code).toBe('INVALID_CREDENTIALS')
    expect((await signedIn(email, NEW_PASSWORD)).cookies.size).toBeGreaterThan(0)

    const again = await t.client().post('/api/users/reset-password', { token, password: 'Another789Pass' })
    expect(again.status).toBe(400)
    expect(again.body).toEqual({ code: 'INVALID_TOKEN', message: 'Invalid token', status: 400 })
  })

  test('past 3 requests per address within 15 minutes the answer stays the same but no mail goes out', async () => {
    const { email } = await verifiedUser()
    const resets = () => mailsTo(email).filter((m) => m.subject === RESET_SUBJECT.en)
    for (let i = 0; i < 5; i++) {
      const res = await t.client().post('/api/users/forgot-password', { email: i % 2 ? email.toUpperCase() : email })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ ok: true })
    }
    // The server answers after the SMTP hand-over, so every mail sent has arrived by now.
    expect(resets()).toHaveLength(3)
  })

  test('an invented token is refused', async () => {
    const res = await t.client().post('/api/users/reset-password', { token: 'made-up-token', password: NEW_PASSWORD })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ code: 'INVALID_TOKEN', message: 'Invalid token', status: 400 })
  })
})

describe('PATCH /api/users/name', () => {
  test('needs a session', async () => {
    const res = await t.client().patch('/api/users/name', { name: 'Nobody' })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ code: 'UNAUTHORIZED', message: 'You need to sign in.', status: 401 })
  })

  test('needs a confirmed address', async () => {
    const client = t.client()
    await registerOrg(client)
    const res = await client.patch('/api/users/name', { name: 'Early Bird' })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ code: 'EMAIL_NOT_VERIFIED', message: 'Please confirm your e-mail address first.', status: 403 })
  })

  test('refuses empty, blank and over-long names', async () => {
    const { client } = await verifiedUser()
    const cases: Array<[unknown, string]> = [
      ['', 'Name is required'],
      ['   ', 'Name is required'],
      ['x'.repeat(101), 'Name must be at most 100 characters'],
    ]
    for (const [name, message] of cases) {
      const res = await client.patch('/api/users/name', { name })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ code: 'VALIDATION_FAILED', message: 'Some fields are invalid.', status: 400, fields: { name: message } })
    }
    const missing = await client.patch('/api/users/name', {})
    expect(missing.status).toBe(400)
    expect(Object.keys(missing.body.fields)).toEqual(['name'])
  })

  test('changes the name, trimmed, and /me shows it', async () => {
    const { client, user } = await verifiedUser()
    const res = await client.patch('/api/users/name', { name: '  Erika Mustermann ' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: user.id, name: 'Erika Mustermann' })
    expect((await client.get('/api/auth/me')).body.name).toBe('Erika Mustermann')
  })
})

describe('PATCH /api/users/password', () => {
  test('refuses a wrong current password and a weak new one', async () => {
    const { client } = await verifiedUser()
    const wrong = await client.patch('/api/users/password', { currentPassword: 'Wrong1234', newPassword: NEW_PASSWORD })
    expect(wrong.status).toBe(400)
    expect(wrong.body).toEqual({ code: 'CURRENT_PASSWORD_INCORRECT', message: 'Current password is incorrect', status: 400 })
    const weak = await client.patch('/api/users/password', { currentPassword: PASSWORD, newPassword: 'alllowercase1' })
    expect(weak.status).toBe(400)
    expect(weak.body).toMatchObject({ code: 'VALIDATION_FAILED', fields: { newPassword: PASSWORD_MESSAGE } })
    // Nothing changed.
    expect((await client.get('/api/auth/me')).status).toBe(200)
    await signedIn((await client.get('/api/auth/me')).body.email, PASSWORD)
  })

  test('needs a session', async () => {
    const res = await t.client().patch('/api/users/password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })
    expect(res.status).toBe(401)
    expect(res.body.code).toBe('UNAUTHORIZED')
  })

  test('changes the password, keeps this session and signs out the others', async () => {
    const { client, email } = await verifiedUser()
    const other = await signedIn(email)
    const res = await client.patch('/api/users/password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true })

    expect((await client.get('/api/auth/me')).status).toBe(200)
    const kicked = await other.get('/api/auth/me')
    expect(kicked.status).toBe(401)
    expect(kicked.body.code).toBe('UNAUTHORIZED')

    expect((await t.client().post('/api/auth/login', { email, password: PASSWORD })).status).toBe(401)
    await signedIn(email, NEW_PASSWORD)
  })
})

describe('PATCH /api/users/locale', () => {
  test('the next mail uses the new language', async () => {
    const { client, email } = await verifiedUser({ locale: 'en' })
    const res = await client.patch('/api/users/locale', { locale: 'de' })
    expect(res.status).toBe(200)
    expect(res.body.locale).toBe('de')
    expect((await client.get('/api/auth/me')).body.locale).toBe('de')

    await t.client().post('/api/users/forgot-password', { email })
    const mail = await t.sink!.waitForMail(email, (m) => m.subject.startsWith('Ihr Kontor'))
    expect(mail.subject).toBe(RESET_SUBJECT.de)
    expect(mailsTo(email).filter((m) => m.subject === RESET_SUBJECT.en)).toEqual([])
  })

  test('accepts only en and de, and needs a confirmed session', async () => {
    const { client } = await verifiedUser()
    const res = await client.patch('/api/users/locale', { locale: 'fr' })
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('VALIDATION_FAILED')
    expect(Object.keys(res.body.fields)).toEqual(['locale'])
    expect((await t.client().patch('/api/users/locale', { locale: 'en' })).status).toBe(401)
  })
})

describe('PATCH /api/users/theme', () => {
  test("is kept with the account: null until picked, then the member's choice on every session", async () => {
    const { client, email } = await verifiedUser()
    expect((await client.get('/api/auth/me')).body.theme).toBeNull()
    const res = await client.patch('/api/users/theme', { theme: 'dark' })
    expect(res.status).toBe(200)
    expect(res.body.theme).toBe('dark')
    const other = t.client()
    expect((await other.post('/api/auth/login', { email, password: PASSWORD })).status).toBe(200)
    expect((await other.get('/api/auth/me')).body.theme).toBe('dark')
    expect((await other.patch('/api/users/theme', { theme: 'light' })).body.theme).toBe('light')
    expect((await client.get('/api/auth/me')).body.theme).toBe('light')
  })

  test('accepts only light and dark, and needs a confirmed session', async () => {
    const { client } = await verifiedUser()
    for (const theme of ['system', '', null, 'DARK']) {
      const res = await client.patch('/api/users/theme', { theme })
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('VALIDATION_FAILED')
      expect(Object.keys(res.body.fields)).toEqual(['theme'])
    }
    expect((await client.get('/api/auth/me')).body.theme).toBeNull()
    expect((await t.client().patch('/api/users/theme', { theme: 'dark' })).status).toBe(401)
  })
})
