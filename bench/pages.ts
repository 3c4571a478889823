/**
 * Page speed of a real Kontor server: time to first and last byte of the streamed SSR pages
 * against a static file served by the same process in the same run, plus the size of the
 * JavaScript and CSS each page loads before it is interactive, signed out and signed in.
 * Writes "## Pages (bench/pages.ts)" in bench/RESULTS.md.
 * Run: node_modules/.bin/bun bench/pages.ts
 * BENCH_BASELINE_ROOT=/path/to/other/checkout (with its node_modules) adds that checkout's asset
 * sizes for the same pages, e.g. of the commit before a bundling change; BENCH_BASELINE_LABEL names
 * it in the table's caption (e.g. "commit f1199ce, before the smaller bundles").
 */
import { machine, pct, register, startKontor, writeSection } from './lib'
import { BROWSER, JS_CEILINGS, JS_TARGETS, MODEL_ENV, measurePages, type PageSizes } from './page-assets'

const PORT = Number(process.env.BENCH_PORT ?? 3510)
const BASE = `http://localhost:${PORT}`
const [WARMUP, SAMPLES] = [30, 200]
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

/** Another checkout to compare the asset sizes with (e.g. the commit before a bundling change). */
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT
const BASELINE_LABEL = process.env.BENCH_BASELINE_LABEL

/** What the asset table says, from this run's numbers. */
function pageReading(pages: Array<{ path: string } & PageSizes>, before: Map<string, PageSizes> | undefined) {
  const total = (p: PageSizes) => p.jsGzip + p.cssGzip
  const at = (path: string) => pages.find((p) => p.path === path)!
  const [login, chat, thread] = [at('/login'), at('/chat'), at('/chats/$threadId')]
  const sent = [...new Set(pages.flatMap((p) => p.sent.split(', ')))]
  return [
    `Signed out, /login loads ${kb(total(login))} after gzip in ${login.files} scripts; the new-chat page ${kb(total(chat))} (${ratio(total(chat), total(login))} /login), an open chat ${kb(total(thread))}, as it also preloads the markdown renderer for its replies (since decision 0131 without the code highlighter, which comes once the page is interactive or, when a reply it hydrates has code to highlight, as that reply hydrates).`,
    before
      ? `Against the baseline, /login loads ${ratio(total(login), total(before.get('/login')!))}, /chat ${ratio(total(chat), total(before.get('/chat')!))}` +
        ` and an open chat ${ratio(total(thread), total(before.get('/chats/$threadId')!))} of what they loaded before;` +
        ` in JavaScript alone, /login ${kb(login.jsGzip)} (before ${kb(before.get('/login')!.jsGzip)}), /chat ${kb(chat.jsGzip)} (before ${kb(before.get('/chat')!.jsGzip)}).`
      : '',
    `Issue #15 asks for at most ${kb(JS_TARGETS['/login']!)} of JavaScript on /login and ${kb(JS_TARGETS['/chat']!)} on /chat: ` +
      `${[login, chat].map((p) => `${p.path} ${p.jsGzip <= JS_TARGETS[p.path]! ? 'is within it' : `is ${kb(p.jsGzip - JS_TARGETS[p.path]!)} over`}`).join(', ')}; ` +
      `tests/page-budget.test.ts holds them to ${kb(JS_CEILINGS['/login']!)} and ${kb(JS_CEILINGS['/chat']!)}, and an open chat to ${kb(JS_CEILINGS['/chats/$threadId']!)}.`,
    sent.includes('none')
      ? 'Some of these files are sent without Content-Encoding although the request accepts gzip, so unless a proxy compresses, a first visit downloads their raw size.'
      : `The server sends them precompressed (Content-Encoding: ${sent.join(', ')}), so the gzip column is close to what crosses the network.`,
  ].filter(Boolean).join(' ')
}

const kontor = await startKontor({ port: PORT, env: MODEL_ENV })
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
  const [base, loginTime, chat, me] = targets.map((t) => ({ ...t, f50: pct(t.ttfb, 50), f95: pct(t.ttfb, 95), l50: pct(t.ttlb, 50), l95: pct(t.ttlb, 95) })) as [S, S, S, S]
  type S = Target & Record<'f50' | 'f95' | 'l50' | 'l95', number>
  const pages = await measurePages(BASE)
  let before: Map<string, PageSizes> | undefined
  if (BASELINE_ROOT) {
    const old = await startKontor({ port: PORT + 1, env: MODEL_ENV, root: BASELINE_ROOT, stdout: 'ignore' })
    try {
      before = new Map((await measurePages(old.base)).map((p) => [p.path, p]))
    } finally {
      await old.stop()
    }
  }
  const login = pages[0]!
  const table = [
    `Milliseconds (ratio to the baseline's p50 / p95 of the same measure); ${SAMPLES} samples each after ${WARMUP} warm-up, ` +
      'interleaved, one request at a time over keep-alive. TTFB = first body chunk read; TTLB = body fully read.',
    '',
    '| Request | Body | TTFB p50 | TTFB p95 | TTLB p50 | TTLB p95 |',
    '|---|---:|---:|---:|---:|---:|',
    ...[base, loginTime, chat, me].map((t) =>
      `| ${t.name} | ${kb(t.bytes)} | ${cell(t.f50, base.f50)} | ${cell(t.f95, base.f95)} | ${cell(t.l50, base.l50)} | ${cell(t.l95, base.l95)} |`),
    '',
    `JavaScript and CSS each page loads before it is interactive: the entry script, the chunks its HTML preloads and what they import${before ? `; "before" is the same measure on the baseline checkout${BASELINE_LABEL ? ` (${BASELINE_LABEL})` : ''}` : ''}.`,
    '',
    `| Page | Scripts | JS raw | JS gzip -9 | CSS gzip -9 | Total gzip -9${before ? ' | Before (total gzip) | Now / before' : ''} | Ratio to /login |`,
    `|---|---:|---:|---:|---:|---:|${before ? '---:|---:|' : ''}---:|`,
    ...pages.map((p) => {
      const total = p.jsGzip + p.cssGzip
      const old = before?.get(p.path)
      const compared = before ? ` | ${old ? kb(old.jsGzip + old.cssGzip) : '–'} | ${old ? ratio(total, old.jsGzip + old.cssGzip) : '–'}` : ''
      return `| ${p.path} | ${p.files} | ${kb(p.jsRaw)} | ${kb(p.jsGzip)} | ${kb(p.cssGzip)} | ${kb(total)}${compared} | ${ratio(total, login.jsGzip + login.cssGzip)} |`
    }),
  ].join('\n')
  console.log(table)
  // Derived from this run's numbers, so a re-run never leaves stale prose behind.
  const reading = [
    `Signed out, /login takes ${ratio(loginTime.l50, base.l50)} the static file to its last byte at p50 (${ratio(loginTime.l95, base.l95)} at p95);`,
    `signed in, /chat takes ${ratio(chat.l50, base.l50)} (${ratio(chat.l95, base.l95)} at p95). Its layout first awaits the session and current user,`,
    `which on its own (/api/auth/me) costs ${ratio(me.l50, base.l50)}, about ${Math.round(((me.l50 - base.l50) / (chat.l50 - loginTime.l50)) * 100)}% of the gap between /chat and /login.`,
    `The first byte leaves at ${ratio(loginTime.f50, base.f50)} the static file's for /login and ${ratio(chat.f50, base.f50)} for /chat (p50; ${ratio(loginTime.f95, base.f95)} and ${ratio(chat.f95, base.f95)} at p95).`,
    Math.max(loginTime.f50 / loginTime.l50, chat.f50 / chat.l50) > 0.8
      ? 'The first body chunk arrives almost with the last: these pages leave the server in one flush, so streaming does not yet change what the browser sees.'
      : 'The first body chunk (the head: stylesheet, scripts to preload, theme) arrives well before the last, so the browser fetches the assets while the server loads the page\'s data (decision 0049); it leaves before the session is read and before rendering starts (decision 0080). ' +
        'What the last byte waits for is the loaders (each calls its GET route directly, with the page\'s session read once: decision 0086) and the rendering of the page.',
    // Only where it holds in this run: the p95 ratios of both pages' first and last bytes below their p50 ones.
    base.f95 / base.f50 > 3 && [loginTime, chat].every((t) => t.f95 / base.f95 < t.f50 / base.f50 && t.l95 / base.l95 < t.l50 / base.l50)
      ? "The baseline has a long tail of its own (scheduling noise on a small machine), so the p95 ratios read lower than the p50 ones."
      : '',
    pageReading(pages, before),
  ].filter(Boolean).join(' ')
  writeSection('## Pages (bench/pages.ts)', `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}.\n\n${table}\n\n**Reading.** ${reading}`)
} catch (error) {
  console.error(error)
  process.exitCode = 1
} finally {
  await kontor.stop()
}
