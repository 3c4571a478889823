import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dir, '../..')
const folder = mkdtempSync(join(tmpdir(), 'kontor-binary-'))
let server: ReturnType<typeof Bun.spawn> | undefined
afterAll(async () => {
  server?.kill()
  await server?.exited
  rmSync(folder, { recursive: true, force: true })
})

test('the single binary starts from an empty folder, creates its database and lets a user sign up', async () => {
  const build = Bun.spawnSync([process.execPath, 'src/cli/compile.ts'], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
  expect(build.exitCode).toBe(0)
  const port = 5600 + Math.floor(Math.random() * 300)
  const base = `http://localhost:${port}`
  // Only what a user would pass: a port. No source tree, no node_modules next to it.
  server = Bun.spawn([join(root, 'dist/kontor')], { cwd: folder, env: { PATH: process.env.PATH ?? '', PORT: String(port), LOG_LEVEL: 'warn' }, stdout: 'pipe', stderr: 'pipe' })
  let healthy = false
  for (let i = 0; i < 600 && !healthy; i++) {
    healthy = await fetch(`${base}/api/ready`).then((r) => r.ok, () => false)
    if (!healthy) await Bun.sleep(100)
  }
  expect(healthy).toBe(true)
  const page = await fetch(`${base}/register`, { headers: { 'user-agent': 'Mozilla/5.0 Chrome/130' } })
  expect(page.status).toBe(200)
  const html = await page.text()
  const script = html.match(/src="(\/build\/[^"]+\.js)"/)?.[1]
  expect(script).toBeDefined()
  expect((await fetch(base + script)).status).toBe(200)
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: 'first@acme.test', name: 'First', organizationName: 'Binary Org', password: 'Secret123', passwordConfirmation: 'Secret123', termsAccepted: true }),
  })
  expect(res.status).toBe(201)
  expect(await Bun.file(join(folder, 'data/kontor.db')).exists()).toBe(true)
}, 120_000)
