import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { scimTokens, sessions } from '../../../db/schema'
import { sha256Hex } from '../../lib/sha256'
import { createTestApp, joinAsMember, PASSWORD, registerOrg } from '../../../tests/support/test-app'

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group'
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error'

let t: Awaited<ReturnType<typeof createTestApp>>
let cloud: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  ;[t, cloud] = await Promise.all([createTestApp(), createTestApp({ env: { KONTOR_CLOUD: 'true' } })])
})
afterAll(async () => {
  await Promise.all([t.close(), cloud.close()])
})

type App = typeof t

/** An organisation with its admin signed in and a SCIM token. */
async function orgWithToken(app: App = t) {
  const admin = app.client()
  const org = await registerOrg(admin, { email: `admin-${crypto.randomUUID().slice(0, 8)}@acme-corp.test` })
  const created = await admin.post('/api/scim-tokens', { name: 'Entra ID' })
  expect(created.status).toBe(201)
  const token = created.body.token as string
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await app.app.request(`/scim/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/scim+json' }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null }
  }
  return { admin, org, token, tokenId: created.body.id as string, call }
}

const newUser = (extra: Record<string, unknown> = {}) => {
  const n = crypto.randomUUID().slice(0, 8)
  return { schemas: [USER], userName: `u-${n}@acme-corp.test`, name: { givenName: 'Ada', familyName: `Lovelace ${n}` }, emails: [{ value: `u-${n}@acme-corp.test`, primary: true }], active: true, externalId: `ext-${n}`, ...extra }
}

describe('SCIM tokens', () => {
  test('a token is shown once, kept as its hash, listed with its last use, and refused once revoked', async () => {
    const { admin, token, tokenId, call } = await orgWithToken()
    expect(token).toMatch(/^kontor_scim_[A-Za-z0-9_-]{43}$/)
    const [row] = await t.deps.db.select().from(scimTokens).where(eq(scimTokens.id, tokenId))
    expect(row!.tokenHash).toBe(await sha256Hex(token))
    expect(JSON.stringify(row)).not.toContain(token)

    let list = (await admin.get('/api/scim-tokens')).body
    expect(list).toEqual([{ id: tokenId, name: 'Entra ID', start: token.slice(0, 16), createdAt: expect.any(String), lastUsedAt: null, createdBy: { id: expect.any(String), name: expect.any(String) } }])
    expect(JSON.stringify(list)).not.toContain(token)

    expect((await call('GET', '/ServiceProviderConfig')).status).toBe(200)
    list = (await admin.get('/api/scim-tokens')).body
    expect(list[0].lastUsedAt).not.toBeNull()

    expect((await admin.delete(`/api/scim-tokens/${tokenId}`)).status).toBe(204)
    const refused = await call('GET', '/Users')
    expect(refused.status).toBe(401)
    expect(refused.body).toEqual({ schemas: [ERROR], status: '401', detail: expect.any(String) })
    expect(refused.headers.get('www-authenticate')).toContain('Bearer')
    expect((await admin.delete(`/api/scim-tokens/${tokenId}`)).body.code).toBe('SCIM_TOKEN_NOT_FOUND')

    const audit = (await admin.get('/api/audit-log')).body.entries.map((e: { action: string }) => e.action)
    expect(audit).toEqual(expect.arrayContaining(['scim_token.created', 'scim_token.revoked']))
  })

  test('a missing or wrong bearer is refused in SCIM format; a blank name is refused', async () => {
    const { admin } = await orgWithToken()
    for (const authorization of [undefined, 'Bearer nope', 'Bearer kontor_scim_wrong', 'Basic abc']) {
      const res = await t.app.request('/scim/v2/Users', { headers: authorization ? { authorization } : {} })
      expect(res.status).toBe(401)
      expect((await res.json()).schemas).toEqual([ERROR])
    }
    const blank = await admin.post('/api/scim-tokens', { name: ' ' })
    expect(blank.status).toBe(400)
    expect(blank.body.code).toBe('VALIDATION_FAILED')
  })
})

describe('SCIM discovery', () => {
  test('ServiceProviderConfig, ResourceTypes and Schemas describe what is supported', async () => {
    const { call } = await orgWithToken()
    const config = await call('GET', '/ServiceProviderConfig')
    expect(config.headers.get('content-type')).toContain('application/scim+json')
    expect(config.body).toMatchObject({ patch: { supported: true }, bulk: { supported: false }, filter: { supported: true, maxResults: 200 }, authenticationSchemes: [{ type: 'oauthbearertoken' }] })
    const types = await call('GET', '/ResourceTypes')
    expect(types.body.Resources.map((r: { id: string }) => r.id)).toEqual(['User', 'Group'])
    expect((await call('GET', '/ResourceTypes/Group')).body.endpoint).toBe('/Groups')
    const schemas = await call('GET', '/Schemas')
    expect(schemas.body.totalResults).toBe(2)
    expect((await call('GET', `/Schemas/${USER}`)).body.attributes.map((a: { name: string }) => a.name)).toContain('userName')
    expect((await call('GET', '/Schemas/urn:nope')).status).toBe(404)
    expect((await call('GET', '/Nothing')).body).toMatchObject({ schemas: [ERROR], status: '404' })
  })
})

describe('SCIM Users', () => {
  test('create, read, filter by userName, paginate', async () => {
    const { call, admin } = await orgWithToken()
    const body = newUser()
    const created = await call('POST', '/Users', body)
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      schemas: [USER],
      userName: body.userName,
      externalId: body.externalId,
      displayName: `Ada ${body.name.familyName}`,
      emails: [{ value: body.userName, primary: true }],
      active: true,
      groups: [],
      meta: { resourceType: 'User', location: `http://localhost:3000/scim/v2/Users/${created.body.id}` },
    })
    expect((await call('GET', `/Users/${created.body.id}`)).body).toEqual(created.body)
    // The member appears under Users of the organisation.
    expect((await admin.get('/api/users')).body.map((m: { email: string }) => m.email)).toContain(body.userName)

    const again = await call('POST', '/Users', { ...newUser(), userName: body.userName.toUpperCase() })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ schemas: [ERROR], status: '409', scimType: 'uniqueness' })

    const found = await call('GET', `/Users?filter=${encodeURIComponent(`userName eq "${body.userName.toUpperCase()}"`)}`)
    expect(found.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 1, startIndex: 1, itemsPerPage: 1 })
    expect(found.body.Resources[0].id).toBe(created.body.id)
    expect((await call('GET', `/Users?filter=${encodeURIComponent(`externalId eq "${body.externalId}"`)}`)).body.totalResults).toBe(1)
    expect((await call('GET', `/Users?filter=${encodeURIComponent('userName eq "nobody@acme-corp.test"')}`)).body).toMatchObject({ totalResults: 0, Resources: [] })

    for (let i = 0; i < 3; i++) expect((await call('POST', '/Users', newUser())).status).toBe(201)
    // The admin plus four provisioned members.
    const page = await call('GET', '/Users?startIndex=2&count=2')
    expect(page.body).toMatchObject({ totalResults: 5, startIndex: 2, itemsPerPage: 2 })
    const all = await call('GET', '/Users?count=500')
    expect(all.body.itemsPerPage).toBe(5)
    expect(page.body.Resources.map((r: { id: string }) => r.id)).toEqual(all.body.Resources.slice(1, 3).map((r: { id: string }) => r.id))
    expect((await call('GET', '/Users?count=0')).body).toMatchObject({ totalResults: 5, itemsPerPage: 0, Resources: [] })

    const audit = (await admin.get('/api/audit-log?action=scim.user_created')).body.entries
    expect(audit[0].actor.name).toBe('SCIM (Entra ID)')
  })

  test('PATCH changes active, name and e-mail; PUT replaces; DELETE removes the member', async () => {
    const { call } = await orgWithToken()
    const { body: user } = await call('POST', '/Users', newUser())
    const n = crypto.randomUUID().slice(0, 6)
    const patched = await call('PATCH', `/Users/${user.id}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'replace', path: 'name.familyName', value: 'Byron' },
        { op: 'replace', path: 'emails[type eq "work"].value', value: `new-${n}@acme-corp.test` },
        { op: 'Replace', value: { 'name.givenName': 'Augusta', title: 'Countess' } },
      ],
    })
    expect(patched.status).toBe(200)
    expect(patched.body).toMatchObject({ displayName: 'Augusta Byron', userName: `new-${n}@acme-corp.test`, active: true })

    const replaced = await call('PUT', `/Users/${user.id}`, { schemas: [USER], userName: `put-${n}@acme-corp.test`, displayName: 'Ada King', active: true })
    expect(replaced.body).toMatchObject({ userName: `put-${n}@acme-corp.test`, displayName: 'Ada King' })
    expect(replaced.body.externalId).toBeUndefined()

    expect((await call('DELETE', `/Users/${user.id}`)).status).toBe(204)
    expect((await call('GET', `/Users/${user.id}`)).body).toMatchObject({ schemas: [ERROR], status: '404' })
    expect((await call('DELETE', `/Users/${user.id}`)).status).toBe(404)
  })

  test('deactivating a member ends their sessions at once and keeps them from signing in again', async () => {
    const { admin, call } = await orgWithToken()
    const member = await joinAsMember(t, admin)
    expect((await member.client.get('/api/auth/me')).status).toBe(200)
    const off = await call('PATCH', `/Users/${member.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: 'False' }] })
    expect(off.body.active).toBe(false)
    expect((await t.deps.db.select().from(sessions).where(eq(sessions.userId, member.id))).length).toBe(0)
    expect((await member.client.get('/api/auth/me')).status).toBe(401)
    const signIn = await t.client().post('/api/auth/login', { email: member.email, password: PASSWORD })
    expect(signIn.status).toBe(401)
    expect((await call('GET', `/Users?filter=${encodeURIComponent('active eq false')}`)).body.totalResults).toBe(1)
    expect((await admin.get('/api/users')).body.find((m: { id: string }) => m.id === member.id).deactivated).toBe(true)

    const on = await call('PATCH', `/Users/${member.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: true } }] })
    expect(on.body.active).toBe(true)
    expect((await t.client().post('/api/auth/login', { email: member.email, password: PASSWORD })).status).toBe(200)
  })

  test('the last admin can be neither deactivated nor deleted', async () => {
    const { call, org } = await orgWithToken()
    const adminId = org.user.id as string
    const off = await call('PATCH', `/Users/${adminId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] })
    expect(off.body).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'mutability' })
    expect((await call('DELETE', `/Users/${adminId}`)).status).toBe(400)
  })

  test('bad bodies get SCIM errors and change nothing', async () => {
    const { call } = await orgWithToken()
    const cases: [unknown, string][] = [
      ['{not json', 'invalidSyntax'],
      [{ ...newUser(), schemas: [USER, 'urn:example:unknown'] }, 'invalidSyntax'],
      [{ ...newUser(), schemas: [GROUP] }, 'invalidSyntax'],
      [{ schemas: [USER] }, 'invalidValue'],
      [{ schemas: [USER], userName: 'not-an-address' }, 'invalidValue'],
      [{ ...newUser(), active: 'maybe' }, 'invalidValue'],
    ]
    for (const [body, scimType] of cases) {
      const res = await call('POST', '/Users', body)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ schemas: [ERROR], status: '400', scimType })
    }
    expect((await call('GET', '/Users')).body.totalResults).toBe(1)
    const { body: user } = await call('POST', '/Users', newUser())
    const badPatches: [unknown, string][] = [
      [{ schemas: [PATCH], Operations: [{ op: 'replace', path: 'password', value: 'x' }] }, 'invalidPath'],
      [{ schemas: [PATCH], Operations: [{ op: 'move', path: 'active', value: false }] }, 'invalidSyntax'],
      [{ schemas: [PATCH], Operations: [] }, 'invalidSyntax'],
      [{ schemas: [USER], Operations: [{ op: 'replace', path: 'active', value: false }] }, 'invalidSyntax'],
    ]
    for (const [body, scimType] of badPatches) expect((await call('PATCH', `/Users/${user.id}`, body)).body).toMatchObject({ status: '400', scimType })
    expect((await call('GET', `/Users/${user.id}`)).body.active).toBe(true)
    for (const filter of ['userName co "a"', 'password eq "x"', 'userName eq "a" and active eq true']) {
      expect((await call('GET', `/Users?filter=${encodeURIComponent(filter)}`)).body).toMatchObject({ status: '400', scimType: 'invalidFilter' })
    }
  })
})

describe('SCIM Groups', () => {
  test('groups are the organisation’s groups, members included: create, filter, PATCH members, rename, PUT, DELETE', async () => {
    const { call, admin } = await orgWithToken()
    const [a, b, c] = await Promise.all([1, 2, 3].map(async () => (await call('POST', '/Users', newUser())).body))
    const created = await call('POST', '/Groups', { schemas: [GROUP], displayName: 'Engineering', externalId: 'g-1', members: [{ value: a.id }] })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ schemas: [GROUP], displayName: 'Engineering', externalId: 'g-1', members: [{ value: a.id, display: a.displayName }] })
    const id = created.body.id
    // The same group under Admin Settings → Groups.
    expect((await admin.get('/api/groups')).body).toEqual([expect.objectContaining({ id, name: 'Engineering', members: [expect.objectContaining({ id: a.id })] })])
    expect((await call('GET', `/Users/${a.id}`)).body.groups).toEqual([expect.objectContaining({ value: id, display: 'Engineering' })])

    expect((await call('POST', '/Groups', { schemas: [GROUP], displayName: 'Engineering' })).body).toMatchObject({ status: '409', scimType: 'uniqueness' })
    expect((await call('GET', `/Groups?filter=${encodeURIComponent('displayName eq "Engineering"')}`)).body.totalResults).toBe(1)
    expect((await call('GET', '/Groups?excludedAttributes=members')).body.Resources[0].members).toBeUndefined()

    let res = await call('PATCH', `/Groups/${id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: b.id }, { value: c.id }] }] })
    expect(res.body.members.map((m: { value: string }) => m.value).sort()).toEqual([a.id, b.id, c.id].sort())
    res = await call('PATCH', `/Groups/${id}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'remove', path: `members[value eq "${a.id}"]` },
        { op: 'remove', path: 'members', value: [{ value: b.id }] },
        { op: 'replace', value: { displayName: 'Platform' } },
      ],
    })
    expect(res.body).toMatchObject({ displayName: 'Platform', members: [{ value: c.id }] })

    res = await call('PUT', `/Groups/${id}`, { schemas: [GROUP], displayName: 'Platform team', members: [{ value: a.id }] })
    expect(res.body).toMatchObject({ displayName: 'Platform team', members: [{ value: a.id }] })
    expect(res.body.externalId).toBeUndefined()

    const unknown = await call('PATCH', `/Groups/${id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: 'no-such-user' }] }] })
    expect(unknown.body).toMatchObject({ status: '400', scimType: 'invalidValue' })

    const actions = (await admin.get('/api/audit-log')).body.entries.map((e: { action: string }) => e.action)
    expect(actions).toEqual(expect.arrayContaining(['scim.group_created', 'scim.group_updated']))

    expect((await call('DELETE', `/Groups/${id}`)).status).toBe(204)
    expect((await call('GET', `/Groups/${id}`)).status).toBe(404)
    expect((await admin.get('/api/groups')).body).toEqual([])
  })
})

describe('SCIM across organisations', () => {
  test("a token reaches its own organisation only", async () => {
    const one = await orgWithToken()
    const other = await orgWithToken()
    const { body: user } = await one.call('POST', '/Users', newUser())
    const { body: group } = await one.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Secret', members: [{ value: user.id }] })
    expect((await other.call('GET', `/Users/${user.id}`)).status).toBe(404)
    expect((await other.call('PATCH', `/Users/${user.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] })).status).toBe(404)
    expect((await other.call('PUT', `/Users/${user.id}`, newUser())).status).toBe(404)
    expect((await other.call('DELETE', `/Users/${user.id}`)).status).toBe(404)
    expect((await other.call('GET', `/Groups/${group.id}`)).status).toBe(404)
    expect((await other.call('DELETE', `/Groups/${group.id}`)).status).toBe(404)
    expect((await other.call('GET', `/Users?filter=${encodeURIComponent(`userName eq "${user.userName}"`)}`)).body.totalResults).toBe(0)
    // A member of another organisation cannot be put into a group.
    const { body: mine } = await other.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Mine' })
    const foreign = await other.call('PATCH', `/Groups/${mine.id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: user.id }] }] })
    expect(foreign.body).toMatchObject({ status: '400', scimType: 'invalidValue' })
    // Another organisation's admin cannot revoke the token.
    expect((await other.admin.delete(`/api/scim-tokens/${one.tokenId}`)).status).toBe(404)
    expect((await one.call('GET', `/Users/${user.id}`)).status).toBe(200)
  })
})

describe('SCIM seats (cloud)', () => {
  test('an active member takes a seat; a deactivated one frees it', async () => {
    // Without a subscription a cloud organisation has one seat, its admin's.
    const { call, admin } = await orgWithToken(cloud)
    const full = await call('POST', '/Users', newUser())
    expect(full.status).toBe(403)
    expect(full.body).toMatchObject({ schemas: [ERROR], status: '403' })
    const inactive = await call('POST', '/Users', newUser({ active: false }))
    expect(inactive.status).toBe(201)
    expect(inactive.body.active).toBe(false)
    expect((await call('PATCH', `/Users/${inactive.body.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: true }] })).status).toBe(403)


    // With two seats: one member fits; deactivating them makes room for the next.
    const billing = { companyName: 'Acme GmbH', street: 'Hauptstraße', houseNumber: '1a', postalCode: '10115', city: 'Berlin', country: 'Germany' }
    expect((await admin.post('/api/subscriptions', { ...billing, noOfSeats: 2 })).status).toBe(201)
    const first = await call('POST', '/Users', newUser())
    expect(first.status).toBe(201)
    expect((await call('POST', '/Users', newUser())).status).toBe(403)
    await call('PATCH', `/Users/${first.body.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] })
    expect((await admin.get('/api/subscriptions')).body.usedSeats).toBe(1)
    expect((await call('POST', '/Users', newUser())).status).toBe(201)
  })
})
