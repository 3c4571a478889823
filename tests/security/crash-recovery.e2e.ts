/**
 * The server dies (SIGKILL) while a reply streams into the page: the page says the reply was
 * interrupted and offers Retry; started again, the server shows the same after a reload, and
 * Retry brings a whole new reply. A Kontor process of its own (`bun src/main.ts` on a fresh
 * database file), since the suite's server must live on; its model is the suite's fake provider.
 */
import { expect, test } from '../e2e/support/test'
import type { Page } from '@playwright/test'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chatPage, words } from '../e2e/support/chat'
import { PASSWORD, uniqueEmail, waitForHydration } from '../e2e/support/session'

const root = fileURLToPath(new URL('../..', import.meta.url))
const bun = process.env.BUN_BIN ?? join(root, 'node_modules/.bin/bun')
const FAKE_LLM = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 2}`

/** A TCP port on 127.0.0.1 that was free a moment ago. */
function freePort() {
  return new Promise<number>((done, failed) => {
    const probe = createServer()
    probe.once('error', failed)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => done(port))
    })
  })
}

/** Kontor on `port` and the database file in `dir`; resolves once it is ready. */
async function startKontor(port: number, dir: string) {
  const server = spawn(bun, ['src/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      TMPDIR: dir,
      PORT: String(port),
      DATABASE_URL: `file:${join(dir, 'kontor.db')}`,
      KONTOR_DATA_DIR: dir,
      KONTOR_SECRET: 'crash-e2e-secret-crash-e2e-secret-0123',
      KONTOR_REGISTRATION: 'open',
      KONTOR_BASE_URL: `http://localhost:${port}`,
      OPENAI_API_KEY: 'sk-e2e',
      OPENAI_BASE_URL: `${FAKE_LLM}/v1`,
      LOG_LEVEL: 'error',
      // The build the rest of the suite serves, when it is not in public/build.
      ...(process.env.WEB_BUILD_DIR ? { WEB_BUILD_DIR: process.env.WEB_BUILD_DIR } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  await expect
    .poll(() => fetch(`http://localhost:${port}/api/ready`).then((r) => r.status, () => 0), { timeout: 30_000, message: 'Kontor to be ready' })
    .toBe(200)
  return server
}

/** The hard way down: no shutdown handler runs, nothing is written on the way out. */
function killHard(server: ChildProcess) {
  return new Promise<void>((done) => {
    server.once('exit', () => done())
    server.kill('SIGKILL')
  })
}

/** A new organisation whose admin is signed in in the page's browser context, with one model enabled. */
async function signUp(page: Page, base: string) {
  const registered = await page.request.post(`${base}/api/auth/register`, {
    data: { email: uniqueEmail(), name: 'Ada Lovelace', organizationName: 'Acme Analytics', password: PASSWORD, passwordConfirmation: PASSWORD, termsAccepted: true, locale: 'en' },
  })
  expect(registered.status(), await registered.text()).toBe(201)
  expect((await page.request.post(`${base}/api/models/providers/permitted`, { data: { providerId: 'openai', termsAccepted: true } })).status()).toBeLessThan(300)
  expect((await page.request.post(`${base}/api/models/permitted`, { data: { modelId: 'openai/gpt-4.1' } })).status()).toBeLessThan(300)
}

test.describe('a server that dies mid-reply', () => {
  // Starts its own server twice and waits for a whole reply.
  test.describe.configure({ timeout: 180_000 })
  let dir: string
  let port: number
  let server: ChildProcess | undefined

  test.beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kontor-crash-e2e-'))
    port = await freePort()
    server = await startKontor(port, dir)
  })

  test.afterEach(async () => {
    if (server && server.exitCode === null && server.signalCode === null) await killHard(server)
    rmSync(dir, { recursive: true, force: true })
  })

  test('the reply is shown interrupted with Retry, live and after a restart and reload; Retry brings a new reply', async ({ page }) => {
    const base = `http://localhost:${port}`
    await signUp(page, base)
    await page.goto(`${base}/chat`)
    await waitForHydration(page)
    const chat = chatPage(page)
    const message = `[[fake:delay=80]] ${words(60)}`
    await chat.write(message)
    const id = await chat.threadId()
    await expect(chat.lastReply).toContainText('word3')
    // Part of the reply is stored before the server goes (the stored text follows the page's by up to a write interval).
    await expect
      .poll(async () => ((await (await page.request.get(`${base}/api/threads/${id}`)).json()) as { messages: { content: string }[] }).messages[1]?.content ?? '')
      .toContain('word3')
    await killHard(server!)

    // Live: the stream broke off without an end.
    const notice = chat.lastReply.getByText('The reply was interrupted')
    const retry = chat.lastReply.getByRole('button', { name: 'Retry' })
    await expect(chat.lastReply).toHaveAttribute('data-status', 'interrupted')
    await expect(notice).toBeVisible()
    await expect(retry).toBeVisible()
    await expect(chat.lastReply.getByTestId('assistant-content')).toContainText('word3')

    // Started again on the same database: the stored reply is interrupted too, with its text.
    server = await startKontor(port, dir)
    await page.reload()
    await waitForHydration(page)
    await expect(chat.lastReply).toHaveAttribute('data-status', 'interrupted')
    await expect(notice).toBeVisible()
    await expect(chat.lastReply.getByTestId('assistant-content')).toContainText('word3')
    await expect(chat.composer).toBeEditable()

    await retry.click()
    await expect(chat.lastReply).toHaveAttribute('data-status', 'complete', { timeout: 20_000 })
    await expect(chat.lastReply.getByTestId('assistant-content')).toHaveText(`You said: ${words(60)}`)
    await expect(page.getByText('The reply was interrupted')).toHaveCount(0)
    const thread = (await (await page.request.get(`${base}/api/threads/${id}`)).json()) as { messages: { role: string; status: string }[] }
    expect(thread.messages.map((m) => `${m.role}:${m.status}`)).toEqual(['user:complete', 'assistant:complete'])
  })
})
