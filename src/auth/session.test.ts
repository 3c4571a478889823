import { afterAll, beforeAll, describe, expect, spyOn, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { sessions } from '../../db/schema'
import { createTestApp, PASSWORD, registerOrg } from '../../tests/support/test-app'
import { createAuth } from './auth'
import { lazyAuth } from './lazy-auth'
import { readSessionUser } from './session'
import { SESSION_AGES, sessionCookieName } from './settings'

let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const DAY = 24 * 60 * 60 * 1000
const COOKIE = 'kontor.session_token'

/** A signed-in client, its session cookie as the browser keeps it, and its user id. */
async function signedIn() {
  const client = t.client()
  const { user } = await registerOrg(client)
  return { client, userId: user.id as string, cookie: `${COOKIE}=${client.cookies.get(COOKIE)}` }
}

const me = (cookie: string) => t.app.request('/api/auth/me', { headers: { cookie } })
const sessionsOf = (userId: string) => t.deps.db.select().from(sessions).where(eq(sessions.userId, userId))

async function signed(token: string, secret: string) {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(token)))
  return encodeURIComponent(`${token}.${btoa(String.fromCharCode(...signature))}`)
}

describe('the session behind every request', () => {
  test('the caller is read with role, organisation and locale', async () => {
    const { cookie, userId } = await signedIn()
    const res = await me(cookie)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ id: userId, role: 'admin', locale: 'en', emailVerified: true })
  })

  test('/auth/me answers the same whether the session read had the organisation or better-auth was asked', async () => {
    const { client, cookie, userId } = await signedIn()
    expect((await client.patch('/api/users/name', { name: 'Renamed Admin' })).status).toBe(200)
    expect((await client.patch('/api/users/locale', { locale: 'de' })).status).toBe(200)
    const fast = await (await me(cookie)).json()
    expect(fast).toMatchObject({ id: userId, name: 'Renamed Admin', locale: 'de', organization: { name: expect.stringMatching(/^Acme \d+$/) } })
    // Due for its daily extension: this read goes through better-auth, and /auth/me reads the rest.
    await t.deps.db.update(sessions).set({ expiresAt: new Date(Date.now() + 28 * DAY) }).where(eq(sessions.userId, userId))
    expect(await (await me(cookie)).json()).toEqual(fast)
  })

  test('a session deleted in the database is refused at once, although the browser still sends its cookie', async () => {
    const { cookie, userId } = await signedIn()
    expect((await me(cookie)).status).toBe(200)
    await t.deps.db.delete(sessions).where(eq(sessions.userId, userId))
    const res = await me(cookie)
    expect(res.status).toBe(401)
    expect((await res.json()).code).toBe('UNAUTHORIZED')
  })

  test('a signed-out session cannot be replayed', async () => {
    const { client, cookie } = await signedIn()
    expect((await client.post('/api/auth/logout')).status).toBe(200)
    expect((await me(cookie)).status).toBe(401)
  })

  test('an expired session is refused and removed', async () => {
    const { cookie, userId } = await signedIn()
    await t.deps.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, userId))
    expect((await me(cookie)).status).toBe(401)
    expect(await sessionsOf(userId)).toHaveLength(0)
  })

  test('a session last extended more than a day ago is extended by 30 days', async () => {
    const { cookie, userId } = await signedIn()
    await t.deps.db.update(sessions).set({ expiresAt: new Date(Date.now() + 28 * DAY) }).where(eq(sessions.userId, userId))
    expect((await t.app.request('/api/prompts', { headers: { cookie } })).status).toBe(200)
    const [session] = await sessionsOf(userId)
    expect(session!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * DAY)
  })

  test('a session extended within the last day is left as it is', async () => {
    const { cookie, userId } = await signedIn()
    const expiresAt = new Date(Math.floor((Date.now() + 29.5 * DAY) / 1000) * 1000)
    await t.deps.db.update(sessions).set({ expiresAt }).where(eq(sessions.userId, userId))
    expect((await me(cookie)).status).toBe(200)
    expect((await sessionsOf(userId))[0]!.expiresAt.getTime()).toBe(expiresAt.getTime())
  })

  test('a token with a forged, altered or missing signature is refused', async () => {
    const { cookie } = await signedIn()
    const value = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1))
    const token = value.slice(0, value.lastIndexOf('.'))
    expect((await me(`${COOKIE}=${await signed(token, t.deps.config.secret)}`)).status).toBe(200)
    expect((await me(`${COOKIE}=${await signed(token, 'another-secret-another-secret-another')}`)).status).toBe(401)
    expect((await me(`${COOKIE}=${encodeURIComponent(token)}`)).status).toBe(401)
    // The signature's first character carries six bits of it (its last one partly padding, which decoders ignore).
    const at = cookie.lastIndexOf('.') + 1
    const altered = `${cookie.slice(0, at)}${cookie[at] === 'A' ? 'B' : 'A'}${cookie.slice(at + 1)}`
    expect(altered).not.toBe(cookie)
    expect((await me(altered)).status).toBe(401)
    expect((await me(`${COOKIE}=not-a-token.${'!'.repeat(43)}=`)).status).toBe(401)
  })

  test('a signed cookie is checked once per process: its next requests cost no HMAC check, a forged one is checked and refused every time', async () => {
    const { cookie, userId } = await signedIn()
    // One character of the signature changed (decoded first: an encoded one may start with %2B or %2F).
    const value = decodeURIComponent(cookie.slice(COOKIE.length + 1))
    const at = value.lastIndexOf('.') + 1
    const forged = `${COOKIE}=${encodeURIComponent(`${value.slice(0, at)}${value[at] === 'A' ? 'B' : 'A'}${value.slice(at + 1)}`)}`
    const verify = spyOn(crypto.subtle, 'verify')
    try {
      expect((await me(cookie)).status).toBe(200)
      const checks = verify.mock.calls.length
      for (let i = 0; i < 3; i++) expect((await me(cookie)).status).toBe(200)
      expect(verify.mock.calls.length).toBe(checks)
      for (let i = 0; i < 2; i++) expect((await me(forged)).status).toBe(401)
      expect(verify.mock.calls.length).toBe(checks + 2)
      // Remembered as checked, the cookie still stands for a session that must exist.
      await t.deps.db.delete(sessions).where(eq(sessions.userId, userId))
      expect((await me(cookie)).status).toBe(401)
    } finally {
      verify.mockRestore()
    }
  })

  test('a removed member loses access with the next request', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const invite = await admin.post('/api/invites', { email: `member-${crypto.randomUUID().slice(0, 8)}@acme.test`, role: 'user' })
    const member = t.client()
    const token = new URL(invite.body.acceptUrl).searchParams.get('token')
    const accepted = await member.post('/api/invites/accept', { token, name: 'Mia Member', password: PASSWORD, passwordConfirmation: PASSWORD })
    expect(accepted.status).toBe(201)
    expect((await member.get('/api/prompts')).status).toBe(200)
    expect((await admin.delete(`/api/users/${accepted.body.id}`)).status).toBe(204)
    expect((await member.get('/api/prompts')).status).toBe(401)
  })
})

describe('better-auth loads on first use', () => {
  test('the cookie name and session ages Kontor reads sessions with are better-auth\'s own, over http and https', async () => {
    for (const baseUrl of ['http://localhost:3000', 'https://kontor.example']) {
      const config = { ...t.deps.config, baseUrl }
      const auth = createAuth({ db: t.deps.db, config, mailer: t.deps.mailer, logger: t.deps.logger })
      const ctx = await auth.$context
      expect(ctx.authCookies.sessionToken.name).toBe(sessionCookieName(config))
      expect(ctx.sessionConfig.expiresIn).toBe(SESSION_AGES.expiresIn)
      expect(ctx.sessionConfig.updateAge).toBe(SESSION_AGES.updateAge)
      expect(ctx.secret).toBe(config.secret)
    }
  })

  test('a process that only reads sessions never builds better-auth; a sign-in does, once', async () => {
    let builds = 0
    const auth = lazyAuth(async () => {
      builds++
      return createAuth({ db: t.deps.db, config: t.deps.config, mailer: t.deps.mailer, logger: t.deps.logger })
    })
    const { cookie, userId } = await signedIn()
    const deps = { ...t.deps, auth }
    expect((await readSessionUser(deps, new Headers({ cookie })))?.id).toBe(userId)
    expect(builds).toBe(0)
    // `await` on the API object itself must not call anything.
    expect(await auth.api).toBe(auth.api)
    expect(builds).toBe(0)
    const [a, b] = await Promise.all([auth.$context, auth.$context])
    expect(a).toBe(b)
    expect(await auth.api.getSession({ headers: new Headers({ cookie }) })).toMatchObject({ user: { id: userId } })
    expect(builds).toBe(1)
  })

  test('a build that failed is tried again on the next use', async () => {
    let builds = 0
    const auth = lazyAuth(async () => {
      if (++builds === 1) throw new Error('not yet')
      return createAuth({ db: t.deps.db, config: t.deps.config, mailer: t.deps.mailer, logger: t.deps.logger })
    })
    expect(await auth.$context.catch((e: Error) => e.message)).toBe('not yet')
    expect((await auth.$context).secret).toBe(t.deps.config.secret)
    expect(builds).toBe(2)
  })
})
