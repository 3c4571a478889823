/**
 * Page speed of a real Kontor server: time to first and last byte of the streamed SSR pages
 * against a static file served by the same process in the same run, plus the size of the
 * JavaScript and CSS the first page loads. Writes "## Pages (bench/pages.ts)" in bench/RESULTS.md.
 * Run: node_modules/.bin/bun bench/pages.ts
 */
import { machine, pct, register, startKontor, writeSection } from './lib'

const PORT = Number(process.env.BENCH_PORT ?? 3510)
const BASE = `http://localhost:${PORT}`
const [WARMUP, SAMPLES] = [30, 200]
// A bot User-Agent (curl's, fetch's default) makes the SSR handler wait for the whole page
// before sending anything, which would hide exactly what streaming is for.
const BROWSER = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
  'accept-language': 'en',
}

type Target = { name: string; path: string; cookie?: string; ttfb: number[]; ttlb: number[]; bytes: number }

/** TTFB = until the first body chunk is read, not until headers: a stream may send headers early. */
async function measure(t: Target, record: boolean) {
  const start = performance.now()
  const headers = { ...BROWSER, ...(t.cookie ? { cookie: t.cookie } : {}) }
  const res = await fetch(BASE + t.path, { headers, redirect: 'manual' })
  // A redirect (e.g. /chat → /login with a bad cookie) would time the wrong page.
  if (res.status !== 200) throw new Error(`${t.path}: status ${res.status}`)
  const reader = res.body!.getReader()
  let chunk = await reader.read()
  const first = performance.now()
  let bytes = 0
  for (; !chunk.done; chunk = await reader.read()) bytes += chunk.value.byteLength
  if (!record) return
  t.ttfb.push(first - start)
  t.ttlb.push(performance.now() - start)
  t.bytes = bytes
}

const cell = (x: number, base: number) => `${x.toFixed(2)} (${(x / base).toFixed(1)}×)`
const ratio = (x: number, base: number) => `${(x / base).toFixed(1)}×`
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

/** Raw and gzip -9 size of every /build/ script and stylesheet the page references. */
async function assetSizes(html: string) {
  const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="(\/build\/[^"]+)"/g)].map((m) => m[1]!)
  const styles = [...html.matchAll(/<link\b[^>]*>/g)].filter((m) => /rel="stylesheet"/.test(m[0]))
    .map((m) => /href="(\/build\/[^"]+)"/.exec(m[0])?.[1]).filter((u): u is string => !!u)
  return Promise.all([...new Set([...scripts, ...styles])].map(async (url) => {
    // Ask as a browser would, to see whether the server compresses at all (fetch decodes for us).
    const res = await fetch(BASE + url, { headers: { 'accept-encoding': 'gzip, br' } })
    const body = new Uint8Array(await res.arrayBuffer())
    return { url, raw: body.byteLength, gzip: Bun.gzipSync(body, { level: 9 }).byteLength, sent: res.headers.get('content-encoding') ?? 'none' }
  }))
}

const kontor = await startKontor({ port: PORT })
try {
  const cookie = await register(BASE)
  const target = (name: string, path: string, cookie?: string): Target => ({ name, path, cookie, ttfb: [], ttlb: [], bytes: 0 })
  const targets = [
    target('static /favicon.svg (baseline)', '/favicon.svg'),
    target('GET /login (signed out)', '/login'),
    target('GET /chat (signed in)', '/chat', cookie),
    // The session + current-user lookup that /chat's layout awaits, alone, to explain the gap to /login.
    target('GET /api/auth/me (signed in)', '/api/auth/me', cookie),
  ]
  // Round-robin, rotating the order each round, so drift (GC, JIT, other load) hits every target alike.
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    for (let k = 0; k < targets.length; k++) await measure(targets[(i + k) % targets.length]!, i >= WARMUP)
  }
  const [base, login, chat, me] = targets.map((t) => ({ ...t, f50: pct(t.ttfb, 50), f95: pct(t.ttfb, 95), l50: pct(t.ttlb, 50), l95: pct(t.ttlb, 95) })) as [S, S, S, S]
  type S = Target & Record<'f50' | 'f95' | 'l50' | 'l95', number>
  const assets = await assetSizes(await (await fetch(`${BASE}/login`, { headers: BROWSER })).text())
  const total = assets.reduce((s, a) => ({ raw: s.raw + a.raw, gzip: s.gzip + a.gzip }), { raw: 0, gzip: 0 })
  const table = [
    `Milliseconds (ratio to the baseline's p50 / p95 of the same measure); ${SAMPLES} samples each after ${WARMUP} warm-up, ` +
      'interleaved, one request at a time over keep-alive. TTFB = first body chunk read; TTLB = body fully read.',
    '',
    '| Request | Body | TTFB p50 | TTFB p95 | TTLB p50 | TTLB p95 |',
    '|---|---:|---:|---:|---:|---:|',
    ...[base, login, chat, me].map((t) =>
      `| ${t.name} | ${kb(t.bytes)} | ${cell(t.f50, base.f50)} | ${cell(t.f95, base.f95)} | ${cell(t.l50, base.l50)} | ${cell(t.l95, base.l95)} |`),
    '',
    '| Asset loaded by /login | Raw | Gzip -9 | Served with Content-Encoding |',
    '|---|---:|---:|---|',
    ...assets.map((a) => `| ${a.url.replace(/-\w+\.(js|css)$/, '.$1')} | ${kb(a.raw)} | ${kb(a.gzip)} | ${a.sent} |`),
    `| **total** | ${kb(total.raw)} | ${kb(total.gzip)} | |`,
  ].join('\n')
  console.log(table)
  // Derived from this run's numbers, so a re-run never leaves stale prose behind.
  const reading = [
    `Signed out, /login takes ${ratio(login.l50, base.l50)} the static file to its last byte at p50 (${ratio(login.l95, base.l95)} at p95);`,
    `signed in, /chat takes ${ratio(chat.l50, base.l50)} (${ratio(chat.l95, base.l95)} at p95). Its layout first awaits the session and current user,`,
    `which on its own (/api/auth/me) costs ${ratio(me.l50, base.l50)}, about ${Math.round(((me.l50 - base.l50) / (chat.l50 - login.l50)) * 100)}% of the gap between /chat and /login.`,
    Math.max(login.f50 / login.l50, chat.f50 / chat.l50) > 0.8
      ? 'The first body chunk arrives almost with the last: these pages leave the server in one flush, so streaming does not yet change what the browser sees.'
      : 'The first body chunk arrives well before the last, so the browser can start on the shell while the rest streams.',
    base.f95 / base.f50 > 3 ? "The baseline has a long tail of its own (scheduling noise on a small machine), so the p95 ratios read lower than the p50 ones." : '',
    `The first page loads ${kb(total.gzip)} of JavaScript and CSS after gzip (${kb(total.raw)} raw)` +
      (assets.filter((a) => a.url.endsWith('.js')).length === 1 ? ' as one script holding every route.' : '.'),
    assets.some((a) => a.sent === 'none')
      ? 'The server sends these files without Content-Encoding although the request accepts gzip, so unless a proxy compresses, a first visit downloads the raw size.'
      : '',
  ].filter(Boolean).join(' ')
  writeSection('## Pages (bench/pages.ts)', `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}.\n\n${table}\n\n**Reading.** ${reading}`)
} catch (error) {
  console.error(error)
  process.exitCode = 1
} finally {
  await kontor.stop()
}
