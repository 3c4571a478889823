/**
 * The server the Playwright suite runs against: Kontor on a fresh database with mail going to a
 * real SMTP sink, whose received mails are readable over HTTP (GET /mails?to=...) by the tests.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseConfig } from '../../src/lib/config'
import { startServer } from '../../src/server'
import { startSmtpSink } from './smtp-sink'

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210)
export const MAILBOX_PORT = E2E_PORT + 1

const sink = await startSmtpSink()
const dir = mkdtempSync(join(tmpdir(), 'kontor-e2e-'))
const config = parseConfig({
  NODE_ENV: 'test',
  PORT: String(E2E_PORT),
  LOG_LEVEL: 'warn',
  KONTOR_SECRET: 'e2e-secret-e2e-secret-e2e-secret-012345',
  KONTOR_BASE_URL: `http://localhost:${E2E_PORT}`,
  DATABASE_URL: `file:${join(dir, 'kontor.db')}`,
  KONTOR_DATA_DIR: dir,
  SMTP_URL: sink.url,
})
await startServer(config)

Bun.serve({
  port: MAILBOX_PORT,
  hostname: '127.0.0.1',
  fetch(request) {
    const to = new URL(request.url).searchParams.get('to')?.toLowerCase()
    return Response.json(sink.mails.filter((m) => !to || m.to.includes(to)))
  },
})
