import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { auditEntries, sessions } from '../../../db/schema'
import { LAST_SEEN_STEP_MS } from '../../auth/session'
import { createTestApp, joinAsMember, PASSWORD, registerOrg, type TestClient } from '../../../tests/support/test-app'

// Password hashing is slow on a busy machine.
setDefaultTimeout(30_000)

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

type Session = { id: string; current: boolean; browser: string | null; os: string | null; device: string; address: string | null; signedInAt: string; lastSeenAt: string }

/** A second browser of the same person: its own user agent and address, signed in with the password. */
async function signInElsewhere(email: string, userAgent: string, address: string): Promise<TestClient> {
  const client = t.client()
  client.setIp(address)
  const res = await client.post('/api/auth/login', { email, password: PASSWORD }, { 'user-agent': userAgent })
  expect(res.status).toBe(200)
  return client
}

const listSessions = async (client: TestClient) => {
  const res = await client.get<Session[]>('/api/sessions')
  expect(res.status).toBe(200)
  return res.body
}
const auditOf = (actorId: string, action: string) =>
  t.deps.db.select().from(auditEntries).where(and(eq(auditEntries.actorId, actorId), eq(auditEntries.action, action)))

describe('own sessions', () => {
  test('a user sees each browser they are signed in with: browser, system, device, address, last seen; this one marked', async () => {
    const laptop = t.client()
    laptop.setIp('203.0.113.7')
    const { email } = await registerOrg(laptop)
    const phone = await signInElsewhere(email, SAFARI_IPHONE, '198.51.100.23')
    const firefox = await signInElsewhere(email, FIREFOX_LINUX, '192.0.2.44')

    const seen = await listSessions(phone)
    expect(seen).toHaveLength(3)
    expect(seen.filter((s) => s.current)).toEqual([expect.objectContaining({ browser: 'Safari 17', os: 'iOS', device: 'mobile', address: '198.51.100.23' })])
    expect(seen.find((s) => s.address === '192.0.2.44')).toMatchObject({ current: false, browser: 'Firefox 128', os: 'Linux', device: 'desktop' })
    // Registering signed the laptop in; the test client names no browser.
    expect(seen.find((s) => s.address === '203.0.113.7')).toMatchObject({ current: false, browser: null, os: null, device: 'other' })
    for (const s of seen) expect(Date.parse(s.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(s.signedInAt))
    expect((await listSessions(firefox)).filter((s) => s.current).map((s) => s.address)).toEqual(['192.0.2.44'])
  })

  test('the address kept is the one Kontor determined, not one the browser claims in Kontor’s own header', async () => {
    const client = t.client()
    client.setIp('203.0.113.50')
    const { email } = await registerOrg(client)
    const other = t.client()
    other.setIp('198.51.100.77')
    const res = await other.post('/api/auth/login', { email, password: PASSWORD }, { 'x-kontor-client-address': '1.2.3.4' })
    expect(res.status).toBe(200)
    const addresses = (await listSessions(other)).map((s) => s.address).sort()
    expect(addresses).toEqual(['198.51.100.77', '203.0.113.50'])
    // The same for the session a password change makes.
    const changed = await other.request('PATCH', '/api/users/password', { currentPassword: PASSWORD, newPassword: 'Other5678Pass' }, { 'x-kontor-client-address': '1.2.3.4' })
    expect(changed.status).toBe(200)
    expect((await listSessions(other)).map((s) => s.address)).toEqual(['198.51.100.77'])
  })

  test('last seen moves on with use, at most once every few minutes', async () => {
    const client = t.client()
    const { user } = await registerOrg(client)
    const [row] = await t.deps.db.select().from(sessions).where(eq(sessions.userId, user.id))
    // Used a while ago: the next request records it.
    const longAgo = new Date(Date.now() - 2 * LAST_SEEN_STEP_MS)
    await t.deps.db.update(sessions).set({ updatedAt: longAgo }).where(eq(sessions.id, row!.id))
    const before = Date.now()
    expect((await client.get('/api/auth/me')).status).toBe(200)
    const [seen] = await listSessions(client)
    expect(Date.parse(seen!.lastSeenAt)).toBeGreaterThanOrEqual(before)
    // Used a minute ago: left as it is.
    const recently = new Date(Date.now() - 60_000)
    await t.deps.db.update(sessions).set({ updatedAt: recently }).where(eq(sessions.id, row!.id))
    expect((await client.get('/api/auth/me')).status).toBe(200)
    expect((await listSessions(client))[0]!.lastSeenAt).toBe(recently.toISOString())
  })

  test('ending one session signs that browser out at once; the others stay', async () => {
    const laptop = t.client()
    const { email, user } = await registerOrg(laptop)
    const phone = await signInElsewhere(email, SAFARI_IPHONE, '198.51.100.1')
    const firefox = await signInElsewhere(email, FIREFOX_LINUX, '198.51.100.2')
    const target = (await listSessions(laptop)).find((s) => s.address === '198.51.100.1')!
    expect((await laptop.delete(`/api/sessions/${target.id}`)).status).toBe(204)
    expect((await phone.get('/api/auth/me')).status).toBe(401)
    expect((await firefox.get('/api/auth/me')).status).toBe(200)
    expect((await listSessions(laptop)).map((s) => s.id)).not.toContain(target.id)
    // Gone is gone; and an id that is not the caller's is not found either.
    const again = await laptop.delete(`/api/sessions/${target.id}`)
    expect(again.status).toBe(404)
    expect(again.body.code).toBe('SESSION_NOT_FOUND')
    const stranger = t.client()
    await registerOrg(stranger)
    const laptopSession = (await listSessions(laptop)).find((s) => s.current)!
    expect((await stranger.delete(`/api/sessions/${laptopSession.id}`)).body.code).toBe('SESSION_NOT_FOUND')
    expect((await laptop.get('/api/auth/me')).status).toBe(200)
    const [entry] = await auditOf(user.id, 'session.ended')
    expect(entry).toMatchObject({ actorId: user.id, targetId: user.id })
  })

  test('ending the current session signs this browser out', async () => {
    const client = t.client()
    await registerOrg(client)
    const current = (await listSessions(client)).find((s) => s.current)!
    expect((await client.delete(`/api/sessions/${current.id}`)).status).toBe(204)
    expect((await client.get('/api/auth/me')).status).toBe(401)
  })

  test('"sign out everywhere else" ends every session but this one', async () => {
    const laptop = t.client()
    const { email } = await registerOrg(laptop)
    const phone = await signInElsewhere(email, SAFARI_IPHONE, '198.51.100.3')
    const firefox = await signInElsewhere(email, FIREFOX_LINUX, '198.51.100.4')
    const res = await firefox.post('/api/sessions/end-others')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ended: 2 })
    expect((await laptop.get('/api/auth/me')).status).toBe(401)
    expect((await phone.get('/api/auth/me')).status).toBe(401)
    expect((await listSessions(firefox)).map((s) => s.current)).toEqual([true])
    expect((await firefox.post('/api/sessions/end-others')).body).toEqual({ ended: 0 })
  })

  test('changing the password ends the other sessions and keeps this one', async () => {
    const laptop = t.client()
    const { email } = await registerOrg(laptop)
    const phone = await signInElsewhere(email, SAFARI_IPHONE, '198.51.100.5')
    expect((await laptop.patch('/api/users/password', { currentPassword: PASSWORD, newPassword: 'Changed789Pass' })).status).toBe(200)
    expect((await phone.get('/api/auth/me')).status).toBe(401)
    expect((await listSessions(laptop)).map((s) => s.current)).toEqual([true])
  })

  test('a malformed session id is a validation error; signed out, the list is refused', async () => {
    const client = t.client()
    await registerOrg(client)
    const res = await client.delete(`/api/sessions/${'x'.repeat(65)}`)
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('VALIDATION_FAILED')
    expect((await t.client().get('/api/sessions')).status).toBe(401)
  })
})

describe("an admin ends a member's sessions", () => {
  test('the member is signed out in every browser at once, and can sign in again', async () => {
    const adminClient = t.client()
    const admin = await registerOrg(adminClient)
    const member = await joinAsMember(t, adminClient)
    const phone = await signInElsewhere(member.email, SAFARI_IPHONE, '198.51.100.6')
    const res = await adminClient.delete(`/api/users/${member.id}/sessions`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ended: 2 })
    expect((await member.client.get('/api/auth/me')).status).toBe(401)
    expect((await phone.get('/api/auth/me')).status).toBe(401)
    expect((await adminClient.get('/api/auth/me')).status).toBe(200)
    const [entry] = await auditOf(admin.user.id, 'member.sessions_ended')
    expect(entry).toMatchObject({ actorId: admin.user.id, targetId: member.id, targetLabel: member.email })
    expect(JSON.parse(String(entry!.details))).toEqual({ count: 2 })
    expect((await signInElsewhere(member.email, FIREFOX_LINUX, '198.51.100.7').then((c) => c.get('/api/auth/me'))).status).toBe(200)
  })

  test('a member may not, and an admin of another organisation finds no such member', async () => {
    const adminClient = t.client()
    await registerOrg(adminClient)
    const member = await joinAsMember(t, adminClient)
    const colleague = await joinAsMember(t, adminClient, 'user', 'Cleo Colleague')
    const refused = await colleague.client.delete(`/api/users/${member.id}/sessions`)
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('FORBIDDEN')
    const otherAdmin = t.client()
    await registerOrg(otherAdmin)
    const notFound = await otherAdmin.delete(`/api/users/${member.id}/sessions`)
    expect(notFound.status).toBe(404)
    expect(notFound.body.code).toBe('USER_NOT_FOUND')
    expect((await member.client.get('/api/auth/me')).status).toBe(200)
  })
})
