/**
 * The server bundle that `npm start` runs (src/cli/bundle.ts → dist/server/main.js), as a process
 * on a fresh database: it finds the checkout's migrations, public files and web build, and what
 * loads on first use (the strings of a language, the document readers, OCR with its language
 * data, /v1, the OpenAPI document) loads from its chunks.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startFakeLlm, type FakeLlm } from '../../tests/support/fake-llm'
import { makeDocx, makePdf } from '../../tests/support/documents'
import { freePort } from '../../tests/support/ports'
import { makeScan } from '../../tests/support/scans'
import { sseEvents } from '../../tests/support/sse'
import { bundleInputs, inputsHash } from './bundle'

const root = resolve(import.meta.dir, '../..')
const dir = mkdtempSync(join(tmpdir(), 'kontor-bundle-'))
// A bundle of its own, beside the one `npm start` runs.
const outdir = join(root, 'dist', `server-test-${crypto.randomUUID().slice(0, 8)}`)
const port = freePort()
const base = `http://localhost:${port}`
let fake: FakeLlm
let server: ReturnType<typeof Bun.spawn> | undefined
let cookie = ''

beforeAll(async () => {
  fake = await startFakeLlm()
  const build = Bun.spawnSync([process.execPath, 'src/cli/bundle.ts', '--outdir', outdir], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
  expect(build.stderr.toString()).toBe('')
  expect(build.exitCode).toBe(0)
  const web = Bun.spawnSync([process.execPath, 'web/build.ts'], { cwd: root, env: { ...process.env, WEB_BUILD_DIR: join(dir, 'web') }, stdout: 'ignore', stderr: 'inherit' })
  expect(web.exitCode).toBe(0)
  // Started from another folder: the bundle finds the checkout from where it lies, not from the working directory.
  server = Bun.spawn([process.execPath, join(outdir, 'main.js')], {
    cwd: dir,
    stdout: 'ignore',
    stderr: 'inherit',
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      KONTOR_DATA_DIR: join(dir, 'data'),
      KONTOR_SECRET: 'bundle-secret-bundle-secret-bundle-0123',
      KONTOR_BASE_URL: base,
      WEB_BUILD_DIR: join(dir, 'web'),
      OPENAI_API_KEY: 'sk-bundle',
      OPENAI_BASE_URL: `${fake.url}/v1`,
      KONTOR_FETCH_ALLOWED_HOSTS: '127.0.0.1',
      LOG_LEVEL: 'error',
    },
  })
  let ready = false
  for (let i = 0; i < 300 && !ready; i++) {
    ready = await fetch(`${base}/api/ready`).then((r) => r.ok, () => false)
    if (!ready) await Bun.sleep(100)
  }
  expect(ready).toBe(true)
}, 120_000)

afterAll(async () => {
  server?.kill()
  await server?.exited
  fake?.close()
  rmSync(dir, { recursive: true, force: true })
  rmSync(outdir, { recursive: true, force: true })
})

const call = async (method: string, path: string, body?: unknown) => {
  const init: RequestInit = { method, headers: { cookie, origin: base, ...(body !== undefined && !(body instanceof FormData) && { 'content-type': 'application/json' }) } }
  if (body !== undefined) init.body = body instanceof FormData ? body : JSON.stringify(body)
  const res = await fetch(base + path, init)
  return { status: res.status, body: (await res.json()) as any }
}

test('the bundle is what `npm start` runs, with React in its production build; older builds go but the one run before', () => {
  const start = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start as string
  expect(start).toContain('src/cli/bundle.ts --if-changed')
  expect(start).toEndWith('node_modules/.bin/bun dist/server/main.js')
  const hash = inputsHash()
  expect(readFileSync(join(outdir, 'main.js'), 'utf8')).toContain(`./${hash}/main.js`)
  // Not React's development build (its owner stacks are only there).
  const files = readdirSync(join(outdir, hash)).filter((name) => name.endsWith('.js'))
  expect(files.length).toBeGreaterThan(10)
  expect(files.filter((name) => readFileSync(join(outdir, hash, name), 'utf8').includes('recentlyCreatedOwnerStacks'))).toEqual([])
  // A server may still run from the build main.js ran before; other builds, and what a build stopped half-way left, go.
  for (const name of ['0000000000000001', '0000000000000002', '.0000000000000003-999999999']) mkdirSync(join(outdir, name))
  writeFileSync(join(outdir, 'main.js'), 'await import("./0000000000000002/main.js")\n')
  const again = Bun.spawnSync([process.execPath, 'src/cli/bundle.ts', '--if-changed', '--outdir', outdir], { cwd: root, stdout: 'pipe', stderr: 'inherit' })
  expect(again.exitCode).toBe(0)
  // Unchanged inputs: nothing was built.
  expect(again.stdout.toString()).toBe('')
  expect(readFileSync(join(outdir, 'main.js'), 'utf8')).toContain(`./${hash}/main.js`)
  expect(readdirSync(outdir).filter((name) => name !== 'main.js').toSorted()).toEqual(['0000000000000002', hash].toSorted())
  // Outside dist/ it would find neither the checkout nor node_modules.
  const outside = Bun.spawnSync([process.execPath, 'src/cli/bundle.ts', '--outdir', join(dir, 'elsewhere')], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
  expect(outside.exitCode).toBe(1)
  expect(outside.stderr.toString()).toContain('a folder of dist/')
})

test("a build is named by its inputs: the code and the dependencies' lock and patches", () => {
  const tree = join(dir, 'tree')
  for (const [file, text] of [['src/main.ts', 'export {}'], ['patches/x@1.0.0.patch', 'a'], ['package.json', '{}'], ['bun.lock', '{}']] as const) {
    mkdirSync(join(tree, file, '..'), { recursive: true })
    writeFileSync(join(tree, file), text)
  }
  expect(bundleInputs(tree).map((file) => file.slice(tree.length + 1))).toEqual(expect.arrayContaining(['src/main.ts', 'patches/x@1.0.0.patch', 'bun.lock']))
  const first = inputsHash(tree)
  writeFileSync(join(tree, 'patches/x@1.0.0.patch'), 'b')
  expect(inputsHash(tree)).not.toBe(first)
  writeFileSync(join(tree, 'patches/x@1.0.0.patch'), 'a')
  expect(inputsHash(tree)).toBe(first)
  writeFileSync(join(tree, 'src/main.ts'), 'export const changed = 1')
  expect(inputsHash(tree)).not.toBe(first)
})

test('the bundle migrates a new database, renders pages in both languages and lets a user sign up', async () => {
  expect(existsSync(join(dir, 'data/kontor.db'))).toBe(true)
  const german = await fetch(`${base}/login`, { headers: { 'accept-language': 'de', 'user-agent': 'Mozilla/5.0 Chrome/130' } })
  expect(german.status).toBe(200)
  const html = await german.text()
  expect(html).toContain('lang="de"')
  expect(html).toContain('Anmelden')
  const script = html.match(/src="(\/build\/[^"]+\.js)"/)?.[1]
  expect((await fetch(base + script)).status).toBe(200)
  expect((await fetch(`${base}/favicon.svg`)).status).toBe(200)
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: 'first@acme.test', name: 'First', organizationName: 'Bundle Org', password: 'Secret123', passwordConfirmation: 'Secret123', termsAccepted: true }),
  })
  expect(res.status).toBe(201)
  cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
  // Started without NODE_ENV, it runs in development mode (React's production build notwithstanding): the mail page is there.
  expect(((await (await fetch(`${base}/api`)).json()) as any).mailPage).toBe(true)
  const chat = await fetch(`${base}/chat`, { headers: { cookie, 'user-agent': 'Mozilla/5.0 Chrome/130' } })
  expect(chat.status).toBe(200)
  expect(await chat.text()).toContain('</html>')
}, 60_000)

test('the bundle streams a reply from the model and reads PDF and Word files, and pictures with OCR', async () => {
  expect((await call('POST', '/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })).status).toBe(201)
  expect((await call('POST', '/api/models/permitted', { modelId: 'openai/gpt-4.1' })).status).toBe(201)
  await call('POST', '/api/models/permitted', { modelId: 'openai/text-embedding-3-small' })
  const thread = (await call('POST', '/api/threads', {})).body.id as string
  const reply = await fetch(`${base}/api/threads/${thread}/messages`, {
    method: 'POST',
    headers: { cookie, origin: base, 'content-type': 'application/json' },
    body: JSON.stringify({ content: '[[fake:tokens=50]] hello' }),
  })
  expect(reply.status).toBe(200)
  const events: { event: string; data: any }[] = []
  for await (const e of sseEvents(reply.body!)) events.push(e)
  expect(events.filter((e) => e.event === 'text').map((e) => e.data.delta).join('').length).toBeGreaterThan(0)
  expect(events.at(-1)).toMatchObject({ event: 'message_end', data: { status: 'complete' } })

  for (const [name, type, bytes] of [
    ['notes.pdf', 'application/pdf', makePdf([['The crane lifts forty tonnes.']])],
    ['notes.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', makeDocx(['The harbour opens at six.'])],
    ['scan.png', 'image/png', makeScan(['The crane lifts forty tonnes.'])],
  ] as const) {
    const form = new FormData()
    form.set('file', new File([bytes], name, { type }))
    const upload = await call('POST', `/api/threads/${thread}/sources/file`, form)
    expect(upload.status, name).toBe(201)
  }
  let sources: { name: string; status: string; error: string | null }[] = []
  for (let i = 0; i < 1200; i++) {
    sources = (await call('GET', `/api/threads/${thread}/sources`)).body
    if (sources.every((s) => s.status !== 'processing')) break
    await Bun.sleep(100)
  }
  expect(sources.map((s) => ({ status: s.status, error: s.error }))).toEqual([
    { status: 'ready', error: null },
    { status: 'ready', error: null },
    { status: 'ready', error: null },
  ])
}, 180_000)

test('the bundle loads /v1 and the OpenAPI document on first use', async () => {
  const models = await fetch(`${base}/v1/models`)
  expect(models.status).toBe(401)
  expect(((await models.json()) as any).error).toBeDefined()
  const doc = await fetch(`${base}/api/docs`)
  expect(doc.status).toBe(200)
  expect(((await doc.json()) as any).paths['/v1/chat/completions']).toBeDefined()
})
