import { afterAll, beforeAll, describe, expect, setDefaultTimeout, setSystemTime, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { accounts, auditEntries, ssoProviders, users } from '../../../db/schema'
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startOidcProvider } from '../../../tests/support/oidc-provider'
import { SAML_IDP_CERT, startSamlIdp, type SamlPost } from '../../../tests/support/saml-idp'
import { BASE_URL, createTestApp, registerOrg, type TestClient } from '../../../tests/support/test-app'

// Each test registers an organisation (password hashing) and signs SAML responses.
setDefaultTimeout(30_000)

let idp: Awaited<ReturnType<typeof startSamlIdp>>
let oidc: Awaited<ReturnType<typeof startOidcProvider>>
let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  t = await createTestApp({ env: { KONTOR_FETCH_ALLOWED_HOSTS: '127.0.0.1' } })
  oidc = await startOidcProvider({ redirectPrefix: `${BASE_URL}/api/auth/sso/callback/` })
  // The provider reads Kontor's service-provider metadata from its entity ID, through the app in this process.
  idp = await startSamlIdp({ spMetadata: async (url) => (await t.app.request(url.replace('http://localhost:3000', ''))).text() })
})
afterAll(async () => {
  await t.close()
  await idp.close()
  await oidc.close()
})

const domain = () => `saml-${crypto.randomUUID().slice(0, 8)}.example`
const settings = (domains: string[], saml: Record<string, unknown> = { metadataXml: idp.metadata }, more: Record<string, unknown> = {}) => ({
  protocol: 'saml',
  saml,
  domains,
  defaultRole: 'user',
  passwordSignIn: true,
  ...more,
})

/** An organisation whose admin configured SAML for a fresh domain. */
async function samlOrg(saml?: Record<string, unknown>, d = domain()) {
  const admin = t.client()
  await registerOrg(admin)
  const saved = await admin.put('/api/sso', settings([d], saml))
  expect(saved.status).toBe(200)
  return { admin, domain: d, settings: saved.body }
}

/** The identity provider's page posting its response to Kontor: a form, from another site. */
const postResponse = (browser: TestClient, post: SamlPost) =>
  browser.request('POST', new URL(post.acs).pathname, new URLSearchParams({ SAMLResponse: post.SAMLResponse, RelayState: post.RelayState }).toString(), {
    'content-type': 'application/x-www-form-urlencoded',
    origin: new URL(idp.ssoUrl).origin,
    'sec-fetch-site': 'cross-site',
  })

/** Starts at Kontor, signs in at the provider as `email`, and posts the provider's answer back. */
async function samlSignIn(email: string, how: { forged?: boolean; unsigned?: boolean } = {}) {
  const browser = t.client()
  const started = await browser.post('/api/auth/sso/start', { email })
  expect(started.status).toBe(200)
  expect(started.body.url.startsWith(idp.ssoUrl)).toBe(true)
  const post = await idp.respond(started.body.url, email, how)
  const answer = await postResponse(browser, post)
  return { browser, post, answer, location: answer.headers.get('location') ?? '' }
}

describe('SAML settings', () => {
  test("an admin configures SAML from the provider's metadata; the screen names what to register at the provider", async () => {
    const { admin, domain: d, settings: saved } = await samlOrg()
    const organizationId = (await admin.get('/api/auth/me')).body.organization.id as string
    expect(saved).toMatchObject({
      configured: true,
      protocol: 'saml',
      issuer: idp.entityId,
      clientId: null,
      clientSecretSet: false,
      saml: { entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificateValidTo: expect.stringMatching(/^2\d{3}-/) },
      domains: [{ domain: d, verified: true, record: null }],
      serviceProvider: {
        entityId: `http://localhost:3000/api/auth/sso/saml2/sp/metadata?providerId=${organizationId}`,
        acsUrl: `http://localhost:3000/api/auth/sso/saml2/sp/acs/${organizationId}`,
      },
    })
    // Kontor's metadata, at its entity ID: the assertion consumer service, and signed assertions wanted.
    const metadata = await t.app.request(new URL(saved.serviceProvider.entityId).pathname + new URL(saved.serviceProvider.entityId).search)
    expect(metadata.status).toBe(200)
    expect(metadata.headers.get('content-type')).toContain('xml')
    const xml = await metadata.text()
    expect(xml).toContain(saved.serviceProvider.acsUrl)
    expect(xml).toContain('WantAssertionsSigned="true"')
    expect((await t.app.request('/api/auth/sso/saml2/sp/metadata?providerId=nobody')).status).toBe(404)
    const audit = await t.deps.db.query.auditEntries.findFirst({ where: and(eq(auditEntries.action, 'sso.configured'), eq(auditEntries.organizationId, organizationId)) })
    expect(JSON.parse(audit!.details)).toMatchObject({ protocol: 'saml', entityId: idp.entityId })
  })

  test('the metadata can come from a URL, or the entity ID, sign-in URL and certificate are given by hand', async () => {
    const fromUrl = await samlOrg({ metadataUrl: idp.metadataUrl })
    expect(fromUrl.settings.saml).toMatchObject({ entityId: idp.entityId, ssoUrl: idp.ssoUrl })
    const bare = SAML_IDP_CERT.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '')
    const byHand = await samlOrg({ entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificate: bare })
    expect(byHand.settings.saml).toMatchObject({ entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificateValidTo: expect.any(String) })
    // Signing in works with a provider given by hand as well.
    const { location, browser } = await samlSignIn(`hand@${byHand.domain}`)
    expect(location).toBe('/chat')
    expect((await browser.get('/api/auth/me')).status).toBe(200)
  })

  test('bad input is VALIDATION_FAILED on its field, and nothing is stored', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const d = domain()
    const nothing = await admin.put('/api/sso', settings([d], {}))
    expect(nothing.status).toBe(400)
    expect(Object.keys(nothing.body.fields).sort()).toEqual(['saml.certificate', 'saml.entityId', 'saml.ssoUrl'])
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ metadataXml: '<html>not metadata</html>' }, 'saml.metadataXml'],
      [{ metadataXml: idp.metadata.replace(/<(\w+:)?SingleSignOnService[^>]*>(<\/(\w+:)?SingleSignOnService>)?/g, '') }, 'saml.metadataXml'],
      [{ metadataXml: 'x'.repeat(300 * 1024) }, 'saml.metadataXml'],
      [{ metadataUrl: 'http://127.0.0.1:9/metadata' }, 'saml.metadataUrl'],
      [{ metadataUrl: 'ftp://example.com/metadata' }, 'saml.metadataUrl'],
      [{ entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificate: 'not a certificate' }, 'saml.certificate'],
      [{ entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificate: 'A'.repeat(400) }, 'saml.certificate'],
      [{ entityId: idp.entityId, ssoUrl: 'javascript:alert(1)', certificate: SAML_IDP_CERT }, 'saml.ssoUrl'],
    ]
    for (const [saml, field] of cases) {
      const res = await admin.put('/api/sso', settings([d], saml))
      expect(res.status, field).toBe(400)
      expect(res.body.code).toBe('VALIDATION_FAILED')
      expect(Object.keys(res.body.fields), JSON.stringify(saml).slice(0, 80)).toEqual([field])
    }
    const protocol = await admin.put('/api/sso', settings([d], undefined, { protocol: 'ldap' }))
    expect(protocol.body.fields).toHaveProperty('protocol')
    expect((await admin.get('/api/sso')).body.configured).toBe(false)
  })

  test('switching from OpenID Connect to SAML and back leaves nothing of the other behind, and no account of the earlier provider', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const d = domain()
    const organizationId = (await admin.get('/api/auth/me')).body.organization.id as string
    const oidcSettings = { protocol: 'oidc', issuer: oidc.issuer, clientId: OIDC_CLIENT_ID, clientSecret: OIDC_CLIENT_SECRET, domains: [d], defaultRole: 'user', passwordSignIn: true }
    expect((await admin.put('/api/sso', oidcSettings)).status).toBe(200)
    // Someone signs in through the OpenID provider: an account keyed by the provider's id.
    const browser = t.client()
    const started = await browser.post('/api/auth/sso/start', { email: `grace@${d}` })
    const back = await oidc.signIn(started.body.url, `grace@${d}`)
    expect((await browser.get(back.slice(BASE_URL.length))).headers.get('location')).toBe('/chat')
    const row = () => t.deps.db.query.ssoProviders.findFirst({ where: eq(ssoProviders.organizationId, organizationId) })
    const providerId = (await row())!.providerId
    expect(await t.deps.db.query.accounts.findMany({ where: eq(accounts.providerId, providerId) })).toHaveLength(1)

    const saml = await admin.put('/api/sso', settings([d]))
    expect(saml.body).toMatchObject({ protocol: 'saml', clientId: null, clientSecretSet: false, saml: { entityId: idp.entityId } })
    expect((await row())!.oidcConfig).toBeNull()
    expect(JSON.parse((await row())!.samlConfig!).wantAssertionsSigned).toBe(true)
    // Another provider behind the same id inherits no account: the person is found by address again.
    expect(await t.deps.db.query.accounts.findMany({ where: eq(accounts.providerId, providerId) })).toHaveLength(0)
    expect((await samlSignIn(`grace@${d}`)).location).toBe('/chat')

    // Saved again without the provider's metadata (another role, another domain), the identity provider is kept.
    const again = await admin.put('/api/sso', settings([d, domain()], {}, { defaultRole: 'admin' }))
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ protocol: 'saml', defaultRole: 'admin', saml: { entityId: idp.entityId, ssoUrl: idp.ssoUrl } })
    // Back to OpenID Connect needs its own fields, and then leaves no SAML behind.
    const missing = await admin.put('/api/sso', settings([d], undefined, { protocol: 'oidc' }))
    expect(Object.keys(missing.body.fields).sort()).toEqual(['clientId', 'issuer'])
    const back2 = await admin.put('/api/sso', oidcSettings)
    expect(back2.body).toMatchObject({ protocol: 'oidc', saml: null, clientSecretSet: true })
    expect((await row())!.samlConfig).toBeNull()
  })

  test('metadata of a provider that wants signed sign-in requests is refused on its field', async () => {
    const admin = t.client()
    await registerOrg(admin)
    const signed = idp.metadata.replace('WantAuthnRequestsSigned="false"', 'WantAuthnRequestsSigned="true"')
    expect(signed).not.toBe(idp.metadata)
    const res = await admin.put('/api/sso', settings([domain()], { metadataXml: signed }))
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', fields: { 'saml.metadataXml': expect.stringContaining('WantAuthnRequestsSigned') } })
  })
})

describe('SAML sign-in', () => {
  test('a first-time user is created in the organisation with the default role and lands in /chat; the next sign-in finds them', async () => {
    const { admin, domain: d } = await samlOrg()
    const organizationId = (await admin.get('/api/auth/me')).body.organization.id as string
    const email = `ada@${d}`
    const first = await samlSignIn(email)
    expect(first.answer.status).toBe(302)
    expect(first.location).toBe('/chat')
    const me = await first.browser.get('/api/auth/me')
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({ email, role: 'user', emailVerified: true, organization: { id: organizationId } })
    const again = await samlSignIn(email.toUpperCase())
    expect(again.location).toBe('/chat')
    expect((await again.browser.get('/api/auth/me')).body.id).toBe(me.body.id)
    const actions = (await t.deps.db.query.auditEntries.findMany({ where: eq(auditEntries.organizationId, organizationId) })).map((e) => e.action)
    expect(actions).toContain('member.created_by_sso')
    expect(actions.filter((a) => a === 'sign_in.sso').length).toBe(2)
  })

  test('a response signed with another key is refused: nobody is signed in or created', async () => {
    const { domain: d } = await samlOrg()
    const email = `forged@${d}`
    const { browser, location } = await samlSignIn(email, { forged: true })
    expect(location).toBe('/login?error=saml_error')
    expect((await browser.get('/api/auth/me')).status).toBe(401)
    expect(await t.deps.db.query.users.findFirst({ where: eq(users.email, email) })).toBeUndefined()
  })

  test('an unsigned response is refused: nobody is signed in or created', async () => {
    const { domain: d } = await samlOrg()
    const email = `unsigned@${d}`
    const browser = t.client()
    const started = await browser.post('/api/auth/sso/start', { email })
    const post = await idp.respond(started.body.url, email, { unsigned: true })
    expect(Buffer.from(post.SAMLResponse, 'base64').toString()).not.toContain('SignatureValue')
    const answer = await postResponse(browser, post)
    expect(answer.headers.get('location')).toStartWith('/login?error=')
    expect((await browser.get('/api/auth/me')).status).toBe(401)
    expect(await t.deps.db.query.users.findFirst({ where: eq(users.email, email) })).toBeUndefined()
  })

  test('an expired assertion is refused', async () => {
    const { domain: d } = await samlOrg()
    const email = `late@${d}`
    const browser = t.client()
    const started = await browser.post('/api/auth/sso/start', { email })
    // The provider's clock stands an hour back: its assertion was valid for five minutes, 55 minutes ago.
    setSystemTime(new Date(Date.now() - 60 * 60_000))
    let post: SamlPost
    try {
      post = await idp.respond(started.body.url, email)
    } finally {
      setSystemTime()
    }
    const answer = await postResponse(browser, post)
    expect(answer.headers.get('location')).toStartWith('/login?error=')
    expect((await browser.get('/api/auth/me')).status).toBe(401)
    expect(await t.deps.db.query.users.findFirst({ where: eq(users.email, email) })).toBeUndefined()
  })

  test('a response signs in only the browser that started the sign-in, and only once', async () => {
    const { domain: d } = await samlOrg()
    const email = `twice@${d}`
    const browser = t.client()
    const started = await browser.post('/api/auth/sso/start', { email })
    const post = await idp.respond(started.body.url, email)
    // Someone who kept the response of their own sign-in makes another person's browser post it (login forgery).
    const victim = t.client()
    expect((await postResponse(victim, post)).headers.get('location')).toBe('/login?error=invalid_state')
    expect((await victim.get('/api/auth/me')).status).toBe(401)
    // A copy of the state cookie, taken before the response is used.
    const copy = t.client()
    copy.cookies.set('kontor.saml_state', browser.cookies.get('kontor.saml_state')!)
    expect((await postResponse(browser, post)).headers.get('location')).toBe('/chat')
    expect((await browser.get('/api/auth/me')).body.email).toBe(email)
    // The browser's state is used up, and even with a copy of it the response is not taken twice.
    expect(browser.cookies.has('kontor.saml_state')).toBe(false)
    expect((await postResponse(browser, post)).headers.get('location')).toBe('/login?error=invalid_state')
    expect((await postResponse(copy, post)).headers.get('location')).toBe('/login?error=invalid_saml_response')
    expect((await copy.get('/api/auth/me')).status).toBe(401)
  })

  test("an existing member of another organisation is never signed in through this organisation's provider", async () => {
    // Organisation B's member has an address at a domain organisation A then claims (self-hosted: the admin's word).
    const d = domain()
    const other = t.client()
    await registerOrg(other, { email: `bob@${d}` })
    const bob = await t.deps.db.query.users.findFirst({ where: eq(users.email, `bob@${d}`) })
    await samlOrg(undefined, d)
    const { browser, location } = await samlSignIn(`bob@${d}`)
    expect(location).toBe('/login?error=SSO_OTHER_ORGANIZATION')
    expect((await browser.get('/api/auth/me')).status).toBe(401)
    // No account of A's provider was linked to Bob, and Bob stays where he was.
    expect(await t.deps.db.query.accounts.findMany({ where: eq(accounts.userId, bob!.id) })).toEqual([expect.objectContaining({ providerId: 'credential' })])
    expect((await t.deps.db.query.users.findFirst({ where: eq(users.id, bob!.id) }))!.organizationId).toBe(bob!.organizationId)
    // His own sign-in still works.
    expect((await other.get('/api/auth/me')).body.email).toBe(`bob@${d}`)
  })

  test("an address outside the organisation's domains is refused with its code", async () => {
    const { domain: d } = await samlOrg()
    const browser = t.client()
    const started = await browser.post('/api/auth/sso/start', { email: `eve@${d}` })
    // The provider vouches for another address than the one that started.
    const post = await idp.respond(started.body.url, 'eve@elsewhere.example')
    const answer = await postResponse(browser, post)
    expect(answer.headers.get('location')).toContain('SSO_DOMAIN_NOT_CLAIMED')
    expect(await t.deps.db.query.users.findFirst({ where: eq(users.email, 'eve@elsewhere.example') })).toBeUndefined()
  })

  test('garbage, an unknown provider and a missing response go back to /login, never a 500', async () => {
    const { admin, domain: d } = await samlOrg()
    const acs = new URL((await admin.get('/api/sso')).body.serviceProvider.acsUrl as string).pathname
    const cases = [
      [acs, 'SAMLResponse=bm90IHhtbA%3D%3D', '/login?error=saml_invalid_encoding'],
      [acs, 'SAMLResponse=%3C%3E', '/login?error=saml_invalid_encoding'],
      [acs, '', '/login?error=invalid_saml_response'],
      ['/api/auth/sso/saml2/sp/acs/unknown-provider', 'SAMLResponse=bm90IHhtbA%3D%3D', '/login?error=invalid_saml_response'],
    ] as const
    for (const [path, body, expected] of cases) {
      // Each from a browser that started a sign-in, so that the plugin reads it.
      const browser = t.client()
      const started = await browser.post('/api/auth/sso/start', { email: `g@${d}` })
      const relayState = new URL(started.body.url).searchParams.get('RelayState')!
      const res = await browser.request('POST', path, `${body}&RelayState=${encodeURIComponent(relayState)}`, {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://127.0.0.1:1',
      })
      expect(res.status, `${path} ${body}`).toBe(302)
      expect(res.headers.get('location'), `${path} ${body}`).toBe(expected)
      expect((await browser.get('/api/auth/me')).status).toBe(401)
    }
  })
})

test("a certificate's end of validity is read from its DER, as openssl reports it", async () => {
  const { certificateNotAfter } = await import('./saml')
  const der = Uint8Array.from(atob(SAML_IDP_CERT.replace(/-----[A-Z ]+-----|\s+/g, '')), (ch) => ch.charCodeAt(0))
  const { X509Certificate } = await import('node:crypto')
  expect(certificateNotAfter(der).getTime()).toBe(new Date(new X509Certificate(SAML_IDP_CERT).validTo).getTime())
  expect(() => certificateNotAfter(der.subarray(0, 40))).toThrow()
  expect(() => certificateNotAfter(new Uint8Array([0x30, 0x82, 0xff]))).toThrow()
})
