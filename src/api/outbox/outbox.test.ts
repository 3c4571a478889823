import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestApp, registerOrg } from '../../../tests/support/test-app'

let t: Awaited<ReturnType<typeof createTestApp>>
let production: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  ;[t, production] = await Promise.all([createTestApp(), createTestApp({ env: { NODE_ENV: 'production' } })])
})
afterAll(async () => {
  await Promise.all([t.close(), production.close()])
})

const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}@acme.test`

describe('GET /api/dev/outbox', () => {
  test("lists the mails to the organisation's members and invitees, newest first, rendered and as text", async () => {
    const admin = t.client()
    const org = await registerOrg(admin)
    const first = unique('first')
    const second = unique('second')
    await admin.post('/api/invites', { email: first, role: 'user' })
    await admin.post('/api/invites', { email: second, role: 'admin' })
    await admin.post('/api/users/forgot-password', { email: org.email })

    const res = await admin.get('/api/dev/outbox')
    expect(res.status).toBe(200)
    expect(res.body.map((m: { to: string }) => m.to)).toEqual([org.email, second, first])
    const invitation = res.body.find((m: { to: string }) => m.to === first)
    expect(invitation).toMatchObject({ status: 'logged', subject: expect.any(String) })
    expect(invitation.html).toContain('/accept-invite?token=')
    expect(invitation.text).toContain('/accept-invite?token=')
  })

  test("another organisation's mails stay out of sight", async () => {
    const ours = t.client()
    await registerOrg(ours)
    const theirs = t.client()
    await registerOrg(theirs)
    const theirInvitee = unique('theirs')
    await theirs.post('/api/invites', { email: theirInvitee, role: 'user' })
    const res = await ours.get('/api/dev/outbox')
    expect(res.status).toBe(200)
    expect(res.body.some((m: { to: string }) => m.to === theirInvitee)).toBe(false)
  })

  test('members get 403 and the signed-out 401', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const invite = await admin.post('/api/invites', { email: unique('member'), role: 'user' })
    const member = t.client()
    const token = new URL(invite.body.acceptUrl).searchParams.get('token')
    await member.post('/api/invites/accept', { token, name: 'M', password: 'Secret123', passwordConfirmation: 'Secret123' })
    expect((await member.get('/api/dev/outbox')).body).toMatchObject({ code: 'FORBIDDEN', status: 403 })
    expect((await t.client().get('/api/dev/outbox')).body).toMatchObject({ code: 'UNAUTHORIZED', status: 401 })
  })

  test('the instance says the mail page exists outside production', async () => {
    expect((await t.client().get('/api')).body.mailPage).toBe(true)
  })
})

describe('in production', () => {
  test('the outbox answers 404 to an admin and the instance says there is no mail page', async () => {
    const admin = production.client()
    await registerOrg(admin)
    await admin.post('/api/invites', { email: unique('prod'), role: 'user' })
    const res = await admin.get('/api/dev/outbox')
    expect(res.status).toBe(404)
    expect(res.body).toMatchObject({ code: 'NOT_FOUND', status: 404 })
    expect((await admin.get('/api')).body.mailPage).toBe(false)
  })
})
