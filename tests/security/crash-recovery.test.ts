/**
 * A server process killed (SIGKILL) in the middle of a reply leaves no reply `streaming`: started
 * again on its host and port, it ends the reply `interrupted` at once, with the text that had been
 * stored, and the chat takes the next message straight away. A reply of another live process on
 * the same database is left alone. Real `bun src/main.ts` processes on one libSQL file.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createClient } from '@libsql/client'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm'
import { freePort } from '../support/ports'
import { readSse, sseEvents, type SseEvent } from '../support/sse'
import { until } from '../support/wait-for'

const root = resolve(import.meta.dir, '../..')
const dir = mkdtempSync(join(tmpdir(), 'kontor-crash-'))
const dbFile = join(dir, 'kontor.db')
const portA = freePort()
let portB = freePort()
while (portB === portA) portB = freePort()
const servers = new Map<number, ReturnType<typeof Bun.spawn>>()
let fake: FakeLlm
const db = createClient({ url: `file:${dbFile}` })

/** `bun src/main.ts` on `port`, on the shared database file; resolves once it is ready. */
async function startKontor(port: number) {
  const p = Bun.spawn([process.execPath, 'src/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      TMPDIR: dir,
      PORT: String(port),
      DATABASE_URL: `file:${dbFile}`,
      KONTOR_DATA_DIR: join(dir, 'data'),
      WEB_BUILD_DIR: join(dir, 'web'),
      KONTOR_SECRET: 'crash-recovery-secret-crash-recovery-0123',
      KONTOR_REGISTRATION: 'open',
      KONTOR_BASE_URL: `http://localhost:${port}`,
      OPENAI_API_KEY: 'sk-crash',
      OPENAI_BASE_URL: `${fake.url}/v1`,
      LOG_LEVEL: 'error',
    },
    stdout: 'ignore',
    stderr: 'inherit',
  })
  servers.set(port, p)
  await until(`the server on ${port} to be ready`, async () => (await fetch(`http://localhost:${port}/api/ready`)).ok)
}

/** The hard way down: no shutdown handler runs, nothing is written on the way out. */
async function killHard(port: number) {
  const p = servers.get(port)!
  p.kill('SIGKILL')
  await p.exited
  servers.delete(port)
}


beforeAll(async () => {
  fake = await startFakeLlm()
  const build = Bun.spawnSync([process.execPath, 'web/build.ts'], { cwd: root, env: { ...process.env, WEB_BUILD_DIR: join(dir, 'web') }, stdout: 'ignore', stderr: 'inherit' })
  expect(build.exitCode).toBe(0)
  await startKontor(portA) // migrates the file first
  await startKontor(portB)
}, 120_000)

afterAll(async () => {
  for (const p of servers.values()) p.kill()
  await Promise.all([...servers.values()].map((p) => p.exited))
  db.close()
  fake.close()
  rmSync(dir, { recursive: true, force: true })
})

/** An admin of a new organisation, signed in on the process at `port`, with one model and a chat. */
async function chatOn(port: number) {
  const base = `http://localhost:${port}`
  const email = `crash-${crypto.randomUUID().slice(0, 8)}@acme.test`
  const reg = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email, name: 'Crash', organizationName: 'Crash Org', password: 'Secret123', passwordConfirmation: 'Secret123', termsAccepted: true }),
  })
  expect(reg.status).toBe(201)
  const cookie = reg.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
  const call = (path: string, init: { method?: string; body?: unknown; on?: number; signal?: AbortSignal } = {}) => {
    const at = `http://localhost:${init.on ?? port}`
    return fetch(at + path, {
      method: init.method ?? 'GET',
      headers: { cookie, origin: at, ...(init.body !== undefined && { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
    })
  }
  await call('/api/models/providers/permitted', { method: 'POST', body: { providerId: 'openai', termsAccepted: true } })
  await call('/api/models/permitted', { method: 'POST', body: { modelId: 'openai/gpt-4.1' } })
  const thread = (await (await call('/api/threads', { method: 'POST', body: {} })).json()) as { id: string }
  const read = async (on = port) => (await (await call(`/api/threads/${thread.id}`, { on })).json()) as { messages: { id: string; status: string; content: string }[] }
  return { call, thread, read }
}

type Chat = Awaited<ReturnType<typeof chatOn>>

/** Sends a long, slow message; returns the reply's id once part of its text is stored. */
async function slowReply(chat: Chat) {
  const content = '[[fake:tokens=3000]] [[fake:delay=20]] a long story'
  const res = await chat.call(`/api/threads/${chat.thread.id}/messages`, { method: 'POST', body: { content } })
  expect(res.status).toBe(200)
  const events = sseEvents(res.body!)[Symbol.asyncIterator]()
  const start = (await events.next()).value as SseEvent
  expect(start.event).toBe('message_start')
  const id = start.data.assistantMessageId as string
  // Keep reading, as a browser would; the stream breaks when the server dies.
  void (async () => {
    try {
      while (!(await events.next()).done) {}
    } catch {}
  })()
  await until('part of the reply to be stored', async () => (await row(id))?.content)
  return { id }
}

async function row(id: string) {
  // Its text: the row's and, while it streams, the parts appended since (src/api/chat/reply-writer.ts;
  // once it ends its number is marked ended until those parts go, decision 0137).
  const { rows } = await db.execute({
    sql:
      "SELECT status, content || coalesce((SELECT group_concat(part, '') FROM (SELECT c.content AS part FROM streaming_replies s JOIN reply_chunks c ON c.reply_n = s.n WHERE s.message_id = m.id AND s.ended = 0 ORDER BY c.seq)), '') AS content, " +
      'lease_owner, lease_until, updated_at FROM messages m WHERE id = ?',
    args: [id],
  })
  return rows[0] as unknown as { status: string; content: string; lease_owner: string; lease_until: number; updated_at: number } | undefined
}

test('killed mid-reply and started again: the reply is interrupted at once, with its text, and the chat takes the next message', async () => {
  const chat = await chatOn(portB)
  const { id } = await slowReply(chat)
  await killHard(portB)
  const left = (await row(id))!
  expect(left.status).toBe('streaming')
  expect(left.content.length).toBeGreaterThan(0)

  await startKontor(portB)
  // No request has reached the new process: its start ended the reply.
  await until('the reply to be ended at start', async () => (await row(id))!.status === 'interrupted')
  const ended = (await row(id))!
  expect(ended.content).toBe(left.content)
  // Ended while its lease still held: not by waiting for it to run out.
  expect(ended.updated_at).toBeLessThan(ended.lease_until)

  const detail = await chat.read()
  expect(detail.messages.map((m) => m.status)).toEqual(['complete', 'interrupted'])
  expect(detail.messages[1]).toMatchObject({ id, content: left.content })
  const next = await chat.call(`/api/threads/${chat.thread.id}/messages`, { method: 'POST', body: { content: 'Go on' } })
  expect(next.status).toBe(200)
  expect((await readSse(next)).at(-1)).toEqual({ event: 'message_end', data: { status: 'complete' } })
  expect((await chat.read()).messages.map((m) => m.status)).toEqual(['complete', 'interrupted', 'complete', 'complete'])
}, 120_000)

test('a restart ends the replies of the process it replaces, not those of another live process on the database', async () => {
  const onA = await chatOn(portA)
  const onB = await chatOn(portB)
  const live = await slowReply(onA)
  const dead = await slowReply(onB)
  await killHard(portB)
  await startKontor(portB)
  await until("B's own earlier reply to be ended at start", async () => (await row(dead.id))!.status === 'interrupted')
  expect((await row(dead.id))!.updated_at).toBeLessThan((await row(dead.id))!.lease_until)
  // The start's sweep is one update: A's reply, still being written, came through it streaming.
  expect(await row(live.id)).toMatchObject({ status: 'streaming' })
  expect((await row(live.id))!.lease_owner).toContain(`:${portA}/`)

  // B, finding A's reply, leaves it alone: shown streaming, and the chat is still busy.
  expect((await onA.read(portB)).messages.map((m) => m.status)).toEqual(['complete', 'streaming'])
  const second = await onA.call(`/api/threads/${onA.thread.id}/messages`, { method: 'POST', body: { content: 'me too' }, on: portB })
  expect(second.status).toBe(409)
  expect(((await second.json()) as { code: string }).code).toBe('REPLY_IN_PROGRESS')
  expect((await row(live.id))!.status).toBe('streaming')

  // A is alive: Stop pressed in a tab that B serves reaches it there, and the reply is kept as stopped.
  expect((await onA.call(`/api/threads/${onA.thread.id}/messages/${live.id}/stop`, { method: 'POST', on: portB })).status).toBe(204)
  await until("A's reply to end", async () => (await row(live.id))!.status !== 'streaming')
  expect((await row(live.id))!.status).toBe('stopped')
}, 120_000)
