/**
 * A second server for the Playwright suite: Kontor in cloud mode (organisations, seats,
 * subscriptions, a trial of KONTOR_TRIAL_MESSAGES chat messages) on a fresh database. No SMTP:
 * users are verified when they register and the invite dialog shows the accept link. The OpenAI
 * provider points at a fake provider in this process (any free port).
 *
 * Port E2E_PORT + 3: + 1 and + 2 are the self-hosted server's side door and fake provider
 * (tests/support/e2e-server.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseConfig } from '../../src/lib/config'
import { startServer } from '../../src/server'
import { startFakeLlm } from './fake-llm'

export const E2E_CLOUD_PORT = Number(process.env.E2E_PORT ?? 3210) + 3

const fake = await startFakeLlm()
const dir = mkdtempSync(join(tmpdir(), 'kontor-e2e-cloud-'))
// Playwright stops this server with SIGTERM (tests/playwright.config.ts): its database and files go with it.
process.on('SIGTERM', () => {
  rmSync(dir, { recursive: true, force: true })
  process.exit(0)
})
const config = parseConfig({
  NODE_ENV: 'test',
  PORT: String(E2E_CLOUD_PORT),
  LOG_LEVEL: 'warn',
  KONTOR_SECRET: 'e2e-cloud-secret-e2e-cloud-secret-0123',
  // Every test registers an organisation of its own on this one instance.
  KONTOR_REGISTRATION: 'open',
  KONTOR_BASE_URL: `http://localhost:${E2E_CLOUD_PORT}`,
  DATABASE_URL: `file:${join(dir, 'kontor.db')}`,
  KONTOR_DATA_DIR: dir,
  KONTOR_CLOUD: 'true',
  KONTOR_TRIAL_MESSAGES: '2',
  KONTOR_PRICE_PER_SEAT_MONTHLY: '1500',
  KONTOR_CURRENCY: 'EUR',
  OPENAI_API_KEY: 'sk-e2e-cloud',
  OPENAI_BASE_URL: `${fake.url}/v1`,
})
await startServer(config)
