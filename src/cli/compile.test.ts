import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startFakeLlm } from '../../tests/support/fake-llm'
import { makeScan } from '../../tests/support/scans'

const root = resolve(import.meta.dir, '../..')
const folder = mkdtempSync(join(tmpdir(), 'kontor-binary-'))
let server: ReturnType<typeof Bun.spawn> | undefined
const fake = await startFakeLlm()
afterAll(async () => {
  server?.kill()
  await server?.exited
  fake.close()
  rmSync(folder, { recursive: true, force: true })
})
let base = ''
let cookie = ''

test('the single binary starts from an empty folder, creates its database and lets a user sign up', async () => {
  const build = Bun.spawnSync([process.execPath, 'src/cli/compile.ts'], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
  expect(build.exitCode).toBe(0)
  const port = 5600 + Math.floor(Math.random() * 300)
  base = `http://localhost:${port}`
  // Only what a user would pass: a port (and a model provider, the fake one). No source tree, no node_modules next to it.
  const provider = { OPENAI_API_KEY: 'sk-binary', OPENAI_BASE_URL: `${fake.url}/v1`, KONTOR_FETCH_ALLOWED_HOSTS: '127.0.0.1' }
  server = Bun.spawn([join(root, 'dist/kontor')], { cwd: folder, env: { PATH: process.env.PATH ?? '', TMPDIR: folder, PORT: String(port), LOG_LEVEL: 'warn', ...provider }, stdout: 'pipe', stderr: 'pipe' })
  let healthy = false
  for (let i = 0; i < 600 && !healthy; i++) {
    healthy = await fetch(`${base}/api/ready`).then((r) => r.ok, () => false)
    if (!healthy) await Bun.sleep(100)
  }
  expect(healthy).toBe(true)
  const page = await fetch(`${base}/register`, { headers: { 'user-agent': 'Mozilla/5.0 Chrome/130' } })
  expect(page.status).toBe(200)
  const html = await page.text()
  const script = html.match(/src="(\/build\/[^"]+\.js)"/)?.[1]
  expect(script).toBeDefined()
  // The web assets are served from inside the binary, compressed as the browser accepts, and
  // nothing beside them: not the binary's other embedded files, not a path that climbs out.
  const asset = await fetch(base + script, { headers: { 'accept-encoding': 'br' }, decompress: false })
  expect(asset.status).toBe(200)
  expect(asset.headers.get('content-encoding')).toBe('br')
  expect(asset.headers.get('content-type')).toStartWith('text/javascript')
  expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  const plain = await fetch(base + script, { headers: { 'accept-encoding': 'identity' } })
  expect(plain.headers.get('content-encoding')).toBeNull()
  expect((await plain.text()).length).toBeGreaterThan(1000)
  const icon = await fetch(`${base}/favicon.svg`)
  expect(icon.status).toBe(200)
  expect(await icon.text()).toContain('<svg')
  for (const path of ['/build/%2e%2e/drizzle/meta/_journal.json', '/drizzle/meta/_journal.json', '/public/favicon.svg', '/build/nothing.js']) {
    const res = await fetch(base + path, { headers: { 'user-agent': 'curl/8' } })
    expect(res.status, path).toBe(404)
    expect(await res.text(), path).not.toContain('"entries"')
  }
  // No web assets were unpacked: the binary's temporary directory holds the migrations only.
  const unpacked = readdirSync(folder).filter((name) => name.startsWith('kontor-'))
  expect(unpacked).toHaveLength(1)
  expect(readdirSync(join(folder, unpacked[0]!))).toEqual(['drizzle'])
  // The migrations, their journal and the baseline a new database begins from; not drizzle-kit's snapshots.
  const drizzle = readdirSync(join(folder, unpacked[0]!, 'drizzle'), { recursive: true }).map(String).toSorted()
  expect(drizzle).toContain('baseline.sql')
  expect(drizzle).toContain('meta/_journal.json')
  expect(drizzle.filter((name) => name.endsWith('.sql'))).toHaveLength(readdirSync(join(root, 'drizzle')).filter((name) => name.endsWith('.sql')).length)
  expect(drizzle.filter((name) => name.endsWith('_snapshot.json'))).toEqual([])
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: 'first@acme.test', name: 'First', organizationName: 'Binary Org', password: 'Secret123', passwordConfirmation: 'Secret123', termsAccepted: true }),
  })
  expect(res.status).toBe(201)
  cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
  expect(await Bun.file(join(folder, 'data/kontor.db')).exists()).toBe(true)
}, 120_000)

test('the single binary reads a picture with OCR: tesseract.js, its worker thread and the language data are inside it', async () => {
  const call = async (method: string, path: string, body?: unknown) => {
    const init: RequestInit = { method, headers: { cookie, origin: base, ...(body !== undefined && !(body instanceof FormData) && { 'content-type': 'application/json' }) } }
    if (body !== undefined) init.body = body instanceof FormData ? body : JSON.stringify(body)
    const res = await fetch(base + path, init)
    return { status: res.status, body: (await res.json()) as any }
  }
  expect((await call('POST', '/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })).status).toBe(201)
  await call('POST', '/api/models/permitted', { modelId: 'openai/gpt-4.1' })
  await call('POST', '/api/models/permitted', { modelId: 'openai/text-embedding-3-small' })
  const thread = (await call('POST', '/api/threads', {})).body.id
  const form = new FormData()
  form.set('file', new File([makeScan(['The crane lifts forty tonnes.'])], 'scan.png', { type: 'image/png' }))
  const upload = await call('POST', `/api/threads/${thread}/sources/file`, form)
  expect(upload.status).toBe(201)
  let source: { status: string; error: string | null } = upload.body
  // Processing runs in the background of the server: wait for its outcome.
  for (let i = 0; i < 1200 && source.status === 'processing'; i++) {
    await Bun.sleep(100)
    source = (await call('GET', `/api/threads/${thread}/sources`)).body[0]
  }
  expect(source).toMatchObject({ status: 'ready', error: null })
}, 180_000)
