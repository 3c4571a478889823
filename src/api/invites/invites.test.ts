import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { invites, users } from '../../../db/schema'
import { linkFrom } from '../../../tests/support/smtp-sink'
import { createTestApp, PASSWORD, registerConfirmedOrg, registerOrg } from '../../../tests/support/test-app'

let t: Awaited<ReturnType<typeof createTestApp>>
let mail: Awaited<ReturnType<typeof createTestApp>>
let cloud: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  ;[t, mail, cloud] = await Promise.all([createTestApp(), createTestApp({ smtp: true }), createTestApp({ env: { KONTOR_CLOUD: 'true' } })])
})
afterAll(async () => {
  await Promise.all([t.close(), mail.close(), cloud.close()])
})

const uniqueEmail = (prefix = 'invitee') => `${prefix}-${crypto.randomUUID().slice(0, 8)}@acme.test`
const tokenOf = (url: string) => new URL(url).searchParams.get('token')!
const acceptBody = (token: string) => ({ token, name: 'Ivy Invitee', password: PASSWORD, passwordConfirmation: PASSWORD })

describe('POST /api/invites', () => {
  test('without SMTP the admin gets the link to pass on, and the mail goes to the outbox', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const email = uniqueEmail()
    const res = await admin.post('/api/invites', { email, role: 'admin' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ email, role: 'admin', status: 'pending', mailSent: false })
    expect(res.body.acceptUrl).toStartWith('http://localhost:3000/accept-invite?token=')
    const outbox = await t.deps.db.query.outboxEmails.findMany()
    expect(outbox.some((m) => m.to === email && m.status === 'logged')).toBe(true)
  })

  test('with SMTP the invitation is mailed in the chosen language and no link is returned', async () => {
    const admin = mail.client()
    await registerConfirmedOrg(mail, admin, { organizationName: 'Müller & Söhne' })
    const email = uniqueEmail()
    const res = await admin.post('/api/invites', { email, role: 'user', locale: 'de' })
    expect(res.status).toBe(201)
    expect(res.body.mailSent).toBe(true)
    expect(res.body.acceptUrl).toBeUndefined()
    const received = await mail.sink!.waitForMail(email)
    expect(received.subject).toContain('Müller & Söhne')
    expect(received.subject).toContain('eingeladen')
    const link = linkFrom(received, '/accept-invite')
    const preview = await mail.client().get(`/api/invites/preview?token=${encodeURIComponent(tokenOf(link.href))}`)
    expect(preview.status).toBe(200)
    expect(preview.body).toMatchObject({ email, role: 'user', organizationName: 'Müller & Söhne' })
  })

  test('refuses an address that is already a member', async () => {
    const admin = t.client()
    const { email } = await registerOrg(admin)
    const res = await admin.post('/api/invites', { email, role: 'user' })
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ code: 'USER_EXISTS', message: 'User already exists', status: 409 })
  })

  test('validates e-mail and role', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const res = await admin.post('/api/invites', { email: 'not-an-email', role: 'owner' })
    expect(res.status).toBe(400)
    expect(Object.keys(res.body.fields).sort()).toEqual(['email', 'role'])
  })

  test('inviting a pending address again sends a new link; the old one stops working', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const email = uniqueEmail()
    const first = await admin.post('/api/invites', { email, role: 'user' })
    const second = await admin.post('/api/invites', { email, role: 'admin' })
    expect(second.status).toBe(201)
    expect(second.body.id).toBe(first.body.id)
    expect(second.body.role).toBe('admin')
    const old = await t.client().get(`/api/invites/preview?token=${tokenOf(first.body.acceptUrl)}`)
    expect(old.status).toBe(404)
    expect(old.body.code).toBe('INVITE_INVALID')
    const resent = await admin.post(`/api/invites/${first.body.id}/resend`)
    expect(resent.status).toBe(200)
    expect((await t.client().get(`/api/invites/preview?token=${tokenOf(second.body.acceptUrl)}`)).status).toBe(404)
    expect((await t.client().get(`/api/invites/preview?token=${tokenOf(resent.body.acceptUrl)}`)).status).toBe(200)
    expect((await admin.get('/api/invites')).body).toHaveLength(1)
  })
})

describe('invite statuses', () => {
  test('pending, accepted, rejected and expired', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const [a, b, c, d] = await Promise.all(
      ['accepted', 'rejected', 'expired', 'pending'].map((s) => admin.post('/api/invites', { email: uniqueEmail(s), role: 'user' })),
    )
    expect((await t.client().post('/api/invites/accept', acceptBody(tokenOf(a!.body.acceptUrl)))).status).toBe(201)
    expect((await admin.delete(`/api/invites/${b!.body.id}`)).status).toBe(204)
    await t.deps.db.update(invites).set({ sentAt: new Date(Date.now() - 7 * 24 * 3600_000 - 1000) }).where(eq(invites.id, c!.body.id))
    const list = await admin.get('/api/invites')
    const byId = Object.fromEntries(list.body.map((i: { id: string; status: string }) => [i.id, i.status]))
    expect(byId).toEqual({ [a!.body.id]: 'accepted', [b!.body.id]: 'rejected', [c!.body.id]: 'expired', [d!.body.id]: 'pending' })
    expect((await admin.get(`/api/invites/${c!.body.id}`)).body.status).toBe('expired')

    // Revoked and expired links are invalid; an expired invite can be sent again.
    for (const invite of [b!, c!]) {
      const res = await t.client().post('/api/invites/accept', acceptBody(tokenOf(invite.body.acceptUrl)))
      expect(res.status).toBe(404)
      expect(res.body.message).toBe('Your invitation link is invalid. Please contact the administrator of the organization.')
    }
    const renewed = await admin.post(`/api/invites/${c!.body.id}/resend`)
    expect(renewed.body.status).toBe('pending')
    expect((await admin.post(`/api/invites/${b!.body.id}/resend`)).body.code).toBe('INVITE_NOT_PENDING')
    expect((await admin.delete(`/api/invites/${a!.body.id}`)).body.code).toBe('INVITE_NOT_PENDING')
  })

  test('another organisation cannot see, resend or revoke an invite', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const invite = await admin.post('/api/invites', { email: uniqueEmail(), role: 'user' })
    const stranger = t.client()
    await registerOrg(stranger)
    expect((await stranger.get(`/api/invites/${invite.body.id}`)).status).toBe(404)
    expect((await stranger.post(`/api/invites/${invite.body.id}/resend`)).status).toBe(404)
    expect((await stranger.delete(`/api/invites/${invite.body.id}`)).body.code).toBe('INVITE_NOT_FOUND')
    expect((await stranger.get('/api/invites')).body).toEqual([])
    expect((await admin.get(`/api/invites/${invite.body.id}`)).body.status).toBe('pending')
  })
})

describe('POST /api/invites/accept', () => {
  test('creates a confirmed user with the invited role in the organisation and signs them in', async () => {
    const admin = t.client()
    const org = await registerOrg(admin)
    const email = uniqueEmail()
    const invite = await admin.post('/api/invites', { email, role: 'user' })
    const invitee = t.client()
    const res = await invitee.post('/api/invites/accept', acceptBody(tokenOf(invite.body.acceptUrl)))
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ email, name: 'Ivy Invitee', role: 'user', emailVerified: true, organization: { id: org.user.organization.id } })
    expect((await invitee.get('/api/auth/me')).body.email).toBe(email)
    expect((await invitee.get('/api/users')).status).toBe(403)
    const again = await t.client().post('/api/invites/accept', acceptBody(tokenOf(invite.body.acceptUrl)))
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ code: 'INVITE_ALREADY_ACCEPTED', message: 'You have already accepted an invitation.', status: 409 })
  })

  test('of concurrent accepts of one invite exactly one succeeds', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const email = uniqueEmail()
    const invite = await admin.post('/api/invites', { email, role: 'user' })
    const token = tokenOf(invite.body.acceptUrl)
    const results = await Promise.all([1, 2, 3].map(() => t.client().post('/api/invites/accept', acceptBody(token))))
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409])
    expect(await t.deps.db.query.users.findMany({ where: eq(users.email, email) })).toHaveLength(1)
  })

  test('refuses bad tokens, mismatched passwords, weak passwords and signed-in callers', async () => {
    const admin = t.client()
    const org = await registerOrg(admin)
    const invite = await admin.post('/api/invites', { email: uniqueEmail(), role: 'user' })
    const token = tokenOf(invite.body.acceptUrl)
    const bogus = await t.client().post('/api/invites/accept', acceptBody('nope'))
    expect(bogus.body.code).toBe('INVITE_INVALID')
    const mismatch = await t.client().post('/api/invites/accept', { ...acceptBody(token), passwordConfirmation: 'Other1234' })
    expect(mismatch.body.fields).toEqual({ passwordConfirmation: 'Passwords do not match' })
    const weak = await t.client().post('/api/invites/accept', { ...acceptBody(token), password: 'weak', passwordConfirmation: 'weak' })
    expect(weak.body.fields.password).toBe('Invalid password. Must be at least 8 characters, uppercase, lowercase and numbers.')
    const signedIn = await admin.post('/api/invites/accept', acceptBody(token))
    expect(signedIn.status).toBe(409)
    expect(signedIn.body.code).toBe('SIGNED_IN_AS_OTHER_USER')
    expect((await admin.get('/api/auth/me')).body.email).toBe(org.email)
    // Nothing was half-created: the invite is still pending and usable.
    expect((await t.client().post('/api/invites/accept', acceptBody(token))).status).toBe(201)
  })

  test('an address registered meanwhile cannot accept', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const email = uniqueEmail()
    const invite = await admin.post('/api/invites', { email, role: 'user' })
    await registerOrg(t.client(), { email })
    const res = await t.client().post('/api/invites/accept', acceptBody(tokenOf(invite.body.acceptUrl)))
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ code: 'USER_EXISTS', message: 'User already exists', status: 409 })
  })
})

describe('seats in cloud mode', () => {
  test('an organisation without a subscription has one seat, so inviting is not possible', async () => {
    const admin = cloud.client()
    await registerOrg(admin)
    const res = await admin.post('/api/invites', { email: uniqueEmail(), role: 'user' })
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ code: 'INVITE_NOT_POSSIBLE', message: 'Invite not possible.', status: 409 })
    expect((await admin.get('/api/invites')).body).toEqual([])
  })

  test('self-hosted instances have no seat limit', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const results = await Promise.all(Array.from({ length: 5 }, () => admin.post('/api/invites', { email: uniqueEmail(), role: 'user' })))
    expect(results.every((r) => r.status === 201)).toBe(true)
  })
})
