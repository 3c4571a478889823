/**
 * What a server process loads at start: the static import graph of src/start.ts (which src/main.ts
 * loads after src/runtime-settings.ts), read from the
 * bundler's metafile. better-auth with its plugins and the rarely needed libraries load on first
 * use (decision 0078); a static import from anything loaded at start would bring them back. Once
 * built, better-auth leaves SAML's XML and signature stack and the passkeys' certificate readers
 * to the requests that need them (patches/, decision 0110).
 */
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dir, '..')
const dir = mkdtempSync(join(tmpdir(), 'kontor-start-imports-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

type Metafile = { outputs: Record<string, { entryPoint?: string; imports?: { path: string; kind: string }[]; inputs?: Record<string, unknown> }> }

/** The packages (and source folders) of every chunk the entry imports statically, directly or not. */
function loadedAtStart(meta: Metafile): Set<string> {
  const outputs = meta.outputs
  const byName = new Map(Object.keys(outputs).map((name) => [name.replace(/^\.\//, ''), name]))
  const entry = Object.keys(outputs).find((name) => outputs[name]!.entryPoint)!
  const seen = new Set<string>()
  const stack = [entry]
  while (stack.length) {
    const name = stack.pop()!
    if (seen.has(name)) continue
    seen.add(name)
    for (const imp of outputs[name]!.imports ?? []) {
      const chunk = byName.get(imp.path.replace(/^\.\//, ''))
      if (imp.kind === 'import-statement' && chunk) stack.push(chunk)
    }
  }
  const packages = new Set<string>()
  for (const name of seen)
    for (const input of Object.keys(outputs[name]!.inputs ?? {})) packages.add(input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? input)
  return packages
}

/** The API's route modules: the server loads each domain's with its first request (src/api/route-index.ts, decision 0111). */
const DOMAIN_ROUTES = readFileSync(join(root, 'src/api/route-index.ts'), 'utf8').match(/import\('\.\/[\w-]+\/routes'\)/g)!.map((m) => `src/api/${m.slice(10, -2)}.ts`)

/** The apps with protocols of their own, each loaded with its first request (src/lib/sub-app.ts, decision 0112). */
const SUB_APPS = ['src/api/openai/routes.ts', 'src/api/openai/service.ts', 'src/api/scim/app.ts', 'src/api/scim/users.ts', 'src/api/mcp/routes.ts', 'src/api/mcp/server.ts']

test('better-auth, its plugins, the free-mail lists, OCR, the PDF and HTML readers, the page renderer, the API\'s route modules and the /v1, SCIM and MCP apps are not loaded at start; the server is', async () => {
  const build = Bun.spawnSync(
    // src/main.ts loads src/runtime-settings.ts (a few lines), then this.
    [process.execPath, 'build', 'src/start.ts', '--target=bun', '--splitting', '--outdir', join(dir, 'out'), `--metafile=${join(dir, 'meta.json')}`, '--external', '*.node'],
    { cwd: root, stdout: 'ignore', stderr: 'pipe' },
  )
  expect(build.stderr.toString()).not.toContain('error:')
  expect(build.exitCode).toBe(0)
  const packages = loadedAtStart(JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as Metafile)
  // The graph is read right: what every request needs is in it.
  for (const needed of ['hono', '@libsql/client', 'drizzle-orm', 'src/auth/session.ts', 'src/api/route-index.ts']) expect(packages).toContain(needed)
  expect(DOMAIN_ROUTES.length).toBe(29)
  for (const later of ['better-auth', '@better-auth/core', '@better-auth/sso', '@better-auth/passkey', '@better-auth/api-key', 'samlify', '@simplewebauthn/server', 'free-email-domains', 'email-providers', 'tldts', 'src/auth/auth.ts', 'tesseract.js', 'tesseract.js-core', '@napi-rs/canvas', 'unpdf', 'htmlparser2', 'src/api/sources/parse.ts', 'react-dom', '@tanstack/react-router', 'src/ssr/render.tsx', 'web/router.tsx', ...DOMAIN_ROUTES, ...SUB_APPS])
    expect(packages).not.toContain(later)
}, 120_000)

test('Radix primitives come each from its own package, one version of each: from source the umbrella package would load all of them at start (decision 0098)', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
  expect(Object.keys(manifest.dependencies)).not.toContain('radix-ui')
  const radix = Object.entries(manifest.dependencies).filter(([name]) => name.startsWith('@radix-ui/'))
  expect(radix.length).toBeGreaterThan(0)
  // Exact versions: primitives share internal packages, and one primitive ahead of the others would bring a second copy.
  for (const [name, version] of radix) expect({ name, version }).toEqual({ name, version: expect.stringMatching(/^\d+\.\d+\.\d+$/) })
  // A second copy of a shared package shows in the lockfile as an entry nested under a package.
  expect(readFileSync(join(root, 'bun.lock'), 'utf8').match(/^\s*"[^"]+\/@radix-ui\/[^"]+": \[/gm)).toBeNull()
  const sources = Bun.spawnSync(['git', 'grep', '-l', '-e', "from 'radix-ui'", '-e', 'from "radix-ui"', '--', 'web', 'src'], { cwd: root })
  expect(sources.stdout.toString()).toBe('')
})

test('icons come each from its own module (web/components/icons.ts): from source, the server would load all of Lucide\'s icons with the first page that shows one', () => {
  // Every name of the package a file imports or loads: only web/components/icons.ts names it, and
  // there only one icon's module at a time (`lucide-react/icons/<name>`) and the index for a type.
  const named = Bun.spawnSync(['git', 'grep', '--untracked', '-h', '-o', '-E', '-e', `['"]lucide-react[^'"]*['"]`, '--', 'web', 'src', ':!web/components/icons.ts'], { cwd: root })
  expect(named.stdout.toString().trim()).toBe('')
  const icons = readFileSync(join(root, 'web/components/icons.ts'), 'utf8')
  const names = [...icons.matchAll(/['"](lucide-react[^'"]*)['"]/g)].map((m) => m[1]!)
  expect(names.filter((name) => !/^lucide-react\/icons\/[a-z0-9-]+$/.test(name))).toEqual(['lucide-react'])
  expect(icons).toContain("export type { LucideIcon } from 'lucide-react'")
})

/** What `script`, run in a fresh process in the project's root, reports as `result` (as JSON). */
function inFreshProcess(script: string): unknown {
  const run = Bun.spawnSync([process.execPath, '--eval', `${script}\nconsole.log('RESULT ' + JSON.stringify(result))\nprocess.exit(0)`], {
    cwd: root, stdout: 'pipe', stderr: 'pipe', env: { ...process.env, NODE_ENV: 'test' },
  })
  const line = run.stdout.toString().split('\n').find((l) => l.startsWith('RESULT '))
  expect(line, run.stderr.toString()).toBeDefined()
  return JSON.parse(line!.slice(7))
}

/** The packages a fresh process has loaded after running `script`. */
function packagesLoadedBy(script: string): Set<string> {
  const paths = inFreshProcess(`${script}\nconst result = Object.keys(require.cache)`) as string[]
  return new Set(paths.map((path) => path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? path))
}

/** A fresh app on which an organisation's admin (`admin`) has signed up. */
const SIGNED_UP = `
  import { createTestApp, registerOrg } from './tests/support/test-app'
  const t = await createTestApp({ ocr: null })
  const admin = t.client()
  await registerOrg(admin)
`

const SAML_LIBRARIES = ['samlify', '@xmldom/xmldom', 'xml-crypto', '@authenio/xml-encryption', 'node-rsa', 'xpath', 'fast-xml-parser']
const PASSKEY_LIBRARIES = ['@simplewebauthn/server', '@peculiar/x509']

test('a sign-up builds better-auth with its plugins but loads neither the SAML libraries, nor the passkeys\' certificate readers, nor better-auth\'s migration tooling; asking for passkey options loads its readers', () => {
  const afterSignUp = packagesLoadedBy(SIGNED_UP)
  // better-auth and its plugins were built: the sign-up went through them.
  for (const built of ['better-auth', '@better-auth/core', '@better-auth/sso', '@better-auth/passkey', '@better-auth/api-key']) expect(afterSignUp).toContain(built)
  for (const later of [...SAML_LIBRARIES, ...PASSKEY_LIBRARIES, 'kysely', '@better-auth/kysely-adapter']) expect(afterSignUp).not.toContain(later)

  const afterPasskeyOptions = packagesLoadedBy(`${SIGNED_UP}
    const options = await admin.post('/api/passkeys/options')
    if (options.status !== 200) throw new Error('passkey options: ' + options.status)
  `)
  for (const loaded of PASSKEY_LIBRARIES) expect(afterPasskeyOptions).toContain(loaded)
  for (const later of SAML_LIBRARIES) expect(afterPasskeyOptions).not.toContain(later)
}, 120_000)

test('the plugin loads SAML\'s libraries when it first uses them (here for the service provider\'s metadata), and samlify then checks every message it reads with the validator the plugin set', () => {
  const result = inFreshProcess(`${SIGNED_UP}
    import { readFileSync } from 'node:fs'
    const certificate = readFileSync('tests/fixtures/saml/idp-cert.pem', 'utf8').replace(/-----[A-Z ]+-----/g, '').replace(/\\s+/g, '')
    const loadedBefore = Object.keys(require.cache).some((p) => p.includes('/node_modules/samlify/'))
    const saved = await admin.put('/api/sso', { protocol: 'saml', saml: { entityId: 'https://idp.test/entity', ssoUrl: 'https://idp.test/sso', certificate }, domains: ['saml-imports.example'], defaultRole: 'user', passwordSignIn: true })
    if (saved.status !== 200) throw new Error('SAML settings: ' + saved.status + ' ' + JSON.stringify(saved.body))
    const entity = new URL(saved.body.serviceProvider.entityId)
    const metadata = await t.app.request(entity.pathname + entity.search)
    const loadedAfter = Object.keys(require.cache).some((p) => p.includes('/node_modules/samlify/'))
    // What samlify runs on every message it reads; without a validator it refuses them all.
    const { SamlLib } = require('samlify')
    const outcome = (xml) => SamlLib.isValidXml(xml).then((r) => String(r), (e) => 'refused ' + String(e))
    const result = { loadedBefore, loadedAfter, metadata: metadata.status, wellFormed: await outcome('<a b="c"/>'), malformed: await outcome('<a') }
  `)
  expect(result).toEqual({ loadedBefore: false, loadedAfter: true, metadata: 200, wellFormed: 'SUCCESS_VALIDATE_XML', malformed: 'refused ERR_INVALID_XML' })
}, 120_000)

test('the server loads a language\'s strings with the first page that needs them: a German /login loads the German strings of the pages before sign-in and the error messages, a German /chat the signed-in screens\' too, neither the settings\' strings nor English ones', () => {
  const result = inFreshProcess(`${SIGNED_UP}
    import { createApp } from './src/app'
    import { createPageRenderer } from './src/ssr/render'
    if ((await admin.patch('/api/users/locale', { locale: 'de' })).status !== 200) throw new Error('locale')
    const app = createApp(t.deps, { renderPage: createPageRenderer({ js: '/build/entry.js', css: '/build/app.css' }) })
    const loaded = () => Object.keys(require.cache).filter((p) => p.includes('/web/locales/')).map((p) => p.slice(p.indexOf('/web/locales/') + 13)).sort()
    const open = async (path, cookie) => {
      const response = await app.request(path, { headers: { 'accept-language': 'de', 'user-agent': 'curl/8.5.0', ...(cookie && { cookie }) } })
      return { status: response.status, html: await response.text(), loaded: loaded() }
    }
    const before = loaded()
    const login = await open('/login')
    const chat = await open('/chat', admin.cookieHeader())
    const result = { before, login: [login.status, login.html.includes('Bei Kontor anmelden'), login.loaded], chat: [chat.status, chat.html.includes('Wie kann ich Ihnen heute helfen?'), chat.loaded] }
  `) as { before: string[]; login: [number, boolean, string[]]; chat: [number, boolean, string[]] }
  // The error messages of both languages are imported by the renderer itself, for a page whose rendering fails.
  expect(result.before).toEqual(['de/errors.json', 'en/errors.json', 'index.ts'])
  const publicStrings = ['de/auth.json', 'de/common.json', 'de/errors.json', 'de/invitation.json', 'de/public.ts', 'de/validation.json', 'en/errors.json', 'index.ts']
  expect(result.login).toEqual([200, true, publicStrings])
  const [status, translated, loaded] = result.chat
  expect([status, translated]).toEqual([200, true])
  expect(loaded).toContain('de/app.ts')
  expect(loaded).toContain('de/chat.json')
  expect(loaded.filter((path) => !publicStrings.includes(path) && !path.startsWith('de/'))).toEqual([])
  expect(loaded).not.toContain('de/manage.ts')
  expect(loaded).not.toContain('de/settings.json')
}, 120_000)
