import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { sessions, users } from '../../../db/schema'
import { createTestApp, PASSWORD, registerOrg, type TestClient } from '../../../tests/support/test-app'

let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

/** An organisation with its admin and one invited member (signed in). */
async function orgWithMember(role: 'user' | 'admin' = 'user') {
  const admin = t.client()
  const org = await registerOrg(admin)
  const email = `member-${crypto.randomUUID().slice(0, 8)}@acme.test`
  const invite = await admin.post('/api/invites', { email, role })
  expect(invite.status).toBe(201)
  const member = t.client()
  const token = new URL(invite.body.acceptUrl).searchParams.get('token')
  const accepted = await member.post('/api/invites/accept', { token, name: 'Mia Member', password: PASSWORD, passwordConfirmation: PASSWORD })
  expect(accepted.status).toBe(201)
  return { admin, org, member, memberId: accepted.body.id as string, memberEmail: email }
}

describe('GET /api/users', () => {
  test('lists the members of the own organisation only', async () => {
    const { admin, org, memberEmail } = await orgWithMember()
    await registerOrg(t.client()) // another organisation
    const res = await admin.get('/api/users')
    expect(res.status).toBe(200)
    expect(res.body.map((m: { email: string }) => m.email)).toEqual([org.email, memberEmail])
    expect(res.body[1]).toMatchObject({ name: 'Mia Member', role: 'user', emailVerified: true })
    expect(typeof res.body[1].joinedAt).toBe('string')
  })

  test('is for admins only', async () => {
    const { member } = await orgWithMember()
    const res = await member.get('/api/users')
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('FORBIDDEN')
  })
})

describe('PATCH /api/users/:id/role', () => {
  test('promotes and demotes a member', async () => {
    const { admin, member, memberId } = await orgWithMember()
    const up = await admin.patch(`/api/users/${memberId}/role`, { role: 'admin' })
    expect(up.status).toBe(200)
    expect(up.body.role).toBe('admin')
    expect((await member.get('/api/users')).status).toBe(200)
    const down = await admin.patch(`/api/users/${memberId}/role`, { role: 'user' })
    expect(down.body.role).toBe('user')
    expect((await member.get('/api/users')).status).toBe(403)
  })

  test('the last admin cannot be demoted', async () => {
    const admin = t.client()
    const { user } = await registerOrg(admin)
    const res = await admin.patch(`/api/users/${user.id}/role`, { role: 'user' })
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ code: 'LAST_ADMIN', message: 'An organisation needs at least one admin.', status: 409 })
  })

  test('two admins demoting each other at once leave one admin', async () => {
    const { admin, org, member, memberId } = await orgWithMember('admin')
    const results = await Promise.all([
      admin.patch(`/api/users/${memberId}/role`, { role: 'user' }),
      member.patch(`/api/users/${org.user.id}/role`, { role: 'user' }),
    ])
    const statuses = results.map((r) => r.status).sort()
    // Either one demotion wins and the other is refused, or the refused caller had lost admin rights first.
    expect(statuses[0]).toBe(200)
    expect([403, 409]).toContain(statuses[1]!)
    const admins = await t.deps.db.query.users.findMany({ where: eq(users.organizationId, org.user.organization.id) })
    expect(admins.filter((u) => u.role === 'admin')).toHaveLength(1)
  })

  test('refuses unknown roles and members of other organisations', async () => {
    const { admin, memberId } = await orgWithMember()
    const bad = await admin.patch(`/api/users/${memberId}/role`, { role: 'owner' })
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('VALIDATION_FAILED')
    expect(bad.body.fields.role).toBeDefined()
    const stranger = t.client()
    await registerOrg(stranger)
    const res = await stranger.patch(`/api/users/${memberId}/role`, { role: 'admin' })
    expect(res.status).toBe(404)
    expect(res.body.code).toBe('USER_NOT_FOUND')
  })
})

describe('DELETE /api/users/:id', () => {
  test('removes the member and ends their sessions at once', async () => {
    const { admin, member, memberId } = await orgWithMember()
    expect((await member.get('/api/auth/me')).status).toBe(200)
    const res = await admin.delete(`/api/users/${memberId}`)
    expect(res.status).toBe(204)
    expect((await member.get('/api/auth/me')).status).toBe(401)
    expect(await t.deps.db.query.sessions.findMany({ where: eq(sessions.userId, memberId) })).toHaveLength(0)
    expect((await admin.get('/api/users')).body).toHaveLength(1)
    const again = await admin.delete(`/api/users/${memberId}`)
    expect(again.status).toBe(404)
  })

  test('an admin cannot remove themselves, and the last admin stays', async () => {
    const admin = t.client()
    const { user } = await registerOrg(admin)
    const res = await admin.delete(`/api/users/${user.id}`)
    expect(res.status).toBe(409)
    expect(res.body.code).toBe('CANNOT_REMOVE_SELF')
  })

  test('a removed member can be invited again', async () => {
    const { admin, memberId, memberEmail } = await orgWithMember()
    await admin.delete(`/api/users/${memberId}`)
    const res = await admin.post('/api/invites', { email: memberEmail, role: 'user' })
    expect(res.status).toBe(201)
  })

  test('members of other organisations are not found', async () => {
    const { memberId } = await orgWithMember()
    const stranger = t.client()
    await registerOrg(stranger)
    const res = await stranger.delete(`/api/users/${memberId}`)
    expect(res.status).toBe(404)
  })
})

export type { TestClient }
