import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { auditEntries, ssoProviders, users } from '../../../db/schema'
import { SAML_IDP_CERT, startSamlIdp, type SamlPost } from '../../../tests/support/saml-idp'
import { createTestApp, registerOrg, type TestClient } from '../../../tests/support/test-app'

// Each test registers an organisation (password hashing) and signs SAML responses.
setDefaultTimeout(30_000)

let idp: Awaited<ReturnType<typeof startSamlIdp>>
let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  t = await createTestApp({ env: { KONTOR_FETCH_ALLOWED_HOSTS: '127.0.0.1' } })
  // The provider reads Kontor's service-provider metadata from its entity ID, through the app in this process.
  idp = await startSamlIdp({ spMetadata: async (url) => (await t.app.request(url.replace('http://localhost:3000', ''))).text() })
})
afterAll(async () => {
  await t.close()
  await idp.close()
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
async function samlOrg(saml?: Record<string, unknown>) {
  const admin = t.client()
  await registerOrg(admin)
  const d = domain()
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
async function samlSignIn(email: string, how: { forged?: boolean } = {}) {
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

  test('switching from OpenID Connect to SAML leaves no OpenID configuration behind', async () => {
    const { admin, domain: d } = await samlOrg()
    const organizationId = (await admin.get('/api/auth/me')).body.organization.id as string
    const row = await t.deps.db.query.ssoProviders.findFirst({ where: eq(ssoProviders.organizationId, organizationId) })
    expect(row!.oidcConfig).toBeNull()
    expect(JSON.parse(row!.samlConfig!).wantAssertionsSigned).toBe(true)
    expect((await admin.get('/api/sso')).body).toMatchObject({ protocol: 'saml', domains: [{ domain: d }] })
    // Saved again without the provider's metadata (another role, another domain), the identity provider is kept.
    const d2 = domain()
    const again = await admin.put('/api/sso', settings([d, d2], {}, { defaultRole: 'admin' }))
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ protocol: 'saml', defaultRole: 'admin', saml: { entityId: idp.entityId, ssoUrl: idp.ssoUrl } })
    const kept = await t.deps.db.query.ssoProviders.findFirst({ where: eq(ssoProviders.organizationId, organizationId) })
    expect(kept!.samlConfig).toBe(row!.samlConfig)
    // Back to OpenID Connect needs its own fields.
    const oidc = await admin.put('/api/sso', settings([d], undefined, { protocol: 'oidc' }))
    expect(Object.keys(oidc.body.fields).sort()).toEqual(['clientId', 'issuer'])
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
    expect(location.startsWith('/login?error=')).toBe(true)
    expect((await browser.get('/api/auth/me')).status).toBe(401)
    expect(await t.deps.db.query.users.findFirst({ where: eq(users.email, email) })).toBeUndefined()
  })

  test('a response posted twice signs in once: the replay goes back to /login', async () => {
    const { domain: d } = await samlOrg()
    const { post, location } = await samlSignIn(`twice@${d}`)
    expect(location).toBe('/chat')
    const thief = t.client()
    const replay = await postResponse(thief, post)
    expect(replay.headers.get('location'), String(replay.status)).toStartWith('/login?error=')
    expect((await thief.get('/api/auth/me')).status).toBe(401)
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
    const { admin } = await samlOrg()
    const acs = (await admin.get('/api/sso')).body.serviceProvider.acsUrl as string
    const browser = t.client()
    const bodies = [
      [new URL(acs).pathname, 'SAMLResponse=bm90IHhtbA%3D%3D&RelayState=x'],
      [new URL(acs).pathname, 'SAMLResponse=%3C%3E'],
      [new URL(acs).pathname, ''],
      ['/api/auth/sso/saml2/sp/acs/unknown-provider', 'SAMLResponse=bm90IHhtbA%3D%3D'],
    ] as const
    for (const [path, body] of bodies) {
      const res = await browser.request('POST', path, body, { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://127.0.0.1:1' })
      expect(res.status, `${path} ${body}`).toBe(302)
      expect(res.headers.get('location'), body).toStartWith('/login?error=')
    }
    expect((await browser.get('/api/auth/me')).status).toBe(401)
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
