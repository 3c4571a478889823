import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestApp, PASSWORD, registerOrg } from '../../../tests/support/test-app'

let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

/** An organisation with its admin and one invited member (signed in). */
async function orgWithMember() {
  const admin = t.client()
  const org = await registerOrg(admin, { organizationName: 'Acme Analytics' })
  const invite = await admin.post('/api/invites', { email: `member-${crypto.randomUUID().slice(0, 8)}@acme.test`, role: 'user' })
  const member = t.client()
  const token = new URL(invite.body.acceptUrl).searchParams.get('token')
  expect((await member.post('/api/invites/accept', { token, name: 'Mia Member', password: PASSWORD, passwordConfirmation: PASSWORD })).status).toBe(201)
  return { admin, org, member }
}

describe('/api/organization', () => {
  test('an admin reads and renames the organisation; every member sees the new name at once', async () => {
    const { admin, org, member } = await orgWithMember()
    const read = await admin.get('/api/organization')
    expect(read.status).toBe(200)
    expect(read.body).toEqual({ id: org.user.organization.id, name: 'Acme Analytics', createdAt: expect.any(String) })

    const renamed = await admin.patch('/api/organization', { name: '  Acme Research  ' })
    expect(renamed.status).toBe(200)
    expect(renamed.body.name).toBe('Acme Research')
    expect((await admin.get('/api/auth/me')).body.organization.name).toBe('Acme Research')
    expect((await member.get('/api/auth/me')).body.organization.name).toBe('Acme Research')
  })

  test('members may neither read nor rename it; another organisation is untouched', async () => {
    const { admin, member } = await orgWithMember()
    const other = t.client()
    await registerOrg(other, { organizationName: 'Globex' })
    expect((await member.get('/api/organization')).status).toBe(403)
    const refused = await member.patch('/api/organization', { name: 'Taken over' })
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('FORBIDDEN')
    expect((await other.patch('/api/organization', { name: 'Globex Corp' })).status).toBe(200)
    expect((await admin.get('/api/organization')).body.name).toBe('Acme Analytics')
    expect((await t.client().get('/api/organization')).status).toBe(401)
  })

  test('a name that is empty, blank, too long or not text is refused with the field, and nothing changes', async () => {
    const { admin } = await orgWithMember()
    for (const name of ['', '   ', 'x'.repeat(101), 42, null]) {
      const res = await admin.patch('/api/organization', { name })
      expect(res.status, JSON.stringify(name)).toBe(400)
      expect(res.body.code).toBe('VALIDATION_FAILED')
      expect(Object.keys(res.body.fields)).toEqual(['name'])
    }
    expect((await admin.patch('/api/organization', {})).body.code).toBe('VALIDATION_FAILED')
    expect((await admin.get('/api/organization')).body.name).toBe('Acme Analytics')
  })
})
