/**
 * Page speed of a real Kontor server: time to first and last byte of the streamed SSR pages
 * against a static file served by the same process in the same run, plus the gzip size of the
 * JavaScript and CSS the first page loads. Run: node_modules/.bin/bun bench/pages.ts
 * Writes the "## Pages (bench/pages.ts)" section of bench/RESULTS.md.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..')
const BUILD_DIR = '/tmp/kontor-bench-build'
const PORT = Number(process.env.BENCH_PORT ?? 3510)
const BASE = `http://localhost:${PORT}`
const WARMUP = 30
const SAMPLES = 200
// A bot User-Agent (curl, fetch's default) makes the SSR handler wait for the whole page
// before sending anything, which would hide exactly what streaming is for.
const BROWSER = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
  'accept-language': 'en',
}

const dataDir = mkdtempSync(join(tmpdir(), 'kontor-bench-'))
let server: ReturnType<typeof Bun.spawn> | undefined
const stop = () => {
  server?.kill()
  rmSync(dataDir, { recursive: true, force: true })
}
process.on('SIGINT', () => (stop(), process.exit(130)))

function run(cmd: string[], env: Record<string, string>) {
  const r = Bun.spawnSync(cmd, { cwd: ROOT, env: { ...process.env, ...env }, stderr: 'pipe', stdout: 'pipe' })
  if (r.exitCode !== 0) throw new Error(`${cmd.join(' ')} failed:\n${r.stderr}`)
}

async function startServer() {
  run([process.execPath, 'web/build.ts'], { WEB_BUILD_DIR: BUILD_DIR })
  server = Bun.spawn([process.execPath, 'src/main.ts'], {
    cwd: ROOT,
    stdout: 'inherit',
    stderr: 'inherit',
    env: {
      ...process.env,
      PORT: String(PORT),
      KONTOR_DATA_DIR: dataDir,
      DATABASE_URL: `file:${join(dataDir, 'kontor.db')}`,
      KONTOR_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
      LOG_LEVEL: 'warn',
      WEB_BUILD_DIR: BUILD_DIR,
      NODE_ENV: 'production',
    },
  })
  for (let i = 0; i < 150; i++) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`)
    const ok = await fetch(`${BASE}/api/health`).then((r) => r.ok, () => false)
    if (ok) return
    await Bun.sleep(100)
  }
  throw new Error('server did not answer /api/health within 15 s')
}

/** Registers an organisation; without SMTP the user is verified at once, so the cookie signs in. */
async function register(): Promise<string> {
  const res = await fetch(`${BASE}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: BASE },
    body: JSON.stringify({
      email: `bench-${crypto.randomUUID().slice(0, 8)}@acme.test`, name: 'Bench', organizationName: 'Bench Org',
      password: 'Secret123', passwordConfirmation: 'Secret123', termsAccepted: true, locale: 'en',
    }),
  })
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`)
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
}

type Target = { name: string; path: string; cookie?: string; ttfb: number[]; ttlb: number[]; bytes: number }

/** TTFB = until the first body chunk is read (not just headers: a stream may send headers early). */
async function measure(t: Target, record: boolean) {
  const start = performance.now()
  const res = await fetch(BASE + t.path, { headers: { ...BROWSER, ...(t.cookie ? { cookie: t.cookie } : {}) }, redirect: 'manual' })
  // A redirect (e.g. /chat → /login when the cookie is wrong) would measure the wrong page.
  if (res.status !== 200) throw new Error(`${t.path}: status ${res.status}`)
  const reader = res.body!.getReader()
  let chunk = await reader.read()
  const first = performance.now()
  let bytes = 0
  while (!chunk.done) {
    bytes += chunk.value.byteLength
    chunk = await reader.read()
  }
  if (!record) return
  t.ttfb.push(first - start)
  t.ttlb.push(performance.now() - start)
  t.bytes = bytes
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1]!
const ms = (x: number) => x.toFixed(2)
const ratio = (x: number, base: number) => `${(x / base).toFixed(1)}×`
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

/** Raw and gzip -9 size of every /build/ script and stylesheet the page references. */
async function assetSizes(html: string) {
  const urls = [
    ...[...html.matchAll(/<script\b[^>]*\bsrc="(\/build\/[^"]+)"/g)].map((m) => m[1]!),
    ...[...html.matchAll(/<link\b[^>]*>/g)].map((m) => m[0]).filter((tag) => /rel="stylesheet"/.test(tag))
      .map((tag) => /href="(\/build\/[^"]+)"/.exec(tag)?.[1]).filter((u): u is string => !!u),
  ]
  return Promise.all(
    [...new Set(urls)].map(async (url) => {
      // Ask as a browser would, to see whether the server compresses at all (fetch decodes for us).
      const res = await fetch(BASE + url, { headers: { 'accept-encoding': 'gzip, br' } })
      const body = new Uint8Array(await res.arrayBuffer())
      const sent = res.headers.get('content-encoding') ?? 'none'
      return { url, raw: body.byteLength, gzip: Bun.gzipSync(body, { level: 9 }).byteLength, sent }
    }),
  )
}

function writeSection(body: string) {
  const file = join(ROOT, 'bench/RESULTS.md')
  const header =
    '# Benchmark results\n\nEvery result here is a ratio against a baseline measured in the same run on the same ' +
    'machine (bare times vary too much between machines and runs to compare). Absolute times are given only to ' +
    'make the ratios readable. Re-run the script named in a section to update it.\n'
  const text = existsSync(file) ? readFileSync(file, 'utf8') : header
  const title = '## Pages (bench/pages.ts)'
  const section = `${title}\n\n${body.trim()}\n`
  const at = text.indexOf(title)
  const end = at < 0 ? -1 : text.indexOf('\n## ', at + title.length)
  const next = at < 0 ? `${text.trimEnd()}\n\n${section}` : text.slice(0, at) + section + (end < 0 ? '' : text.slice(end))
  writeFileSync(file, next)
}

try {
  await startServer()
  const cookie = await register()
  const targets: Target[] = [
    { name: 'static /favicon.svg (baseline)', path: '/favicon.svg', ttfb: [], ttlb: [], bytes: 0 },
    { name: 'GET /login (signed out)', path: '/login', ttfb: [], ttlb: [], bytes: 0 },
    { name: 'GET /chat (signed in)', path: '/chat', cookie, ttfb: [], ttlb: [], bytes: 0 },
  ]
  // Round-robin, rotating the order each round, so drift (GC, JIT, thermal) hits every target alike.
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    for (let k = 0; k < targets.length; k++) await measure(targets[(i + k) % targets.length]!, i >= WARMUP)
  }
  const [base] = targets
  const b50 = (xs: 'ttfb' | 'ttlb') => pct(base![xs], 50)
  const b95 = (xs: 'ttfb' | 'ttlb') => pct(base![xs], 95)
  const rows = targets.map((t) => {
    const f50 = pct(t.ttfb, 50), f95 = pct(t.ttfb, 95), l50 = pct(t.ttlb, 50), l95 = pct(t.ttlb, 95)
    return `| ${t.name} | ${kb(t.bytes)} | ${ms(f50)} (${ratio(f50, b50('ttfb'))}) | ${ms(f95)} (${ratio(f95, b95('ttfb'))}) | ${ms(l50)} (${ratio(l50, b50('ttlb'))}) | ${ms(l95)} (${ratio(l95, b95('ttlb'))}) |`
  })
  const html = await (await fetch(`${BASE}/login`, { headers: BROWSER })).text()
  const assets = await assetSizes(html)
  const assetRows = assets.map((a) => `| ${a.url.replace(/-\w+\.(js|css)$/, '.$1')} | ${kb(a.raw)} | ${kb(a.gzip)} | ${a.sent} |`)
  const total = assets.reduce((s, a) => ({ raw: s.raw + a.raw, gzip: s.gzip + a.gzip }), { raw: 0, gzip: 0 })
  const table = [
    `Timings in ms (ratio to the baseline's p50 / p95 of the same measure); ${SAMPLES} samples each after ${WARMUP} warm-up, interleaved, one request at a time over keep-alive. TTFB = first body chunk read.`,
    '',
    '| Request | Body | TTFB p50 | TTFB p95 | TTLB p50 | TTLB p95 |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    'JavaScript and CSS loaded by the first page (/login), gzip level 9:',
    '',
    '| Asset | Raw | Gzip -9 | Served with Content-Encoding |',
    '|---|---:|---:|---|',
    ...assetRows,
    `| **total** | ${kb(total.raw)} | ${kb(total.gzip)} | |`,
  ].join('\n')
  console.log(table)
  const machine = `${availableParallelism()} cores (nproc ${Bun.spawnSync(['nproc']).stdout.toString().trim()}), bun ${Bun.version}, ${process.platform}/${process.arch}`
  writeSection(`Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}.\n\n${table}\n\n${process.env.BENCH_READING ?? '_Reading: (write one paragraph here after looking at the numbers)._'}`)
} catch (error) {
  console.error(error)
  process.exitCode = 1
} finally {
  stop()
}
