import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { sessions } from '../../db/schema'
import { createTestApp, PASSWORD, registerOrg } from '../../tests/support/test-app'

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
