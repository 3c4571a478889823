import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { accounts, auditEntries, ssoProviders, subscriptions, users } from '../../../db/schema'
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_OTHER_CLIENT_ID, startOidcProvider } from '../../../tests/support/oidc-provider'
import { BASE_URL, createTestApp, joinAsMember, PASSWORD, registerOrg} from '../../../tests/support/test-app'
import { readSecret } from '../../lib/secret-box'
import { reencryptSsoSecrets } from './secrets'
import { undoSsoMemberBeyondSeats } from '../../auth/sso'

// Each test registers organisations (password hashing) and reads the provider's discovery document.
setDefaultTimeout(30_000)

type Idp = Awaited<ReturnType<typeof startOidcProvider>>
let idp: Idp
let t: Awaited<ReturnType<typeof createTestApp>>
let cloud: Awaited<ReturnType<typeof createTestApp>>
const env = { KONTOR_FETCH_ALLOWED_HOSTS: '127.0.0.1' }
beforeAll(async () => {
  idp = await startOidcProvider({ redirectPrefix: `${BASE_URL}/api/auth/sso/callback/` })
  t = await createTestApp({ env })
  cloud = await createTestApp({ env: { ...env, KONTOR_CLOUD: 'true' } })
})
afterAll(async () => {
  await t.close()
  await cloud.close()
  await idp.close()
})

const domain = () => `sso-${crypto.randomUUID().slice(0, 8)}.example`
const settings = (domains: string[], more: Record<string, unknown> = {}) => ({
  issuer: idp.issuer,
  clientId: OIDC_CLIENT_ID,
  clientSecret: OIDC_CLIENT_SECRET,
  domains,
  defaultRole: 'user',
  passwordSignIn: true,
  ...more,
})

/** Signs in through the provider as `email`: start at Kontor, the provider's pages, the callback. */
async function ssoSignIn(app: typeof t, email: string) {
  const browser = app.client()
  const started = await browser.post('/api/auth/sso/start', { email })
  expect(started.status).toBe(200)
  const back = await idp.signIn(started.body.url, email)
  const callback = await browser.get(back.slice(BASE_URL.length))
  return { browser, callback, location: callback.headers.get('location') ?? '' }
}

describe('SSO settings', () => {
  test('an admin configures the provider; the secret is stored encrypted and never shown', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const d = domain()
    const saved = await admin.put('/api/sso', settings([d, d.toUpperCase()]))
    expect(saved.status).toBe(200)
    expect(saved.body).toMatchObject({ configured: true, issuer: idp.issuer, clientId: OIDC_CLIENT_ID, clientSecretSet: true, defaultRole: 'user', passwordSignIn: true })
    // Self-hosted: the admin's word proves the domain.
    expect(saved.body.domains).toEqual([{ domain: d, verified: true, record: null }])
    expect(JSON.stringify(saved.body)).not.toContain(OIDC_CLIENT_SECRET)
    const row = await t.deps.db.query.ssoProviders.findFirst({ where: eq(ssoProviders.issuer, idp.issuer) })
    expect(row!.oidcConfig).not.toContain(OIDC_CLIENT_SECRET)
    // Changing other fields keeps the secret.
    const changed = await admin.put('/api/sso', settings([d], { clientSecret: undefined, defaultRole: 'admin' }))
    expect(changed.body).toMatchObject({ clientSecretSet: true, defaultRole: 'admin' })
    const audit = await t.deps.db.query.auditEntries.findMany({ where: eq(auditEntries.action, 'sso.configured') })
    expect(audit.length).toBeGreaterThanOrEqual(2)
    expect(JSON.stringify(audit)).not.toContain(OIDC_CLIENT_SECRET)
  })

  test('a rotation of KONTOR_SECRET moves client secrets to the new secret at start', async () => {
    const admin = t.client()
    await registerOrg(admin)
    expect((await admin.put('/api/sso', settings([domain()]))).status).toBe(200)
    const organizationId = (await admin.get('/api/auth/me')).body.organization.id as string
    const rotated = { ...t.deps, config: { ...t.deps.config, secret: 'another-secret-another-secret-0123456789', previousSecret: t.deps.config.secret } }
    expect(await reencryptSsoSecrets(rotated)).toBeGreaterThanOrEqual(1)
    expect(await reencryptSsoSecrets(rotated)).toBe(0)
    const row = await t.deps.db.query.ssoProviders.findFirst({ where: eq(ssoProviders.organizationId, organizationId) })
    const stored = JSON.parse(row!.oidcConfig!) as { clientSecret: string; clientId: string }
    expect(stored.clientId).toBe(OIDC_CLIENT_ID)
    // Readable with the new secret alone.
    expect(await readSecret({ secret: rotated.config.secret, previousSecret: undefined }, stored.clientSecret)).toBe(OIDC_CLIENT_SECRET)
    // Without a previous secret nothing is tried.
    expect(await reencryptSsoSecrets(t.deps)).toBe(0)
  })

  test('bad input is VALIDATION_FAILED with field messages; a wrong issuer is refused before anything is stored', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const bad = await admin.put('/api/sso', { issuer: 'not a url', clientId: '', domains: [], defaultRole: 'owner', passwordSignIn: 'yes' })
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('VALIDATION_FAILED')
    expect(Object.keys(bad.body.fields).sort()).toEqual(['clientId', 'defaultRole', 'domains', 'issuer', 'passwordSignIn'])
    const freeMail = await admin.put('/api/sso', settings(['gmail.com']))
    expect(freeMail.body).toMatchObject({ code: 'VALIDATION_FAILED', fields: { domains: expect.stringContaining('gmail.com') } })
    const noSecret = await admin.put('/api/sso', settings([domain()], { clientSecret: '' }))
    expect(noSecret.body).toMatchObject({ code: 'VALIDATION_FAILED', fields: { clientSecret: expect.any(String) } })
    const wrongIssuer = await admin.put('/api/sso', settings([domain()], { issuer: `${idp.issuer}/elsewhere` }))
    expect(wrongIssuer.body).toMatchObject({ code: 'VALIDATION_FAILED', fields: { issuer: expect.any(String) } })
    const unreachable = await admin.put('/api/sso', settings([domain()], { issuer: 'http://127.0.0.1:9/' }))
    expect(unreachable.body).toMatchObject({ code: 'VALIDATION_FAILED', fields: { issuer: expect.any(String) } })
    // An internal host the operator did not allow is refused too.
    const internal = await admin.put('/api/sso', settings([domain()], { issuer: 'http://10.0.0.1' }))
    expect(internal.body.code).toBe('VALIDATION_FAILED')
    expect((await admin.get('/api/sso')).body.configured).toBe(false)
  })

  test('a domain belongs to one organisation only', async () => {
    const first = t.client()
    await registerOrg(first)
    const d = domain()
    expect((await first.put('/api/sso', settings([d]))).status).toBe(200)
    const second = t.client()
    await registerOrg(second)
    const taken = await second.put('/api/sso', settings([domain(), d]))
    expect(taken.status).toBe(409)
    expect(taken.body.code).toBe('SSO_DOMAIN_TAKEN')
    // Removing the provider frees it.
    expect((await first.delete('/api/sso')).status).toBe(204)
    const firstOrg = (await first.get('/api/auth/me')).body.organization.id as string
    const removed = await t.deps.db.query.auditEntries.findMany({ where: eq(auditEntries.organizationId, firstOrg) })
    expect(removed.map((e) => e.action)).toContain('sso.removed')
    expect((await second.put('/api/sso', settings([d]))).status).toBe(200)
  })

  test('cloud: a domain is proven by its TXT record before anyone signs in through it', async () => {
    const admin = cloud.client()
    await registerOrg(admin)
    const d = domain()
    const saved = await admin.put('/api/sso', settings([d]))
    const claim = structuredClone(saved.body.domains[0])
    expect(saved.body.domains[0]).toMatchObject({ domain: d, verified: false, record: { name: `_kontor-sso.${d}`, value: expect.stringMatching(/^kontor-sso-verification=/) } })
    expect((await cloud.client().post('/api/auth/sso/lookup', { email: `x@${d}` })).body).toEqual({ sso: false, passwordSignIn: true })

    const records = new Map<string, string[][]>()
    cloud.deps.resolveTxt = async (name) => records.get(name) ?? []
    const missing = await admin.post(`/api/sso/domains/${d}/verify`)
    expect(missing.status).toBe(409)
    expect(missing.body.code).toBe('SSO_DOMAIN_NOT_VERIFIED')
    records.set(claim.record.name, [['unrelated'], [claim.record.value.slice(0, 10), claim.record.value.slice(10)]])
    const verified = await admin.post(`/api/sso/domains/${d}/verify`)
    expect(verified.status).toBe(200)
    expect(verified.body.domains[0].verified).toBe(true)
    const entry = await cloud.deps.db.query.auditEntries.findFirst({ where: eq(auditEntries.targetId, d) })
    expect(entry).toMatchObject({ action: 'sso.domain_verified', targetType: 'domain' })
    expect((await cloud.client().post('/api/auth/sso/lookup', { email: `x@${d}` })).body).toEqual({ sso: true, passwordSignIn: true })
    // Another organisation's domain is not found.
    const other = cloud.client()
    await registerOrg(other)
    expect((await other.post(`/api/sso/domains/${d}/verify`)).status).toBe(404)
  })
})

describe('signing in through the provider', () => {
  test('a first-time user is created in the organisation with the default role and lands in /chat', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const organizationId = (await admin.get('/api/auth/me')).body.organization.id as string
    const d = domain()
    await admin.put('/api/sso', settings([d]))
    const email = `new.person@${d}`
    expect((await t.client().post('/api/auth/sso/lookup', { email })).body).toEqual({ sso: true, passwordSignIn: true })

    const { browser, location } = await ssoSignIn(t, email)
    expect(location).toBe('/chat')
    const me = await browser.get('/api/auth/me')
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({ email, role: 'user', emailVerified: true, organization: { id: organizationId } })
    // A second sign-in finds the same member.
    const again = await ssoSignIn(t, email)
    expect((await again.browser.get('/api/auth/me')).body.id).toBe(me.body.id)
    const actions = (await t.deps.db.query.auditEntries.findMany({ where: eq(auditEntries.organizationId, organizationId) })).map((e) => e.action)
    expect(actions.filter((a) => a === 'sign_in.sso')).toHaveLength(2)
    expect(actions.filter((a) => a === 'member.created_by_sso')).toHaveLength(1)
  })

  test("an existing member of another organisation is never signed in through this organisation's provider", async () => {
    const d = domain()
    const other = t.client()
    await registerOrg(other, { email: `bob@${d}` })
    const admin = t.client()
    await registerOrg(admin)
    expect((await admin.put('/api/sso', settings([d]))).status).toBe(200)
    const { browser, location } = await ssoSignIn(t, `bob@${d}`)
    expect(location).toBe('/login?error=SSO_OTHER_ORGANIZATION')
    expect((await browser.get('/api/auth/me')).status).toBe(401)
    const bob = await t.deps.db.query.users.findFirst({ where: eq(users.email, `bob@${d}`) })
    expect((await t.deps.db.query.accounts.findMany({ where: eq(accounts.userId, bob!.id) })).map((a) => a.providerId)).toEqual(['credential'])
  })

  test('password sign-in is refused for the domains when the admin disallowed it', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const member = await joinAsMember(t, admin)
    const d = member.email.split('@')[1]!
    // acme.test is shared by every test organisation here: a domain of its own for this one.
    const own = domain()
    await admin.put('/api/sso', settings([own], { passwordSignIn: false }))
    expect((await t.client().post('/api/auth/sso/lookup', { email: `x@${own}` })).body).toEqual({ sso: true, passwordSignIn: false })
    const refused = await t.client().post('/api/auth/login', { email: `x@${own}`, password: PASSWORD })
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('PASSWORD_SIGN_IN_DISABLED')
    // Other domains keep their passwords.
    expect((await t.client().post('/api/auth/login', { email: member.email, password: PASSWORD })).status).toBe(200)
    expect(d).toBe('acme.test')
  })

  test('cloud: beyond the seats, a first-time user is refused with a clear code and nothing is created', async () => {
    const admin = cloud.client()
    await registerOrg(admin)
    const d = domain()
    const saved = await admin.put('/api/sso', settings([d]))
    cloud.deps.resolveTxt = async () => [[saved.body.domains[0].record.value]]
    await admin.post(`/api/sso/domains/${d}/verify`)
    // Without a subscription the organisation has one seat: its admin's.
    const email = `late@${d}`
    const { location } = await ssoSignIn(cloud, email)
    expect(location).toStartWith('/login?')
    expect(new URL(location, BASE_URL).searchParams.get('error')).toBe('SSO_NO_SEAT')
    expect(await cloud.deps.db.query.users.findFirst({ where: eq(users.email, email) })).toBeUndefined()
  })

  test('cloud: first sign-ins at the same moment never take more seats than the organisation has', async () => {
    const admin = cloud.client()
    await registerOrg(admin)
    const organizationId = (await admin.get('/api/auth/me')).body.organization.id as string
    const d = domain()
    const saved = await admin.put('/api/sso', settings([d]))
    cloud.deps.resolveTxt = async () => [[saved.body.domains[0].record.value]]
    await admin.post(`/api/sso/domains/${d}/verify`)
    // Two seats: the admin's and one more.
    const now = new Date()
    await cloud.deps.db.insert(subscriptions).values({
      organizationId, seats: 2, startedAt: now, nextRenewalAt: new Date(now.getTime() + 365 * 86_400_000),
      companyName: 'C', street: 'S', houseNumber: '1', postalCode: '1', city: 'C', country: 'DE',
    })
    // Each reaches the provider first; then their callbacks arrive together.
    const started = await Promise.all(['a', 'b', 'c'].map(async (name) => {
      const browser = cloud.client()
      const start = await browser.post('/api/auth/sso/start', { email: `${name}@${d}` })
      return { browser, back: await idp.signIn(start.body.url, `${name}@${d}`) }
    }))
    const results = await Promise.all(started.map(({ browser, back }) => browser.get(back.slice(BASE_URL.length))))
    const members = await cloud.deps.db.query.users.findMany({ where: eq(users.organizationId, organizationId) })
    expect(members.length).toBeLessThanOrEqual(2)
    const landed = results.filter((r) => r.headers.get('location') === '/chat')
    expect(landed.length).toBe(members.length - 1)
    for (const r of results.filter((r) => r.headers.get('location') !== '/chat')) expect(r.headers.get('location')).toBe('/login?error=SSO_NO_SEAT')

    // The moment the seat check cannot see: two members inserted after both checks passed. The
    // check after the insert removes the one beyond the seats and refuses its sign-in.
    const callback = { path: '/sso/callback/:providerId', params: { providerId: 'p' } }
    const extra = [crypto.randomUUID(), crypto.randomUUID()]
    await cloud.deps.db.insert(users).values(extra.map((id, i) => ({ id, organizationId, email: `late${i}@${d}`, name: 'Late', emailVerified: true })))
    await expect(undoSsoMemberBeyondSeats(cloud.deps, callback, { id: extra[1]!, organizationId })).rejects.toMatchObject({ body: { code: 'SSO_NO_SEAT' } })
    expect(await cloud.deps.db.query.users.findFirst({ where: eq(users.id, extra[1]!) })).toBeUndefined()
    // Within the seats, or outside an SSO callback, nothing happens.
    await cloud.deps.db.delete(users).where(eq(users.id, extra[0]!))
    const within = (await cloud.deps.db.query.users.findMany({ where: eq(users.organizationId, organizationId) })).at(-1)!
    await undoSsoMemberBeyondSeats(cloud.deps, callback, { id: within.id, organizationId })
    await cloud.deps.db.insert(users).values({ id: extra[0]!, organizationId, email: `late0@${d}`, name: 'Late', emailVerified: true })
    await undoSsoMemberBeyondSeats(cloud.deps, { path: '/sign-in/email' }, { id: extra[0]!, organizationId })
    expect(await cloud.deps.db.query.users.findFirst({ where: eq(users.id, within.id) })).toBeDefined()
    expect(await cloud.deps.db.query.users.findFirst({ where: eq(users.id, extra[0]!) })).toBeDefined()
  })

  test('an address without SSO cannot start one', async () => {
    const res = await t.client().post('/api/auth/sso/start', { email: `x@${domain()}` })
    expect(res.status).toBe(404)
    expect(res.body.code).toBe('SSO_NOT_CONFIGURED')
    expect((await t.client().post('/api/auth/sso/start', { email: 'nope' })).body.code).toBe('VALIDATION_FAILED')
  })
})

/**
 * Callbacks that must not sign anyone in: each ends on /login with an error code the page turns
 * into words, no session, and no member created.
 */
describe('SSO callbacks that fail', () => {
  async function configured() {
    const admin = t.client()
    await registerOrg(admin)
    const d = domain()
    expect((await admin.put('/api/sso', settings([d]))).status).toBe(200)
    return { admin, d, email: `someone@${d}` }
  }
  const errorOf = (location: string) => {
    expect(location).toStartWith('/login?')
    return new URL(location, BASE_URL).searchParams.get('error')
  }
  async function expectNobodySignedIn(browser: ReturnType<typeof t.client>, email: string) {
    expect((await browser.get('/api/auth/me')).status).toBe(401)
    expect(await t.deps.db.query.users.findFirst({ where: eq(users.email, email) })).toBeUndefined()
  }

  test('a state that is not the one this browser started with (a forged or swapped callback)', async () => {
    const { email } = await configured()
    const browser = t.client()
    const started = await browser.post('/api/auth/sso/start', { email })
    const back = new URL(await idp.signIn(started.body.url, email))
    back.searchParams.set('state', crypto.randomUUID())
    const res = await browser.get(back.toString().slice(BASE_URL.length))
    expect(res.status).toBe(302)
    expect(errorOf(res.headers.get('location') ?? '')).toBeTruthy()
    await expectNobodySignedIn(browser, email)
  })

  test('a callback delivered to another browser than the one that started (no state cookie there)', async () => {
    const { email } = await configured()
    const started = await t.client().post('/api/auth/sso/start', { email })
    const back = await idp.signIn(started.body.url, email)
    const attacker = t.client()
    const res = await attacker.get(back.slice(BASE_URL.length))
    expect(errorOf(res.headers.get('location') ?? '')).toBeTruthy()
    await expectNobodySignedIn(attacker, email)
  })

  test('a code used twice: the second use signs nobody in', async () => {
    const { email } = await configured()
    const first = t.client()
    const started = await first.post('/api/auth/sso/start', { email })
    const back = new URL(await idp.signIn(started.body.url, email))
    expect((await first.get(back.toString().slice(BASE_URL.length))).headers.get('location')).toBe('/chat')
    // Another browser starts its own sign-in and presents the code already used, with its own state.
    const second = t.client()
    const own = new URL((await second.post('/api/auth/sso/start', { email })).body.url)
    back.searchParams.set('state', own.searchParams.get('state')!)
    const replay = await second.get(back.toString().slice(BASE_URL.length))
    expect(errorOf(replay.headers.get('location') ?? '')).toBeTruthy()
    expect((await second.get('/api/auth/me')).status).toBe(401)
  })

  test('a code issued to another application of the same provider', async () => {
    const { email } = await configured()
    const browser = t.client()
    const started = new URL((await browser.post('/api/auth/sso/start', { email })).body.url)
    // The same request, but for the other client: the provider issues a code meant for it, not for Kontor.
    started.searchParams.set('client_id', OIDC_OTHER_CLIENT_ID)
    const res = await browser.get((await idp.signIn(started.toString(), email)).slice(BASE_URL.length))
    expect(errorOf(res.headers.get('location') ?? '')).toBeTruthy()
    await expectNobodySignedIn(browser, email)
  })

  test('a wrong client secret: the provider refuses the code exchange', async () => {
    const { admin, email, d } = await configured()
    expect((await admin.put('/api/sso', settings([d], { clientSecret: 'not-the-secret-0123456789' }))).status).toBe(200)
    const browser = t.client()
    const started = await browser.post('/api/auth/sso/start', { email })
    const res = await browser.get((await idp.signIn(started.body.url, email)).slice(BASE_URL.length))
    expect(errorOf(res.headers.get('location') ?? '')).toBeTruthy()
    await expectNobodySignedIn(browser, email)
  })

  // better-auth's SSO plugin sends no nonce: the callback is bound to the browser by its state
  // cookie and to the code by PKCE, both tested above, so there is no nonce to mismatch.
  test('an ID token for another audience, or from another issuer, signs nobody in, though its signature is good', async () => {
    const cases: Array<[string, (claims: Record<string, unknown>) => Record<string, unknown>]> = [
      ['unchanged', (claims) => claims],
      ['another audience', (claims) => ({ ...claims, aud: OIDC_OTHER_CLIENT_ID })],
      ['another issuer', (claims) => ({ ...claims, iss: 'https://login.example.com' })],
      ['expired', (claims) => ({ ...claims, exp: Math.floor(Date.now() / 1000) - 3600, iat: Math.floor(Date.now() / 1000) - 7200 })],
    ]
    for (const [name, tamperIdToken] of cases) {
      const liar = await startOidcProvider({ redirectPrefix: `${BASE_URL}/api/auth/sso/callback/`, tamperIdToken })
      try {
        const admin = t.client()
        await registerOrg(admin)
        const d = domain()
        expect((await admin.put('/api/sso', settings([d], { issuer: liar.issuer }))).status, name).toBe(200)
        const email = `ada@${d}`
        const browser = t.client()
        const started = await browser.post('/api/auth/sso/start', { email })
        const back = await liar.signIn(started.body.url, email)
        const location = (await browser.get(back.slice(BASE_URL.length))).headers.get('location') ?? ''
        if (name === 'unchanged') {
          // The relay itself changes nothing that matters: the same token, signed again, signs in.
          expect(location, name).toBe('/chat')
          continue
        }
        expect(location, name).toStartWith('/login?error=')
        expect((await browser.get('/api/auth/me')).status, name).toBe(401)
        expect(await t.deps.db.query.users.findFirst({ where: eq(users.email, email) }), name).toBeUndefined()
      } finally {
        await liar.close()
      }
    }
  })

  test("a provider endpoint whose name now points inside the network is refused before the plugin calls it", async () => {
    const admin = t.client()
    await registerOrg(admin)
    const d = domain()
    expect((await admin.put('/api/sso', settings([d]))).status).toBe(200)
    const organizationId = (await admin.get('/api/auth/me')).body.organization.id as string
    const row = (await t.deps.db.query.ssoProviders.findFirst({ where: eq(ssoProviders.organizationId, organizationId) }))!
    const config = JSON.parse(row.oidcConfig!) as { tokenEndpoint: string }
    // Since it was saved, the token endpoint's name came to resolve to a private address (DNS rebinding).
    config.tokenEndpoint = config.tokenEndpoint.replace('127.0.0.1', 'idp.rebound.test')
    await t.deps.db.update(ssoProviders).set({ oidcConfig: JSON.stringify(config) }).where(eq(ssoProviders.id, row.id))
    const resolveHost = t.deps.resolveHost
    t.deps.resolveHost = async (name) => (name === 'idp.rebound.test' ? ['10.1.2.3'] : (resolveHost ?? (async () => []))(name))
    try {
      const email = `ada@${d}`
      const { browser, location } = await ssoSignIn(t, email)
      expect(location).toBe('/login?error=SSO_PROVIDER_REFUSED')
      expect((await browser.get('/api/auth/me')).status).toBe(401)
      expect(await t.deps.db.query.users.findFirst({ where: eq(users.email, email) })).toBeUndefined()
    } finally {
      t.deps.resolveHost = resolveHost
    }
  })

  test('the provider answers with an error (the person cancelled)', async () => {
    const { email } = await configured()
    const browser = t.client()
    const started = new URL((await browser.post('/api/auth/sso/start', { email })).body.url)
    const providerId = (await t.deps.db.query.ssoProviders.findFirst({ where: eq(ssoProviders.domain, email.split('@')[1]!) }))!.providerId
    const res = await browser.get(`/api/auth/sso/callback/${providerId}?error=access_denied&state=${started.searchParams.get('state')}`)
    expect(errorOf(res.headers.get('location') ?? '')).toBeTruthy()
    await expectNobodySignedIn(browser, email)
  })
})
