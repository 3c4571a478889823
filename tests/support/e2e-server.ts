/**
 * The server the Playwright suite runs against: Kontor on a fresh database with mail going to a
 * real SMTP sink, every model provider pointed at one fake provider in this process and web
 * search (internet_search) answered by a fake SearXNG in this process. A small
 * HTTP side door lets the tests read what those received:
 *   GET /mails?to=...    mails the SMTP sink received (any other GET path answers the same)
 *   GET /llm-requests    requests the fake provider received, oldest first
 *   POST /llm-script     queue replies of the fake provider (body: an array of FakeReply)
 *   POST /llm-release    let the fake provider's held streams (`[[fake:hold]]`) go on
 *   POST /seed-messages  append `count` messages to a chat straight in the database (body:
 *                        { threadId, count }), for tests of long chats that sending could not build
 *   POST /search-release answer the web searches held by the fake SearXNG (queries with `[held]`);
 *                        returns { released: n }
 *   POST /search-results the fake SearXNG's results for one query (body: { query, results })
 *   POST /pages          a document the fake search server serves at /pages/<name> (body: { name, body, type? },
 *                        type defaulting to HTML); returns { url }
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { messages } from '../../db/schema'
import { parseConfig } from '../../src/lib/config'
import { startServer } from '../../src/server'
import { startFakeLlm, type FakeReply } from './fake-llm'
import { startFakeSearch, type SearxngResult } from './fake-search'
import { startSmtpSink } from './smtp-sink'

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210)
export const MAILBOX_PORT = E2E_PORT + 1
/** Fixed, so that tests can point an organisation's own endpoint at it. */
export const FAKE_LLM_PORT = E2E_PORT + 2

const sink = await startSmtpSink()
const fake = await startFakeLlm({ port: FAKE_LLM_PORT })
const search = startFakeSearch()
const dir = mkdtempSync(join(tmpdir(), 'kontor-e2e-'))
// Playwright stops this server with SIGTERM (tests/playwright.config.ts): its database and files go with it.
process.on('SIGTERM', () => {
  rmSync(dir, { recursive: true, force: true })
  process.exit(0)
})
const config = parseConfig({
  NODE_ENV: 'test',
  PORT: String(E2E_PORT),
  LOG_LEVEL: 'warn',
  KONTOR_SECRET: 'e2e-secret-e2e-secret-e2e-secret-012345',
  // Every test registers an organisation of its own on this one instance.
  KONTOR_REGISTRATION: 'open',
  KONTOR_BASE_URL: `http://localhost:${E2E_PORT}`,
  DATABASE_URL: `file:${join(dir, 'kontor.db')}`,
  KONTOR_DATA_DIR: dir,
  SMTP_URL: sink.url,
  OPENAI_API_KEY: 'sk-e2e',
  OPENAI_BASE_URL: `${fake.url}/v1`,
  MISTRAL_API_KEY: 'mistral-e2e',
  MISTRAL_BASE_URL: fake.url,
  OLLAMA_BASE_URL: `${fake.url}/v1`,
  OLLAMA_API_KEY: 'ollama-e2e',
  SEARXNG_URL: search.url,
  // The fake provider on 127.0.0.1 also serves as an organisation's own endpoint (an internal vLLM the operator allows).
  KONTOR_FETCH_ALLOWED_HOSTS: '127.0.0.1',
})
const kontor = await startServer(config)

/** Alternating user and assistant messages "Message 1", "Reply 1 …", numbered across the chat. */
async function seedMessages(threadId: string, count: number) {
  const [row] = await kontor.deps.db
    .select({ id: messages.id, seq: messages.seq })
    .from(messages)
    .where(sql`${messages.threadId} = ${threadId}`)
    .orderBy(sql`${messages.seq} DESC`)
    .limit(1)
  const start = Number(row?.seq ?? 0)
  const at = Date.now() - count * 1000
  // Each message follows the one before it (its parent), as sent messages do: one branch, no versions.
  const ids = Array.from({ length: count }, () => crypto.randomUUID())
  const rows = Array.from({ length: count }, (_, i) => {
    const n = start + i + 1
    const user = n % 2 === 1
    return {
      id: ids[i]!,
      parentId: i === 0 ? (row?.id ?? null) : ids[i - 1]!,
      threadId,
      seq: n,
      role: user ? ('user' as const) : ('assistant' as const),
      content: user ? `Message ${n}` : `Reply ${n}: ${'Some **markdown** text that wraps over a line or two. '.repeat((n % 5) + 1)}`,
      status: 'complete' as const,
      createdAt: new Date(at + i * 1000),
      updatedAt: new Date(at + i * 1000),
    }
  })
  for (let i = 0; i < rows.length; i += 200) await kontor.deps.db.insert(messages).values(rows.slice(i, i + 200))
  return rows.length
}

Bun.serve({
  port: MAILBOX_PORT,
  hostname: '127.0.0.1',
  async fetch(request) {
    const url = new URL(request.url)
    if (url.pathname === '/llm-requests') return Response.json(fake.requests)
    if (url.pathname === '/llm-script' && request.method === 'POST') {
      const replies = (await request.json()) as FakeReply[]
      fake.script(...replies)
      return Response.json({ queued: replies.length })
    }
    if (url.pathname === '/llm-release' && request.method === 'POST') {
      fake.release()
      return Response.json({ released: true })
    }
    if (url.pathname === '/search-release' && request.method === 'POST') return Response.json({ released: search.release() })
    if (url.pathname === '/search-results' && request.method === 'POST') {
      const { query, results } = (await request.json()) as { query: string; results: SearxngResult[] }
      search.give(query, results)
      return Response.json({ given: results.length })
    }
    if (url.pathname === '/pages' && request.method === 'POST') {
      const { name, body, type } = (await request.json()) as { name: string; body: string; type?: string }
      return Response.json({ url: search.putPage(name, body, type) })
    }
    if (url.pathname === '/seed-messages' && request.method === 'POST') {
      const { threadId, count } = (await request.json()) as { threadId: string; count: number }
      return Response.json({ inserted: await seedMessages(threadId, count) })
    }
    const to = url.searchParams.get('to')?.toLowerCase()
    return Response.json(sink.mails.filter((m) => !to || m.to.includes(to)))
  },
})
