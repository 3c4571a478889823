/**
 * The security headers of every answer of the Bun server (src/main.ts as a process, with its
 * real static files): pages with a Content-Security-Policy whose nonce is new per request and on
 * every inline script, API answers, static files and 404s with a policy that allows nothing;
 * HSTS only for an https base URL; and the same headers for the files Workers serve themselves.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { ExecutionContext } from 'hono'
import { COMMON_HEADERS, NON_PAGE_CSP } from '../../src/lib/security-headers'
import worker from '../../src/worker'
import { freePort } from '../support/ports'
import { createTestApp, PASSWORD } from '../support/test-app'

const root = resolve(import.meta.dir, '../..')
const dir = mkdtempSync(join(tmpdir(), 'kontor-headers-'))
const port = freePort()
const base = `http://localhost:${port}`
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0 Safari/537.36'
let server: ReturnType<typeof Bun.spawn>
let manifest: { js: string; css: string }

beforeAll(async () => {
  const webDir = join(dir, 'web')
  const build = Bun.spawnSync([process.execPath, 'web/build.ts'], { cwd: root, env: { ...process.env, WEB_BUILD_DIR: webDir }, stdout: 'ignore', stderr: 'inherit' })
  expect(build.exitCode).toBe(0)
  manifest = JSON.parse(readFileSync(join(webDir, 'manifest.json'), 'utf8'))
  server = Bun.spawn([process.execPath, 'src/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      TMPDIR: dir,
      WEB_BUILD_DIR: webDir,
      KONTOR_DATA_DIR: join(dir, 'data'),
      PORT: String(port),
      KONTOR_BASE_URL: base,
      KONTOR_SECRET: 'headers-secret-headers-secret-0123456789',
      KONTOR_REGISTRATION: 'open',
      LOG_LEVEL: 'silent',
    },
    stdout: 'ignore',
    stderr: 'inherit',
  })
  for (;;) {
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) break
    if (server.exitCode !== null) throw new Error('the server did not start')
    await Bun.sleep(100)
  }
}, 60_000)

afterAll(async () => {
  server.kill()
  await server.exited
  rmSync(dir, { recursive: true, force: true })
})

/** The directives of a Content-Security-Policy, each with its sources. */
function directives(policy: string | null) {
  return Object.fromEntries((policy ?? '').split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]))
}

function expectCommonHeaders(res: Response, what: string) {
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff')
  expect(res.headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin')
  expect(res.headers.get('x-frame-options'), what).toBe('DENY')
  const permissions = res.headers.get('permissions-policy') ?? ''
  for (const denied of ['camera=()', 'microphone=()', 'geolocation=()', 'payment=()', 'usb=()']) expect(permissions, what).toContain(denied)
  // The copy buttons of code blocks, e-mail drafts and invitation links write to the clipboard.
  expect(permissions, what).toContain('clipboard-write=(self)')
  // The base URL is http: no HSTS.
  expect(res.headers.get('strict-transport-security'), what).toBeNull()
}

/** The nonce of a page's policy; fails unless the policy is the strict one of pages. */
function pageNonce(res: Response): string {
  const csp = directives(res.headers.get('content-security-policy'))
  const nonce = csp['script-src']?.find((s) => s.startsWith("'nonce-"))?.slice(7, -1)
  expect(nonce).toBeTruthy()
  expect(csp['script-src']).toEqual(["'self'", `'nonce-${nonce}'`])
  expect(csp['default-src']).toEqual(["'self'"])
  expect(csp['connect-src']).toEqual(["'self'"])
  expect(csp['img-src']).toEqual(["'self'", 'blob:'])
  expect(csp['object-src']).toEqual(["'none'"])
  expect(csp['base-uri']).toEqual(["'none'"])
  expect(csp['frame-ancestors']).toEqual(["'none'"])
  return nonce!
}

/** Every <script> tag of the HTML; inline ones are those without src. */
const scriptTags = (html: string) => [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])

describe('the Bun server', () => {
  test('a page, an API answer, static files and 404s carry the security headers', async () => {
    const page = await fetch(`${base}/login`, { headers: { 'user-agent': BROWSER } })
    expect(page.status).toBe(200)
    expectCommonHeaders(page, 'page')
    pageNonce(page)

    const missingPage = await fetch(`${base}/no-such-page`, { headers: { 'user-agent': BROWSER } })
    expect(missingPage.status).toBe(404)
    expect(missingPage.headers.get('content-type')).toStartWith('text/html')
    expectCommonHeaders(missingPage, '404 page')
    pageNonce(missingPage)

    for (const [what, path, status] of [
      ['API answer', '/api/health', 200],
      ['API error', '/api/auth/me', 401],
      ['API 404', '/api/no-such-route', 404],
      ['stylesheet', manifest.css, 200],
      ['script', manifest.js, 200],
      ['public file', '/favicon.svg', 200],
    ] as const) {
      const res = await fetch(base + path)
      expect(res.status, what).toBe(status)
      expectCommonHeaders(res, what)
      expect(res.headers.get('content-security-policy'), what).toBe("default-src 'none'; frame-ancestors 'none'")
    }
  })

  test('two page loads get different nonces, and every script of the page carries its own', async () => {
    const nonces = new Set<string>()
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${base}/login`, { headers: { 'user-agent': BROWSER } })
      const nonce = pageNonce(res)
      nonces.add(nonce)
      const html = await res.text()
      const tags = scriptTags(html)
      // The theme script before first paint, the router's data and scroll scripts, the entry.
      expect(html).toContain("localStorage.getItem('theme')")
      expect(tags.filter((t) => !/\bsrc=/.test(t)).length).toBeGreaterThanOrEqual(3)
      expect(tags.filter((t) => t.includes(`src="${manifest.js}"`))).toHaveLength(1)
      for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`)
      // The browser's router reads the nonce back when it hydrates.
      expect(html).toContain(`<meta property="csp-nonce" content="${nonce}"/>`)
    }
    expect(nonces.size).toBe(2)
  })

  test('a signed-in page, whose data streams in with the router’s scripts, has the nonce on all of them', async () => {
    const registered = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({
        email: `admin-${crypto.randomUUID().slice(0, 8)}@acme.test`,
        name: 'Ada',
        organizationName: 'Acme',
        password: PASSWORD,
        passwordConfirmation: PASSWORD,
        termsAccepted: true,
        locale: 'en',
      }),
    })
    expect(registered.status).toBe(201)
    const cookie = registered.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
    const res = await fetch(`${base}/chat`, { headers: { 'user-agent': BROWSER, cookie } })
    expect(res.status).toBe(200)
    const nonce = pageNonce(res)
    const html = await res.text()
    expect(html).toContain('$_TSR')
    const tags = scriptTags(html)
    expect(tags.length).toBeGreaterThanOrEqual(4)
    for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`)
  })

  test('the Workers’ header rules (public/_headers) are not handed out as a file', async () => {
    const res = await fetch(`${base}/_headers`, { headers: { 'user-agent': BROWSER } })
    expect(res.status).toBe(404)
    expect(await res.text()).not.toContain('X-Content-Type-Options')
  })
})

test('Strict-Transport-Security is sent when the base URL is https, and only then', async () => {
  for (const [baseUrl, hsts] of [
    ['https://kontor.example.com', 'max-age=31536000; includeSubDomains'],
    ['http://localhost:3000', null],
  ] as const) {
    const t = await createTestApp({ env: { KONTOR_BASE_URL: baseUrl } })
    try {
      for (const path of ['/api/health', '/api/no-such-route']) {
        const res = await t.app.request(path)
        expect(res.headers.get('strict-transport-security'), `${baseUrl} ${path}`).toBe(hsts)
        expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      }
    } finally {
      await t.close()
    }
  }
})

test('public/_headers gives the static files Workers serve themselves the same headers', () => {
  const text = readFileSync(join(root, 'public/_headers'), 'utf8')
  const rules: Record<string, Record<string, string>> = {}
  let path = ''
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue
    if (!/^\s/.test(line)) rules[(path = line.trim())] = {}
    else {
      const at = line.indexOf(':')
      rules[path]![line.slice(0, at).trim()] = line.slice(at + 1).trim()
    }
  }
  expect(rules).toEqual({ '/*': { ...COMMON_HEADERS, 'Content-Security-Policy': NON_PAGE_CSP } })
})

test('a Worker that cannot start answers with the same headers', async () => {
  const errors = console.error
  console.error = () => {}
  try {
    const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext
    const res = await worker.fetch(new Request('https://kontor.example/api/health'), { DATABASE_URL: 'libsql://db.example.turso.io' }, ctx)
    expect(res.status).toBe(503)
    for (const [name, value] of Object.entries(COMMON_HEADERS)) expect(res.headers.get(name)).toBe(value)
    expect(res.headers.get('content-security-policy')).toBe(NON_PAGE_CSP)
  } finally {
    console.error = errors
  }
})
