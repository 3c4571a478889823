/** What the benchmarks share: a real Kontor server in a child process, sign-up, percentiles, RESULTS.md. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const ROOT = resolve(import.meta.dir, '..')
/** The KONTOR_SECRET of the benchmark server (it signs the session cookies). */
export const BENCH_SECRET = 'bench-secret-bench-secret-bench-secret'

/**
 * Throws when something already answers on `port`: a server left over from an earlier run (one
 * that was killed before it could stop its children) would otherwise be measured in place of the
 * one this run starts, whose own start fails on the taken port.
 */
export async function ensurePortFree(port: number) {
  // A connection refused is a free port; any answer, or none in a second (a stopped process), is not.
  const taken = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) }).then(() => true, (error: Error) => error.name === 'TimeoutError')
  if (taken) {
    throw new Error(`port ${port} is in use, likely by a server left over from an earlier run: stop it, or choose other ports with BENCH_PORT`)
  }
}

/**
 * A bare relay (bench/relay-floor.ts `--relay`: a Bun server that calls the fake provider at
 * `fakePort` with `fetch` and hands each network chunk on, nothing else) in a process of its own
 * on `port`, once it answers: what any relay on Bun's fetch and streams adds on this machine. It
 * goes when this process does.
 */
export async function startBareRelay(port: number, fakePort: number) {
  await ensurePortFree(port)
  // As many model calls at once as Kontor makes (src/main.ts), not Bun's 256.
  const relay = Bun.spawn([process.execPath, 'bench/relay-floor.ts', '--relay', String(port), String(fakePort)], {
    cwd: ROOT, stdout: 'ignore', stderr: 'inherit', env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: '4096' },
  })
  process.on('exit', () => relay.kill())
  for (let i = 0; !(await fetch(`http://127.0.0.1:${port}/`).then(() => true, () => false)); i++) {
    if (i === 100 || relay.exitCode !== null || relay.signalCode !== null) {
      relay.kill()
      throw new Error('the bare relay did not answer within 5 s')
    }
    await Bun.sleep(50)
  }
  return relay
}

/** A copy of `xs` in a random order (Fisher–Yates): a bench's reads in a new order every round, so that each follows each of the others about as often. */
export function shuffled<T>(xs: readonly T[]): T[] {
  const copy = [...xs]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[copy[i], copy[j]] = [copy[j]!, copy[i]!]
  }
  return copy
}

/**
 * The fake model provider (tests/support/fake-llm-server.ts) in a process of its own on `port`,
 * once it answers. It goes when this process does, however it ends (an error, a signal's handler).
 */
export async function startFakeProvider(port: number) {
  await ensurePortFree(port)
  const fake = Bun.spawn([process.execPath, 'tests/support/fake-llm-server.ts', '--port', String(port)], { cwd: ROOT, stdout: 'ignore', stderr: 'inherit' })
  process.on('exit', () => fake.kill())
  for (let i = 0; i < 100; i++) {
    if (fake.exitCode !== null || fake.signalCode !== null) throw new Error(`the fake provider exited (${fake.exitCode ?? fake.signalCode})`)
    if (await fetch(`http://127.0.0.1:${port}/v1/models`).then(() => true, () => false)) return fake
    await Bun.sleep(50)
  }
  fake.kill()
  throw new Error('the fake provider did not answer within 5 s')
}

/**
 * Builds the web assets into a private dir and starts `src/main.ts` on a fresh database, or with
 * `bundle` the server bundle `npm start` runs (src/cli/bundle.ts, decision 0114).
 * `root` runs another checkout of Kontor (e.g. to compare against an earlier version).
 */
export async function startKontor(opts: { port: number; env?: Record<string, string>; stdout?: 'inherit' | 'ignore'; root?: string; bundle?: boolean }) {
  const root = opts.root ?? ROOT
  const buildDir = `/tmp/kontor-bench-build-${opts.port}`
  const dataDir = mkdtempSync(join(tmpdir(), 'kontor-bench-'))
  const base = `http://localhost:${opts.port}`
  const build = Bun.spawnSync([process.execPath, 'web/build.ts'], {
    cwd: root, env: { ...process.env, WEB_BUILD_DIR: buildDir }, stdout: 'pipe', stderr: 'pipe',
  })
  if (build.exitCode !== 0) throw new Error(`web/build.ts failed:\n${build.stderr}`)
  if (opts.bundle) {
    const bundled = Bun.spawnSync([process.execPath, 'src/cli/bundle.ts', '--if-changed'], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
    if (bundled.exitCode !== 0) throw new Error(`src/cli/bundle.ts failed:\n${bundled.stderr}`)
  }
  await ensurePortFree(opts.port)
  const databaseUrl = `file:${join(dataDir, 'kontor.db')}`
  // BENCH_SERVER_FLAGS passes runtime flags to the server, e.g. "--cpu-prof-md --cpu-prof-dir=/tmp/prof".
  const flags = process.env.BENCH_SERVER_FLAGS?.split(/\s+/).filter(Boolean) ?? []
  // BENCH_SERVER_ENV passes variables to the server only (not to the fake provider nor the reader), e.g. "BUN_JSC_heapGrowthMaxIncrease=1".
  const serverEnv = Object.fromEntries((process.env.BENCH_SERVER_ENV?.split(/\s+/).filter((pair) => pair.includes('=')) ?? []).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]))
  // Kontor sets its own limit of requests at once (src/main.ts), not the one a bench gave itself.
  const { BUN_CONFIG_MAX_HTTP_REQUESTS: _ownLimit, ...inherited } = process.env
  const server = Bun.spawn([process.execPath, ...flags, opts.bundle ? 'dist/server/main.js' : 'src/main.ts'], {
    cwd: root, stdout: opts.stdout ?? 'inherit', stderr: 'inherit',
    env: {
      ...inherited, PORT: String(opts.port), KONTOR_DATA_DIR: dataDir, DATABASE_URL: databaseUrl,
      KONTOR_SECRET: BENCH_SECRET, KONTOR_REGISTRATION: 'open', LOG_LEVEL: 'warn', WEB_BUILD_DIR: buildDir, NODE_ENV: 'production',
      ...opts.env, ...serverEnv,
    },
  })
  /** Stops the server and waits for it, so its database is closed before the directory goes. */
  const stop = async () => {
    server.kill()
    if ((await Promise.race([server.exited, Bun.sleep(3000)])) === undefined) server.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop().then(() => process.exit(130)))
  for (let i = 0; i < 150; i++) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`)
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) return { base, stop, databaseUrl, pid: server.pid }
    await Bun.sleep(100)
  }
  await stop()
  throw new Error('server did not answer /api/health within 15 s')
}

/** Registers an organisation; without SMTP the user is verified at once, so the cookie signs in. */
export async function register(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({
      email: `bench-${crypto.randomUUID().slice(0, 8)}@acme.test`, name: 'Bench', organizationName: 'Bench Org',
      password: 'Secret123', passwordConfirmation: 'Secret123', termsAccepted: true, locale: 'en',
    }),
  })
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`)
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
}

/** One streamed reply as a reader saw it: time to the first and the last token (ms from `start`), tokens and bytes received. */
export type ReplySample = { ttft: number; last: number; tokens: number; bytes: number }

/** Reads a streamed body, timing the first and last content and counting tokens (as `tokensIn` counts a frame's) and bytes. */
export async function readReply(res: Response, tokensIn: (frame: string) => number, start: number): Promise<ReplySample> {
  if (!res.ok) throw new Error(`status ${res.status}: ${await res.text()}`)
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let ttft = 0
  let last = 0
  let tokens = 0
  let bytes = 0
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    bytes += chunk.value.byteLength
    buffer += decoder.decode(chunk.value, { stream: true })
    let end: number
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const frame = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const n = tokensIn(frame)
      if (n > 0) {
        tokens += n
        last = performance.now() - start
        ttft ||= last
      }
    }
  }
  return { ttft, last, tokens, bytes }
}

/** The tokens of a provider's own frame (OpenAI's chunks, one token each): like any client that uses the text, the reader parses it. */
export const providerTokens = (f: string) => {
  if (!f.startsWith('data: {')) return 0
  const delta = (JSON.parse(f.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content
  return delta ? 1 : 0
}

export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1]!

export const machine = () =>
  `${availableParallelism()} cores (nproc ${Bun.spawnSync(['nproc']).stdout.toString().trim()}), bun ${Bun.version}, ${process.platform}/${process.arch}`

/** Replaces one script's section of RESULTS.md, leaving the other scripts' sections alone. */
export function writeSection(title: string, body: string) {
  const file = join(ROOT, 'bench/RESULTS.md')
  const header = '# Benchmark results\n\nEvery result here is a ratio against a baseline measured in the same run on the same machine: ' +
    'bare times vary too much between machines and runs to compare. Absolute times are shown only to make the ratios readable. ' +
    'Re-run the script named in a section to update it.\n'
  const text = existsSync(file) ? readFileSync(file, 'utf8') : header
  const section = `${title}\n\n${body.trim()}\n`
  const at = text.indexOf(title)
  const end = at < 0 ? -1 : text.indexOf('\n## ', at + title.length)
  writeFileSync(file, at < 0 ? `${text.trimEnd()}\n\n${section}` : text.slice(0, at) + section + (end < 0 ? '' : text.slice(end)))
}

/**
 * A new organisation's admin with OpenAI's GPT-4.1 permitted (the chat pages need a usable
 * model), and a JSON POST as that admin.
 */
export async function signedInWithModel(base: string) {
  const cookie = await register(base)
  const headers = { cookie, origin: base, 'content-type': 'application/json' }
  const post = async (path: string, body: unknown) => {
    const r = await fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) })
    if (r.status >= 300) throw new Error(`${path}: ${r.status} ${await r.text()}`)
    return (await r.json()) as { id: string }
  }
  await post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
  await post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
  return { cookie, post }
}

/** The CPU time of the whole machine so far (/proc/stat's first line): all of it and the idle part, in ticks; null without /proc. */
async function cpuTicks(): Promise<{ total: number; idle: number } | null> {
  const line = (await Bun.file('/proc/stat').text().catch(() => '')).split('\n')[0] ?? ''
  if (!line.startsWith('cpu ')) return null
  // user nice system idle iowait irq softirq steal (guest time is counted in user already)
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number)
  if (ticks.length < 5 || !ticks.every(Number.isFinite)) return null
  return { total: ticks.reduce((s, n) => s + n, 0), idle: ticks[3]! + ticks[4]! }
}

/**
 * A process's main thread so far (its event loop: JavaScript, a server's writes, SQL on a database
 * file): its time on a core and its time ready to run while it waited for one, in seconds (the
 * scheduler's statistics, /proc/<pid>/task/<pid>/schedstat); null where the kernel does not keep
 * them (decision 0136).
 */
export function mainThread(pid: number): { cpu: number; waited: number } | null {
  try {
    const [onCore, waiting] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number)
    return Number.isFinite(onCore) && Number.isFinite(waiting) ? { cpu: onCore! / 1e9, waited: waiting! / 1e9 } : null
  } catch {
    return null
  }
}

/** How idle the machine was in the second before a bench measured (quietMachine). */
export type Quiet = { idle: number; waitedMs: number; wanted: number; gaveUp: boolean }

/**
 * Waits until the machine is quiet: its CPUs at least `idle` (a share; time waiting for the disk
 * counts as idle) idle over one second, for at most `maxMs` (then it measures all the same, and
 * says so). The load average lags by minutes, so a bench started right after another (or after
 * its own setup, whose replies are put in the search index a second after they end) would measure
 * that work's tail. Null where /proc/stat cannot be read (the bench then measures at once).
 */
export async function quietMachine(opts: { idle?: number; maxMs?: number } = {}): Promise<Quiet | null> {
  const wanted = opts.idle ?? 0.9
  const started = performance.now()
  let before = await cpuTicks()
  if (!before) return null
  for (;;) {
    await Bun.sleep(1000)
    const now = await cpuTicks()
    if (!now) return null
    const idle = (now.idle - before.idle) / Math.max(1, now.total - before.total)
    const waitedMs = performance.now() - started
    if (idle >= wanted) return { idle, waitedMs, wanted, gaveUp: false }
    if (waitedMs >= (opts.maxMs ?? 120_000)) return { idle, waitedMs, wanted, gaveUp: true }
    before = now
  }
}

const percent = (share: number) => `${Math.round(share * 100)}%`

/** How a bench found the machine before it measured (quietMachine), for its section of RESULTS.md. */
export function quietText(quiet: Array<Quiet | null>) {
  const known = quiet.filter((q): q is Quiet => q !== null)
  if (known.length === 0) return 'the machine’s idle share unknown (no /proc/stat)'
  const each = quiet.map((q) =>
    !q ? 'of unknown idle share' : `${percent(q.idle)} idle${q.gaveUp ? ` (still less after ${(q.waitedMs / 1000).toFixed(0)} s: measured all the same)` : q.waitedMs > 1500 ? ` (after ${(q.waitedMs / 1000).toFixed(0)} s)` : ''}`,
  )
  return `the machine ${each.join(' and ')} in the second before measuring (the bench waits for ${percent(known[0]!.wanted)})`
}
