import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { keptLookups } from './kept-lookups'
import { checkOutboundUrl, isInternalName, isPublicAddress, OutboundError, outboundFetch, type OutboundPolicy } from './outbound'

/** Loopback, private, link-local, shared, multicast and unspecified addresses in every form a URL or a resolver may give them. */
const NON_PUBLIC = [
  '127.0.0.1',
  '0.0.0.0',
  '10.0.0.5',
  '100.64.0.1',
  '100.127.255.254',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '192.0.2.1',
  '198.18.0.1',
  '224.0.0.1',
  '255.255.255.255',
  '::',
  '::1',
  '[::1]',
  '::ffff:7f00:1',
  '[::ffff:7f00:1]',
  '::ffff:127.0.0.1',
  '::ffff:a9fe:a9fe',
  '::ffff:0.0.0.0',
  '0:0:0:0:0:ffff:7f00:1',
  '::7f00:1',
  'fc00::1',
  'fd12:3456::1',
  'fe80::1',
  'fe80::1%eth0',
  'fec0::1',
  'ff02::1',
  '64:ff9b::7f00:1',
  '64:ff9b::a00:5',
  '64:ff9b:1::808:808',
  '2002:7f00:1::1',
  '2002:a00:5::1',
  '2001:db8::1',
  '2001::1',
  '100::1',
]
const PUBLIC = ['8.8.8.8', '93.184.216.34', '100.63.255.255', '100.128.0.1', '172.32.0.1', '2606:4700:4700::1111', '[2606:4700:4700::1111]', '::ffff:8.8.8.8', '::ffff:808:808', '2a00:1450::1', '64:ff9b::808:808', '2002:808:808::1']

describe('which addresses are public', () => {
  test('every written form of a non-public address is refused, including the IPv4-mapped, NAT64 and 6to4 forms', () => {
    for (const ip of NON_PUBLIC) expect([ip, isPublicAddress(ip)]).toEqual([ip, false])
  })

  test('public addresses pass', () => {
    for (const ip of PUBLIC) expect([ip, isPublicAddress(ip)]).toEqual([ip, true])
  })

  test('what is no address is not public', () => {
    for (const junk of ['', 'example.com', '1.2.3', '1:2:3:4:5:6:7:8:9', '::1::', '300.1.1.1']) expect([junk, isPublicAddress(junk)]).toEqual([junk, false])
  })

  test('internal names are known by name; others are left to resolution', () => {
    for (const host of ['localhost', 'LOCALHOST.', 'db.localhost', 'printer.local', 'metadata.google.internal', 'nas.lan', 'router.home.arpa', 'intranet']) {
      expect([host, isInternalName(host)]).toEqual([host, true])
    }
    for (const host of ['example.com', 'llm.example.com.', 'fc00.example.com', '127.0.0.1.nip.io']) expect([host, isInternalName(host)]).toEqual([host, false])
  })
})

/** A loopback server that records every request it receives: a refused request must never reach it. */
let recorder: ReturnType<typeof Bun.serve>
let tlsServer: ReturnType<typeof Bun.serve>
const hits: { path: string; host: string | null; headers: Record<string, string>; method: string }[] = []
let port = 0

beforeAll(() => {
  recorder = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url)
      hits.push({ path: url.pathname, host: req.headers.get('host'), headers: Object.fromEntries(req.headers), method: req.method })
      const to = url.searchParams.get('to')
      if (url.pathname === '/redirect' && to) return new Response(null, { status: Number(url.searchParams.get('status') ?? 302), headers: { location: to } })
      if (url.pathname.startsWith('/hops/')) {
        const left = Number(url.pathname.split('/')[2])
        return new Response(null, { status: 302, headers: { location: left ? `/hops/${left - 1}` : '/ok' } })
      }
      if (url.pathname === '/endless') {
        return new Response(new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array(1024).fill(97)) }))
      }
      if (url.pathname === '/big') return new Response('x'.repeat(5000))
      if (url.pathname === '/slow') return new Promise((resolve) => setTimeout(() => resolve(new Response('late')), 2_000))
      return new Response(`ok ${req.method} ${await req.text()}`)
    },
  })
  port = recorder.port!
  tlsServer = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    tls: { key: Bun.file(new URL('../../tests/support/tls/pinned-test.key', import.meta.url)), cert: Bun.file(new URL('../../tests/support/tls/pinned-test.crt', import.meta.url)) },
    fetch: (req) => new Response(`tls ok for ${req.headers.get('host')}`),
  })
})
afterAll(() => {
  recorder.stop(true)
  tlsServer.stop(true)
})
beforeEach(() => void (hits.length = 0))

/** A resolver with test names; every lookup is counted. */
const lookups: string[] = []
const names: Record<string, string[]> = {
  'loopback.test': ['127.0.0.1'],
  'v6-loopback.test': ['::1'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'nat64.test': ['64:ff9b::7f00:1'],
  'mixed.test': ['93.184.216.34', '127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'allowed.test': ['127.0.0.1'],
  'other-allowed.test': ['127.0.0.1'],
  'pinned.test': ['127.0.0.1'],
  'dual.test': ['::1', '127.0.0.1'],
}
const resolveHost = async (host: string) => {
  lookups.push(host)
  if (!names[host]) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
  return names[host]!
}
beforeEach(() => void (lookups.length = 0))

const reason = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  return error instanceof OutboundError ? error.reason : `not refused: ${String(error)}`
}

describe('the guarded client', () => {
  const strict: OutboundPolicy = { resolveHost }

  test('loopback in every disguise is refused before any request is sent', async () => {
    const get = outboundFetch(strict)
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '2130706433', '0x7f.1', '127.1', '0', 'localhost', 'db.localhost']) {
      expect([host, await reason(get(`http://${host}:${port}/secret`))]).toEqual([host, 'private-address'])
    }
    for (const host of ['loopback.test', 'v6-loopback.test', 'mapped.test', 'nat64.test', 'mixed.test', 'metadata.test', 'dual.test']) {
      expect([host, await reason(get(`http://${host}:${port}/secret`))]).toEqual([host, 'private-address'])
    }
    expect(await reason(get(`http://nowhere.test:${port}/`))).toBe('host-not-found')
    expect(hits).toEqual([])
  })

  test('without a resolver (Workers), names are judged by name', async () => {
    const get = outboundFetch({})
    for (const host of ['localhost', 'printer.local', 'intranet', 'nas.lan']) expect([host, await reason(get(`http://${host}:${port}/`))]).toEqual([host, 'private-address'])
    expect(hits).toEqual([])
  })

  test('other schemes and credentials in the URL are refused', async () => {
    const get = outboundFetch({ ...strict, allowedHosts: ['127.0.0.1'] })
    expect(await reason(get('file:///etc/passwd'))).toBe('protocol')
    expect(await reason(get(`http://user:secret@127.0.0.1:${port}/`))).toBe('credentials')
    expect(await reason(get('not a url'))).toBe('invalid-url')
    expect(hits).toEqual([])
  })

  test('it connects to the address it checked, with the name as Host: one lookup per request, no second one (DNS rebinding)', async () => {
    // The system resolver does not know pinned.test: the request can only arrive if the guard connected to the checked address itself.
    const get = outboundFetch({ resolveHost, allowedHosts: ['pinned.test'] })
    const res = await get(`http://pinned.test:${port}/page`)
    expect(await res.text()).toBe('ok GET ')
    expect(res.url).toBe(`http://pinned.test:${port}/page`)
    expect(hits.map((h) => h.host)).toEqual([`pinned.test:${port}`])
    expect(lookups).toEqual(['pinned.test'])

    // A resolver that answers a public address first and loopback afterwards: the request goes to the first answer.
    let answers = 0
    const rebinding = async () => (answers++ === 0 ? ['93.184.216.34'] : ['127.0.0.1'])
    const sent: string[] = []
    const transport = Object.assign(async (input: string | URL | Request) => (sent.push(String(input)), new Response('from the checked address')), { preconnect: fetch.preconnect })
    const res2 = await outboundFetch({ resolveHost: rebinding, transport })('http://rebind.test/x')
    expect(await res2.text()).toBe('from the checked address')
    expect(sent).toEqual(['http://93.184.216.34/x'])
    expect(answers).toBe(1)
  })

  test('a name whose kept addresses cannot be reached is looked up again', async () => {
    // The first answer points where nothing listens (the test server listens on IPv4 only), the next one at the server.
    let answers = 0
    const moving = keptLookups(async () => (answers++ === 0 ? ['::1'] : ['127.0.0.1']))
    const get = outboundFetch({ resolveHost: moving, allowedHosts: ['moved.test'] })
    expect(await get(`http://moved.test:${port}/moved`).then(() => 'reached', () => 'unreachable')).toBe('unreachable')
    expect(await (await get(`http://moved.test:${port}/moved`)).text()).toBe('ok GET ')
    // Reached, the address is kept: no third lookup.
    expect(await (await get(`http://moved.test:${port}/moved`)).text()).toBe('ok GET ')
    expect(answers).toBe(2)
  })

  test('a request to an address, or to a name whose addresses are kept, leaves within the call', async () => {
    const sent: string[] = []
    const transport = Object.assign(async (input: string | URL | Request) => (sent.push(String(input)), new Response('sent')), { preconnect: fetch.preconnect })
    const kept = keptLookups(async () => ['93.184.216.34'])
    const get = outboundFetch({ resolveHost: kept, allowedHosts: ['10.0.0.7'], transport })
    const byAddress = get('http://10.0.0.7/chat')
    expect(sent).toEqual(['http://10.0.0.7/chat'])
    // A name is looked up first; once its addresses are kept, its next request leaves at once too.
    const first = get('http://kept.test/chat')
    expect(sent).toHaveLength(1)
    await Promise.all([byAddress, first])
    expect(sent).toEqual(['http://10.0.0.7/chat', 'http://93.184.216.34/chat'])
    const next = get('http://kept.test/chat')
    expect(sent).toHaveLength(3)
    expect(await (await next).text()).toBe('sent')
  })

  test('a kept name is checked by each policy: one that allows it reaches it, a strict one refuses it', async () => {
    const shared = keptLookups(async () => ['127.0.0.1'])
    const allowing = outboundFetch({ resolveHost: shared, allowedHosts: ['shared.test'] })
    expect(await (await allowing(`http://shared.test:${port}/shared`)).text()).toBe('ok GET ')
    expect(shared.known!('shared.test')).toEqual(['127.0.0.1'])
    hits.length = 0
    // Known now, the name is checked at once, and still refused.
    expect(await reason(outboundFetch({ resolveHost: shared })(`http://shared.test:${port}/secret`))).toBe('private-address')
    expect(await reason(checkOutboundUrl({ resolveHost: shared }, `http://shared.test:${port}/secret`))).toBe('private-address')
    expect(hits).toEqual([])
  })

  test('a request the caller gave up on keeps the name; one that timed out forgets it', async () => {
    let lookupsMade = 0
    const kept = keptLookups(async () => (lookupsMade++, ['127.0.0.1']))
    const hanging = Object.assign(
      (_: string | URL | Request, init?: RequestInit) =>
        new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason), { once: true })),
      { preconnect: fetch.preconnect },
    )
    const caller = new AbortController()
    const given = outboundFetch({ resolveHost: kept, allowedHosts: ['slow.test'], transport: hanging })('http://slow.test/x', { signal: caller.signal })
    await Bun.sleep(0)
    caller.abort()
    await given.catch(() => {})
    expect(kept.known!('slow.test')).toEqual(['127.0.0.1'])
    expect(await reason(outboundFetch({ resolveHost: kept, allowedHosts: ['slow.test'], transport: hanging }, { timeoutMs: 20 })('http://slow.test/x'))).toBe('timeout')
    expect(kept.known!('slow.test')).toBeUndefined()
    expect(lookupsMade).toBe(1)
  })

  test('a name with an IPv6 and an IPv4 address is reached over whichever answers', async () => {
    const res = await outboundFetch({ resolveHost, allowedHosts: ['dual.test'] })(`http://dual.test:${port}/dual`)
    expect(await res.text()).toBe('ok GET ')
  })

  test('https to a checked address verifies the certificate against the name', async () => {
    const ca = await Bun.file(new URL('../../tests/support/tls/pinned-test.crt', import.meta.url)).text()
    const withCa = Object.assign((input: string | URL | Request, init?: RequestInit) => fetch(input, { ...init, tls: { ...(init as { tls?: object })?.tls, ca } } as RequestInit), {
      preconnect: fetch.preconnect,
    })
    const res = await outboundFetch({ resolveHost, allowedHosts: ['pinned.test'], transport: withCa })(`https://pinned.test:${tlsServer.port}/`)
    expect(await res.text()).toBe(`tls ok for pinned.test:${tlsServer.port}`)
    // The same certificate does not pass for another name on the same address.
    const other = await outboundFetch({ resolveHost, allowedHosts: ['allowed.test'], transport: withCa })(`https://allowed.test:${tlsServer.port}/`).then(
      () => 'accepted',
      (e: unknown) => String(e),
    )
    expect(other).toMatch(/CERT|certificate/i)
  })

  test('redirects are followed by hand, at most 5, and every hop is checked', async () => {
    const get = outboundFetch({ resolveHost, allowedHosts: ['127.0.0.1'] })
    expect(await (await get(`http://127.0.0.1:${port}/hops/4`)).text()).toBe('ok GET ')
    expect(await reason(get(`http://127.0.0.1:${port}/hops/5`))).toBe('too-many-redirects')
    hits.length = 0
    for (const to of [`http://localhost:${port}/secret`, `http://loopback.test:${port}/secret`, `http://[::ffff:127.0.0.1]:${port}/secret`, `http://169.254.169.254/latest`, 'file:///etc/passwd']) {
      const refused = await reason(get(`http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(to)}`))
      expect([to, refused]).toEqual([to, to.startsWith('file') ? 'protocol' : 'private-address'])
    }
    expect(hits.map((h) => h.path)).toEqual(['/redirect', '/redirect', '/redirect', '/redirect', '/redirect'])
  })

  test('a redirect to another host never carries the credentials; one with a body is refused', async () => {
    const get = outboundFetch({ resolveHost, allowedHosts: ['allowed.test', 'other-allowed.test'] })
    const secrets = { authorization: 'Bearer sk-secret', 'x-api-key': 'sk-secret', cookie: 'session=1', 'x-subscription-token': 't', accept: 'application/json' }
    await get(`http://allowed.test:${port}/redirect?to=${encodeURIComponent(`http://other-allowed.test:${port}/landing`)}`, { headers: secrets })
    expect(hits.map((h) => [h.path, h.host])).toEqual([
      ['/redirect', `allowed.test:${port}`],
      ['/landing', `other-allowed.test:${port}`],
    ])
    expect(hits[0]!.headers).toMatchObject({ authorization: 'Bearer sk-secret', 'x-api-key': 'sk-secret' })
    expect(Object.keys(hits[1]!.headers).filter((h) => h in secrets)).toEqual(['accept'])

    // The same host keeps them.
    hits.length = 0
    await get(`http://allowed.test:${port}/redirect?to=/landing`, { headers: secrets })
    expect(hits[1]!.headers).toMatchObject({ authorization: 'Bearer sk-secret' })

    // A request with a body is not sent on to another host (307 would repeat it there).
    hits.length = 0
    const to = encodeURIComponent(`http://other-allowed.test:${port}/landing`)
    expect(await reason(get(`http://allowed.test:${port}/redirect?status=307&to=${to}`, { method: 'POST', body: '{"api_key":"sk-secret"}' }))).toBe('redirect-with-body')
    expect(hits.map((h) => h.path)).toEqual(['/redirect'])
  })

  test('a request that asks not to follow redirects gets the redirect', async () => {
    const res = await outboundFetch({ allowedHosts: ['127.0.0.1'] })(`http://127.0.0.1:${port}/redirect?to=/landing`, { redirect: 'manual' })
    expect(res.status).toBe(302)
    expect(hits.map((h) => h.path)).toEqual(['/redirect'])
  })

  test('the size limit ends a body that is too large, even one that never ends', async () => {
    const get = outboundFetch({ allowedHosts: ['127.0.0.1'] }, { maxBytes: 1000 })
    expect(await reason(get(`http://127.0.0.1:${port}/big`))).toBe('too-large') // declared length
    expect(await reason((await get(`http://127.0.0.1:${port}/endless`)).text())).toBe('too-large')
    expect(await (await get(`http://127.0.0.1:${port}/ok`)).text()).toBe('ok GET ')
  })

  test('the time limit ends a request that does not answer', async () => {
    expect(await reason(outboundFetch({ allowedHosts: ['127.0.0.1'] }, { timeoutMs: 100 })(`http://127.0.0.1:${port}/slow`))).toBe('timeout')
  })

  test('an address can be checked without sending anything', async () => {
    expect(await reason(checkOutboundUrl(strict, `http://loopback.test:${port}/v1`))).toBe('private-address')
    expect(await reason(checkOutboundUrl(strict, 'http://nowhere.test/v1'))).toBe('host-not-found')
    await checkOutboundUrl({ resolveHost: async () => ['93.184.216.34'] }, 'https://llm.example.com/v1')
    await checkOutboundUrl({ ...strict, allowedHosts: ['loopback.test'] }, `http://loopback.test:${port}/v1`)
    expect(hits).toEqual([])
  })
})
