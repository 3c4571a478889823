import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, spyOn, test } from 'bun:test'
import { SIGN_IN_LIMITS } from '../../src/api/auth/sign-in-limits'
import { createTestApp, PASSWORD, registerOrg, type TestClient } from '../support/test-app'

// Every attempt is a real password check (unknown addresses are hashed too); a busy machine makes that slow.
setDefaultTimeout(120_000)

let t: Awaited<ReturnType<typeof createTestApp>>
let lines: string[] = []
const spies: { mockRestore(): void }[] = []

beforeAll(async () => {
  // The real logger at level info, its JSON lines caught from the console.
  t = await createTestApp({ env: { LOG_LEVEL: 'info' } })
  for (const method of ['log', 'error'] as const) spies.push(spyOn(console, method).mockImplementation((line: unknown) => void lines.push(String(line))))
})
afterAll(async () => {
  for (const spy of spies) spy.mockRestore()
  await t.close()
})
beforeEach(() => {
  lines = []
})

let counter = 0
/** A client at its own address (TEST-NET-3 plus a counter), as the proxy would forward it. */
function clientAt(ip = `203.0.113.${++counter}`): TestClient {
  const client = t.client()
  client.setIp(ip)
  return client
}

const signIn = (client: TestClient, email: string, password: string) => client.post('/api/auth/login', { email, password })

async function accountOwner() {
  const { email } = await registerOrg(t.client())
  return email
}

/** The sign-in log lines, parsed. */
const signInLog = () =>
  lines
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>
      } catch {
        return {}
      }
    })
    .filter((entry) => entry.msg === 'sign-in')

describe('sign-in limits count failures, not users', () => {
  test("an attacker's failures from one address get 429, while the owner from another address signs in", async () => {
    const email = await accountOwner()
    const attacker = clientAt()
    for (let i = 0; i < SIGN_IN_LIMITS.accountAddress.limit; i++) expect((await signIn(attacker, email, `Guess${i}abc`)).status).toBe(401)

    const held = await signIn(attacker, email, 'NextGuess1')
    expect(held.status).toBe(429)
    expect(held.body).toEqual({ code: 'TOO_MANY_LOGIN_ATTEMPTS', message: 'Too many login attempts. Please wait a few minutes and try again.', status: 429 })
    const retryAfter = Number(held.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_LIMITS.accountAddress.windowMs / 1000)
    // Held back before the password is looked at: even the right one from there is refused.
    expect((await signIn(attacker, email, PASSWORD)).status).toBe(429)

    const owner = clientAt()
    const res = await signIn(owner, email, PASSWORD)
    expect(res.status).toBe(200)
    expect(res.body.email).toBe(email)
    expect((await owner.get('/api/auth/me')).status).toBe(200)
  })

  test('one address within an IPv6 /64 counts as one: changing the host half does not get around the limit', async () => {
    const email = await accountOwner()
    for (let i = 1; i <= SIGN_IN_LIMITS.accountAddress.limit; i++) expect((await signIn(clientAt(`2001:db8:1:2::${i}`), email, 'Wrong1234')).status).toBe(401)
    expect((await signIn(clientAt('2001:db8:1:2:ffff::7'), email, PASSWORD)).status).toBe(429)
    expect((await signIn(clientAt('2001:db8:1:3::1'), email, PASSWORD)).status).toBe(200)
  })

  test('successful sign-ins never count, and they forget the own typos from that address', async () => {
    const email = await accountOwner()
    const owner = clientAt()
    // More successes than any limit allows failures.
    for (let i = 0; i <= SIGN_IN_LIMITS.address.limit; i++) expect((await signIn(owner, email, PASSWORD)).status).toBe(200)
    // Typos, a success, typos again: without the success forgetting them, the sixth typo would be held back.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < SIGN_IN_LIMITS.accountAddress.limit - 1; i++) expect((await signIn(owner, email, 'Typo12345')).status).toBe(401)
      expect((await signIn(owner, email, PASSWORD)).status).toBe(200)
    }
  })

  test("one address trying many accounts is held back, and signing in to its own account does not reset that", async () => {
    const own = await accountOwner()
    const prober = clientAt()
    for (let i = 0; i < SIGN_IN_LIMITS.address.limit; i++) {
      expect((await signIn(prober, `probe${i}-${crypto.randomUUID().slice(0, 6)}@acme.test`, 'Wrong1234')).status).toBe(401)
    }
    expect((await signIn(prober, own, PASSWORD)).status).toBe(429)
    expect((await signIn(clientAt(), own, PASSWORD)).status).toBe(200)
  })

  test('the slower limit per account holds after many failures from many addresses, for the owner too', async () => {
    const email = await accountOwner()
    const perAddress = SIGN_IN_LIMITS.accountAddress.limit
    let attacker = clientAt()
    for (let i = 0; i < SIGN_IN_LIMITS.account.limit; i++) {
      // A new address whenever the previous one has used up its failures on this account.
      if (i > 0 && i % perAddress === 0) attacker = clientAt()
      expect((await signIn(attacker, email, `Guess${i}abc`)).status).toBe(401)
    }
    const res = await signIn(clientAt(), email, PASSWORD)
    expect(res.status).toBe(429)
    expect(res.body.code).toBe('TOO_MANY_LOGIN_ATTEMPTS')
    // The hour's window, longer than the one for an account from one address.
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(SIGN_IN_LIMITS.accountAddress.windowMs / 1000)
    const refusal = signInLog().at(-1)
    expect(refusal).toMatchObject({ outcome: 'rate-limited', limit: 'account', email })
  })
})

describe('the audit trail', () => {
  test('every attempt and every refusal is a structured log line with kind, e-mail, address and outcome; never the password', async () => {
    const email = await accountOwner()
    const client = clientAt('198.51.100.77')
    expect((await signIn(client, email, 'Wrong1234')).status).toBe(401)
    const success = await signIn(client, email, PASSWORD)
    expect(success.status).toBe(200)
    for (let i = 0; i < SIGN_IN_LIMITS.accountAddress.limit; i++) await signIn(client, email, 'Wrong1234')
    const held = await signIn(client, email, 'Wrong1234')
    expect(held.status).toBe(429)

    const log = signInLog()
    expect(log.map((entry) => entry.outcome)).toEqual(['failure', 'success', ...Array(SIGN_IN_LIMITS.accountAddress.limit).fill('failure'), 'rate-limited'])
    for (const entry of log) {
      expect(entry).toMatchObject({ kind: 'sign-in', email, ip: '198.51.100.77', requestId: expect.any(String) })
      expect(JSON.stringify(entry)).not.toContain('Wrong1234')
      expect(JSON.stringify(entry)).not.toContain(PASSWORD)
    }
    expect(log[0]!.level).toBe('warn')
    expect(log[1]).toMatchObject({ level: 'info', userId: success.body.id })
    expect(log.at(-1)).toMatchObject({ level: 'warn', limit: 'accountAddress', retryAfter: Number(held.headers.get('retry-after')) })
    expect(log.at(-1)!.requestId).toEqual(held.headers.get('x-request-id'))
  })

  test('attempts at unknown addresses are logged alike, so the log does not tell which accounts exist', async () => {
    const email = `nobody-${crypto.randomUUID().slice(0, 8)}@acme.test`
    expect((await signIn(clientAt('198.51.100.78'), email, 'Wrong1234')).status).toBe(401)
    expect(signInLog()).toEqual([expect.objectContaining({ kind: 'sign-in', email, ip: '198.51.100.78', outcome: 'failure' })])
  })
})
