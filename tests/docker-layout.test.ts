/**
 * Docker cannot run on every machine the tests run on, so the Dockerfile is checked by reading it
 * and by rebuilding its runtime stage by hand: only the paths it copies, a production install
 * from the same lockfile, its environment, its command as its user would run it, and its health
 * check command.
 */
import { afterAll, expect, test } from 'bun:test'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { freePort } from './support/ports'

const root = resolve(import.meta.dir, '..')
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, '')
const ignored = readFileSync(join(root, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter(Boolean)
const dir = mkdtempSync(join(tmpdir(), 'kontor-docker-'))
let server: ReturnType<typeof Bun.spawn> | undefined
afterAll(async () => {
  server?.kill()
  await server?.exited
  rmSync(dir, { recursive: true, force: true })
})


/** The Dockerfile's stages: instruction lines (comments dropped) after each FROM. */
const stages = dockerfile
  .split('\n')
  .filter((l) => l.trim() && !l.trim().startsWith('#'))
  .reduce<{ from: string; lines: string[] }[]>((all, line) => {
    if (/^FROM /.test(line)) all.push({ from: line, lines: [] })
    else all.at(-1)!.lines.push(line)
    return all
  }, [])
const runtime = stages.at(-1)!
const instruction = (name: string) => runtime.lines.filter((l) => l.startsWith(`${name} `)).map((l) => l.slice(name.length + 1).trim())
const copies = instruction('COPY').map((args) => {
  const parts = args.split(/\s+/).filter((p) => !p.startsWith('--'))
  return { sources: parts.slice(0, -1).map((p) => p.replace(/^\/app\/?/, '')), to: parts.at(-1)! }
})
const env = Object.fromEntries(instruction('ENV').flatMap((args) => [...args.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!])))

test('multi-stage, a slim runtime that runs as a non-root user with a data volume and a health check', () => {
  expect(stages.length).toBeGreaterThanOrEqual(2)
  expect(runtime.from).toMatch(/^FROM oven\/bun:[\d.]+-slim AS runtime$/)
  // The runtime's bun is the version the lockfile and tests use.
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies.bun
  for (const stage of stages) expect(stage.from).toContain(`oven/bun:${version}`)
  expect(instruction('USER')).toEqual(['bun'])
  expect(instruction('VOLUME')).toEqual(['/data'])
  expect(env).toMatchObject({ NODE_ENV: 'production', KONTOR_DATA_DIR: '/data' })
  expect(instruction('HEALTHCHECK')[0]).toContain('/api/health')
  expect(instruction('CMD')).toEqual(['["bun", "dist/server/main.js"]'])
  // Everything in the runtime comes from the build stage, and every copied path exists there:
  // in the build context (not excluded by .dockerignore) or made by the build stage itself.
  expect(copies.length).toBeGreaterThan(0)
  for (const { sources } of copies) {
    for (const source of sources) {
      if (source === 'node_modules' || source === 'dist/server') continue // made by the build stage
      expect([source, existsSync(join(root, source))]).toEqual([source, true])
      expect([source, ignored.includes(source)]).toEqual([source, false])
    }
  }
  expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'data', 'dist', '.git']))
})

test('its runtime stage, rebuilt by hand, starts, passes its health check, serves pages and signs up', async () => {
  const app = join(dir, 'app')
  mkdirSync(app)
  for (const { sources, to } of copies) {
    for (const source of sources) {
      if (source === 'node_modules' || source === 'dist/server') continue
      const target = to.endsWith('/') || sources.length > 1 ? join(app, to, source.split('/').at(-1)!) : join(app, to)
      cpSync(join(root, source), target, { recursive: true, filter: (f) => !f.includes('/public/build') })
    }
  }
  // The build stage: the web build, then a production install from the lockfile.
  const build = Bun.spawnSync([process.execPath, 'web/build.ts'], { cwd: root, env: { ...process.env, WEB_BUILD_DIR: join(app, 'public/build') }, stdout: 'ignore', stderr: 'inherit' })
  expect(build.exitCode).toBe(0)
  // The server bundle (src/cli/bundle.ts), as the build stage makes it.
  // Built beside the one `npm start` runs, then put where the image has it.
  const bundled = join(root, 'dist', `server-docker-${crypto.randomUUID().slice(0, 8)}`)
  const bundle = Bun.spawnSync([process.execPath, 'src/cli/bundle.ts', '--outdir', bundled], { cwd: root, stdout: 'ignore', stderr: 'inherit' })
  expect(bundle.exitCode).toBe(0)
  cpSync(bundled, join(app, 'dist/server'), { recursive: true })
  rmSync(bundled, { recursive: true, force: true })
  // The build stage installs with the lockfile and the patches of dependencies (package.json: patchedDependencies).
  cpSync(join(root, 'bun.lock'), join(app, 'bun.lock'))
  cpSync(join(root, 'patches'), join(app, 'patches'), { recursive: true })
  const install = Bun.spawnSync([process.execPath, 'install', '--frozen-lockfile', '--production'], { cwd: app, stdout: 'ignore', stderr: 'pipe' })
  expect([install.exitCode, install.stderr.toString().slice(-400)]).toEqual([0, expect.any(String)])
  rmSync(join(app, 'bun.lock'))
  rmSync(join(app, 'patches'), { recursive: true })

  const port = freePort()
  const base = `http://localhost:${port}`
  const data = join(dir, 'data')
  const runEnv = { ...env, PATH: process.env.PATH ?? '', PORT: String(port), KONTOR_DATA_DIR: data, DATABASE_URL: `file:${data}/kontor.db`, KONTOR_SECRET: 'docker-secret-docker-secret-docker-0123', KONTOR_BASE_URL: base }
  // The image's bun is the `bun` binary on its PATH.
  server = Bun.spawn([process.execPath, 'dist/server/main.js'], { cwd: app, env: runEnv, stdout: 'ignore', stderr: 'inherit' })
  const healthcheck = () => {
    const command = instruction('HEALTHCHECK')[0]!.replace(/^.*?CMD\s+/, '').replace(/^bun\s/, `${process.execPath} `)
    return Bun.spawnSync(['sh', '-c', command], { env: runEnv }).exitCode
  }
  let healthy = false
  for (let i = 0; i < 300 && !healthy; i++) {
    healthy = healthcheck() === 0
    if (!healthy) await Bun.sleep(100)
  }
  expect(healthy).toBe(true)
  expect((await fetch(`${base}/api/ready`)).status).toBe(200)
  // The bundle's entry gives the process its runtime settings first (src/runtime-settings.ts): the same process now has them.
  const environ = readFileSync(`/proc/${server.pid}/environ`, 'utf8').split('\0')
  expect(environ).toEqual(expect.arrayContaining(['BUN_CONFIG_MAX_HTTP_REQUESTS=4096', 'BUN_JSC_heapGrowthMaxIncrease=0.5', 'BUN_JSC_smallHeapGrowthFactor=1.5', 'BUN_JSC_maximumMutatorUtilization=0.9']))
  const page = await fetch(`${base}/login`, { headers: { 'user-agent': 'Mozilla/5.0 Chrome/130', 'accept-language': 'en' } })
  expect(page.status).toBe(200)
  const html = await page.text()
  expect(html).toContain('Sign in to Kontor')
  expect((await fetch(base + html.match(/href="(\/build\/[^"]+\.css)"/)![1]!)).status).toBe(200)
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: 'docker@acme.test', name: 'Docker', organizationName: 'Docker Org', password: 'Secret123', passwordConfirmation: 'Secret123', termsAccepted: true }),
  })
  expect(res.status).toBe(201)
  // The image's NODE_ENV=production reaches Kontor's own settings: no mail page.
  expect(((await (await fetch(`${base}/api`)).json()) as any).mailPage).toBe(false)
  expect(existsSync(join(data, 'kontor.db'))).toBe(true)

  server.kill('SIGTERM')
  expect(await server.exited).toBe(0)
  expect(healthcheck()).toBe(1)
}, 180_000)
