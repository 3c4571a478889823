import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { createTestApp, PASSWORD, registerOrg } from '../../../tests/support/test-app'

// bunfig's [test] timeout is not read by bun test; password hashing is slow on a busy machine.
setDefaultTimeout(20_000)

let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

describe('GET /api', () => {
  test('says whether the instance is a cloud', async () => {
    const res = await t.client().get('/api')
    expect(res.status).toBe(200)
    expect(res.body.isCloud).toBe(false)
  })
})

describe('POST /api/auth/register (no SMTP)', () => {
  test('creates the organisation and its verified admin, and signs in', async () => {
    const client = t.client()
    const { user, email } = await registerOrg(client, { organizationName: 'Widgets GmbH' })
    expect(user).toMatchObject({ email, role: 'admin', emailVerified: true, organization: { name: 'Widgets GmbH' } })
    const me = await client.get('/api/auth/me')
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({ id: user.id, role: 'admin' })
  })

  test('refuses an address that exists', async () => {
    const { email } = await registerOrg(t.client())
    const res = await t.client().post('/api/auth/register', {
      email: email.toUpperCase(),
      name: 'X',
      organizationName: 'Y',
      password: PASSWORD,
      passwordConfirmation: PASSWORD,
      termsAccepted: true,
    })
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ code: 'EMAIL_EXISTS', message: 'Email already exists', status: 409 })
  })

  test('names every invalid field', async () => {
    const res = await t.client().post('/api/auth/register', {
      email: 'nope',
      name: '',
      organizationName: '',
      password: 'short',
      passwordConfirmation: 'other',
      termsAccepted: false,
    })
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('VALIDATION_FAILED')
    expect(Object.keys(res.body.fields).sort()).toEqual(['email', 'name', 'organizationName', 'password', 'termsAccepted'])
    expect(res.body.fields.password).toBe('Invalid password. Must be at least 8 characters, uppercase, lowercase and numbers.')
  })

  test('says when the passwords differ', async () => {
    const res = await t.client().post('/api/auth/register', {
      email: 'differ@acme.test',
      name: 'A',
      organizationName: 'B',
      password: PASSWORD,
      passwordConfirmation: PASSWORD + 'x',
      termsAccepted: true,
    })
    expect(res.body.fields).toEqual({ passwordConfirmation: 'Passwords do not match' })
  })

  test('refuses bodies that are not JSON, malformed or too large', async () => {
    const client = t.client()
    const form = await client.request('POST', '/api/auth/login', 'email=a', { 'content-type': 'text/plain', origin: 'http://localhost:3000' })
    expect(form.status).toBe(415)
    expect(form.body.code).toBe('UNSUPPORTED_MEDIA_TYPE')
    const broken = await client.request('POST', '/api/auth/login', '{"email":', { 'content-type': 'application/json' })
    expect(broken.status).toBe(400)
    expect(broken.body.code).toBe('INVALID_JSON')
    const huge = await client.request('POST', '/api/auth/login', JSON.stringify({ email: 'x'.repeat(2_000_000) }), {
      'content-type': 'application/json',
    })
    expect(huge.status).toBe(413)
    expect(huge.body.code).toBe('PAYLOAD_TOO_LARGE')
  })

  test('refuses a cross-site form post', async () => {
    const res = await t.client().request('POST', '/api/auth/login', 'email=a', {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://evil.example',
    })
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('CSRF_REJECTED')
  })
})

describe('login, me and logout', () => {
  test('signs in, reads the session and signs out', async () => {
    const { email } = await registerOrg(t.client())
    const client = t.client()
    expect((await client.get('/api/auth/me')).status).toBe(401)
    const login = await client.post('/api/auth/login', { email, password: PASSWORD })
    expect(login.status).toBe(200)
    expect(login.body.email).toBe(email)
    const cookie = login.headers.getSetCookie().join(';')
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Lax')
    expect((await client.get('/api/auth/me')).status).toBe(200)
    expect((await client.post('/api/auth/logout')).status).toBe(200)
    const after = await client.get('/api/auth/me')
    expect(after.status).toBe(401)
    expect(after.body.code).toBe('UNAUTHORIZED')
  })

  test('a wrong password is refused with the spec message', async () => {
    const { email } = await registerOrg(t.client())
    const res = await t.client().post('/api/auth/login', { email, password: 'Wrong1234' })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ code: 'INVALID_CREDENTIALS', message: 'Invalid email or password', status: 401 })
    const unknown = await t.client().post('/api/auth/login', { email: 'nobody@acme.test', password: 'Wrong1234' })
    expect(unknown.body.code).toBe('INVALID_CREDENTIALS')
  })

  test('after 5 failed attempts from one address the account is locked there for a while, with Retry-After', async () => {
    const { email } = await registerOrg(t.client())
    const client = t.client()
    for (let i = 0; i < 5; i++) expect((await client.post('/api/auth/login', { email, password: 'Wrong1234' })).status).toBe(401)
    const locked = await client.post('/api/auth/login', { email, password: PASSWORD })
    expect(locked.status).toBe(429)
    expect(locked.body.message).toBe('Too many login attempts. Please wait a few minutes and try again.')
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0)
    // The owner elsewhere is not locked out (tests/security/sign-in-limits.test.ts has the rest).
    expect((await t.client().post('/api/auth/login', { email, password: PASSWORD })).status).toBe(200)
  })

  test('one address may fail at most 30 logins per 15 minutes', async () => {
    const client = t.client()
    client.setIp('203.0.113.7')
    for (let i = 0; i < 30; i++) {
      const res = await client.post('/api/auth/login', { email: `probe${i}@acme.test`, password: 'Wrong1234' })
      expect(res.status).toBe(401)
    }
    const res = await client.post('/api/auth/login', { email: 'probe-last@acme.test', password: 'Wrong1234' })
    expect(res.status).toBe(429)
    expect(res.body.code).toBe('TOO_MANY_LOGIN_ATTEMPTS')
  }, 60_000) // 30 real password checks (unknown addresses are hashed too, against timing probes)
})

describe('errors', () => {
  test('unknown API paths are 404 in the error shape', async () => {
    const res = await t.client().get('/api/nope')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ code: 'NOT_FOUND', message: 'Not Found', status: 404 })
  })

  test('the OpenAPI document lists the routes with their schemas', async () => {
    const res = await t.client().get('/api/docs')
    expect(res.status).toBe(200)
    expect(res.body.openapi).toBe('3.0.3')
    const register = res.body.paths['/api/auth/register'].post
    expect(register.requestBody.content['application/json'].schema.required).toContain('email')
    expect(Object.keys(res.body.paths)).toContain('/api/users/password')
  })
})

describe('CSRF', () => {
  test('a body-less DELETE without Origin (an API client, not a form) is not refused as CSRF', async () => {
    const res = await t.app.request('/api/users/some-id', { method: 'DELETE' })
    expect(res.status).toBe(401)
  })

  test('a form post from another site is refused even when it claims no content type', async () => {
    const res = await t.app.request('/api/auth/logout', { method: 'POST', headers: { origin: 'https://evil.example' } })
    expect(res.status).toBe(403)
    expect((await res.json()).code).toBe('CSRF_REJECTED')
  })
})
