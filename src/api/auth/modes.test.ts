import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { organizations, outboxEmails, users } from '../../../db/schema'
import { createTestApp, PASSWORD, registerOrg } from '../../../tests/support/test-app'

// bunfig's [test] timeout is not read by bun test; password hashing is slow on a busy machine.
setDefaultTimeout(20_000)

type TestApp = Awaited<ReturnType<typeof createTestApp>>

const body = (email: string, extra: Record<string, unknown> = {}) => ({
  email,
  name: 'Mode Tester',
  organizationName: 'Modes AG',
  password: PASSWORD,
  passwordConfirmation: PASSWORD,
  termsAccepted: true,
  locale: 'en',
  ...extra,
})
const unique = (domain: string) => `user-${crypto.randomUUID().slice(0, 8)}@${domain}`

describe('cloud mode (KONTOR_CLOUD=true)', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ env: { KONTOR_CLOUD: 'true' } })
  })
  afterAll(() => t.close())

  test('GET /api says so', async () => {
    const res = await t.client().get('/api')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ isCloud: true, registrationDisabled: false, emailDelivery: false, mailPage: true })
  })

  test('refuses free-mail addresses', async () => {
    for (const domain of ['gmail.com', 'gmx.de', 'web.de', 'GMAIL.COM']) {
      const res = await t.client().post('/api/auth/register', body(unique(domain)))
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        code: 'EMAIL_PROVIDER_BLACKLISTED',
        message: 'Email provider blacklisted. Please use your company email address.',
        status: 400,
      })
    }
    const rows = await t.deps.db.select().from(organizations)
    expect(rows).toEqual([])
  })

  test('accepts a company domain', async () => {
    const client = t.client()
    const res = await client.post('/api/auth/register', body(unique('mustermann-gmbh.de')))
    expect(res.status).toBe(201)
    expect(res.body.user).toMatchObject({ role: 'admin', organization: { name: 'Modes AG' } })
    expect((await client.get('/api/auth/me')).status).toBe(200)
  })
})

describe('self-hosted mode (default)', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(() => t.close())

  test('GET /api says it is not a cloud and has no mail delivery', async () => {
    const res = await t.client().get('/api')
    expect(res.body).toEqual({ isCloud: false, registrationDisabled: false, emailDelivery: false, mailPage: true })
  })

  test('free-mail addresses may register', async () => {
    const res = await t.client().post('/api/auth/register', body(unique('gmail.com')))
    expect(res.status).toBe(201)
  })

  test('without SMTP the user is verified at once and no confirmation mail is needed', async () => {
    const client = t.client()
    const { email, user } = await registerOrg(client)
    expect(user.emailVerified).toBe(true)
    expect((await client.get('/api/auth/me')).status).toBe(200)
    const outbox = await t.deps.db.select().from(outboxEmails).where(eq(outboxEmails.to, email))
    expect(outbox).toEqual([])
  })

  test('without SMTP mail goes to the outbox table with status logged', async () => {
    const { email } = await registerOrg(t.client(), { locale: 'de' })
    const res = await t.client().post('/api/users/forgot-password', { email })
    expect(res.status).toBe(200)
    const outbox = await t.deps.db.select().from(outboxEmails).where(eq(outboxEmails.to, email))
    expect(outbox).toHaveLength(1)
    expect(outbox[0]).toMatchObject({ to: email, subject: 'Ihr Kontor-Passwort zurücksetzen', status: 'logged', error: null })
    expect(outbox[0]!.text).toContain('http://localhost:3000/password/reset?token=')
  })

  test('resend-confirmation sends nothing for an already verified address', async () => {
    const { email } = await registerOrg(t.client())
    const res = await t.client().post('/api/users/resend-confirmation', { email })
    expect(res.body).toEqual({ ok: true })
    expect(await t.deps.db.select().from(outboxEmails).where(eq(outboxEmails.to, email))).toEqual([])
  })

  test('two concurrent registrations of one address: one wins, one conflict, no leftovers', async () => {
    const email = unique('race.test')
    const [a, b] = await Promise.all([
      t.client().post('/api/auth/register', body(email, { organizationName: 'Race A' })),
      t.client().post('/api/auth/register', body(email, { organizationName: 'Race B' })),
    ])
    expect([a.status, b.status].sort()).toEqual([201, 409])
    const loser = a.status === 409 ? a : b
    expect(loser.body).toEqual({ code: 'EMAIL_EXISTS', message: 'Email already exists', status: 409 })

    const userRows = await t.deps.db.select().from(users).where(eq(users.email, email))
    expect(userRows).toHaveLength(1)
    const orgRows = await t.deps.db
      .select()
      .from(organizations)
      .where(eq(organizations.name, a.status === 201 ? 'Race A' : 'Race B'))
    expect(orgRows).toHaveLength(1)
    const loserOrg = await t.deps.db
      .select()
      .from(organizations)
      .where(eq(organizations.name, a.status === 201 ? 'Race B' : 'Race A'))
    expect(loserOrg).toEqual([])
    expect(userRows[0]!.organizationId).toBe(orgRows[0]!.id)
  })

  test('many concurrent registrations of one address leave exactly one organisation', async () => {
    const email = unique('race.test')
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => t.client().post('/api/auth/register', body(email, { organizationName: `Crowd ${email} ${i}` }))),
    )
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409])
    const all = await t.deps.db.select().from(organizations)
    expect(all.filter((o) => o.name.startsWith(`Crowd ${email}`))).toHaveLength(1)
  })
})

describe('registration disabled (KONTOR_REGISTRATION_DISABLED=true)', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ env: { KONTOR_REGISTRATION_DISABLED: 'true' } })
  })
  afterAll(() => t.close())

  test('refuses registration and says so on GET /api', async () => {
    expect((await t.client().get('/api')).body.registrationDisabled).toBe(true)
    const res = await t.client().post('/api/auth/register', body(unique('acme.test')))
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ code: 'REGISTRATION_DISABLED', message: 'Registration is disabled.', status: 403 })
    expect(await t.deps.db.select().from(users)).toEqual([])
  })
})

describe('self-hosted registration of the first organisation only (KONTOR_REGISTRATION=first-only, the default)', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ env: { KONTOR_REGISTRATION: 'first-only' } })
  })
  afterAll(() => t.close())

  test('the first organisation registers; then /register is closed, also to two registering at once', async () => {
    expect((await t.client().get('/api')).body.registrationDisabled).toBe(false)
    // Two first registrations at once: the database lets exactly one through.
    const racing = await Promise.all([unique('first.test'), unique('second.test')].map((email) => t.client().post('/api/auth/register', body(email))))
    expect(racing.map((r) => r.status).sort()).toEqual([201, 403])
    expect(racing.find((r) => r.status === 403)!.body.code).toBe('REGISTRATION_DISABLED')
    expect(await t.deps.db.select().from(organizations)).toHaveLength(1)
    expect(await t.deps.db.select().from(users)).toHaveLength(1)

    expect((await t.client().get('/api')).body.registrationDisabled).toBe(true)
    const later = await t.client().post('/api/auth/register', body(unique('later.test')))
    expect(later.status).toBe(403)
    expect(later.body.code).toBe('REGISTRATION_DISABLED')
    expect(await t.deps.db.select().from(organizations)).toHaveLength(1)
  })
})

describe('registration open to anyone (KONTOR_REGISTRATION=open)', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ env: { KONTOR_REGISTRATION: 'open' } })
  })
  afterAll(() => t.close())

  test('every registration makes an organisation of its own', async () => {
    for (const domain of ['one.test', 'two.test']) expect((await t.client().post('/api/auth/register', body(unique(domain)))).status).toBe(201)
    expect(await t.deps.db.select().from(organizations)).toHaveLength(2)
    expect((await t.client().get('/api')).body.registrationDisabled).toBe(false)
  })
})

describe('registration closed (KONTOR_REGISTRATION=closed)', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ env: { KONTOR_REGISTRATION: 'closed' } })
  })
  afterAll(() => t.close())

  test('even the first organisation cannot register', async () => {
    expect((await t.client().get('/api')).body.registrationDisabled).toBe(true)
    expect((await t.client().post('/api/auth/register', body(unique('acme.test')))).status).toBe(403)
    expect(await t.deps.db.select().from(organizations)).toEqual([])
  })
})

describe('registration when mail delivery fails', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:1' } })
  })
  afterAll(() => t.close())

  test('the account exists, unverified, and the answer says the mail failed', async () => {
    const email = unique('acme.test')
    const client = t.client()
    const res = await client.post('/api/auth/register', body(email))
    expect(res.status).toBe(500)
    expect(res.body).toEqual({ code: 'EMAIL_CONFIRMATION_FAILED', message: 'Failed to send email confirmation', status: 500 })
    // An error answer changes no session: the caller is not signed in.
    expect(res.headers.getSetCookie()).toEqual([])
    expect((await client.get('/api/auth/me')).status).toBe(401)

    const [row] = await t.deps.db.select().from(users).where(eq(users.email, email))
    expect(row).toMatchObject({ email, emailVerified: false, role: 'admin' })
    const outbox = await t.deps.db.select().from(outboxEmails).where(eq(outboxEmails.to, email))
    expect(outbox).toHaveLength(1)
    expect(outbox[0]!.status).toBe('failed')

    // Registering again is a conflict; the way on is signing in, then resending.
    const again = await t.client().post('/api/auth/register', body(email))
    expect(again.status).toBe(409)
    const login = await t.client().post('/api/auth/login', { email, password: PASSWORD })
    expect(login.status).toBe(200)
    expect(login.body.emailVerified).toBe(false)
    const resend = await t.client().post('/api/users/resend-confirmation', { email })
    expect(resend.status).toBe(500)
    expect(resend.body.code).toBe('EMAIL_CONFIRMATION_FAILED')
  })

  test('a password reset whose mail fails answers as usual; the failure is recorded in the outbox', async () => {
    // Same answer as for unknown addresses, so that a broken mail server does not reveal who has an account.
    const email = unique('acme.test')
    await t.client().post('/api/auth/register', body(email))
    const res = await t.client().post('/api/users/forgot-password', { email })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true })
    const outbox = await t.deps.db.select().from(outboxEmails).where(eq(outboxEmails.to, email)).orderBy(outboxEmails.createdAt)
    expect(outbox.map((m) => [m.subject, m.status])).toEqual([
      ['Confirm your e-mail address for Kontor', 'failed'],
      ['Reset your Kontor password', 'failed'],
    ])
    expect(outbox[1]!.error).toContain('ECONNREFUSED')
  })
})
