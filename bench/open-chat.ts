/**
 * An open chat whose replies hold code and math, opened in Chromium as on a first visit (a new
 * browser context each time: nothing cached), against another checkout of Kontor in the same run
 * (BENCH_BASELINE_ROOT, required: e.g. a worktree of the commit before a change, with its own
 * node_modules), rounds interleaved. Times from navigation start, in the page's own frames: the
 * first paint, the message field working (hydrated), every code block's Copy button working, the
 * first math typeset; and how many frames showed a reply as plain text (its markdown waiting).
 * Writes "## An open chat in Chromium (bench/open-chat.ts)" in bench/RESULTS.md.
 * Run: BENCH_BASELINE_ROOT=/path/to/checkout node_modules/.bin/bun bench/open-chat.ts
 * (BENCH_BASELINE_LABEL names the baseline; BENCH_ROUNDS, default 12)
 */
import { createClient } from '@libsql/client'
import { chromium, type Browser } from 'playwright'
import { machine, pct, signedInWithModel, startKontor, writeSection } from './lib'

const PORT = Number(process.env.BENCH_PORT ?? 3570)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12)
const WARMUP = 2
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT
const BASELINE_LABEL = process.env.BENCH_BASELINE_LABEL ?? BASELINE_ROOT
// The chat page needs a usable model; no request ever reaches this address.
const MODEL_ENV = { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }
const MESSAGES = 12

if (!BASELINE_ROOT) {
  console.error('BENCH_BASELINE_ROOT is required: the checkout to compare with (with its node_modules)')
  process.exit(2)
}

/** Questions and replies with a table, a fenced block of TypeScript and a formula, straight in the database. */
async function seed(databaseUrl: string, threadId: string) {
  const db = createClient({ url: databaseUrl })
  const at = Date.now() - MESSAGES * 1000
  const ids = Array.from({ length: MESSAGES }, () => crypto.randomUUID())
  const reply = (n: number) =>
    `Reply ${n}: a plan in **three** steps.\n\n| Step | Who |\n|---|---|\n| Collect | Ada |\n| Decide | Bob |\n\n` +
    '```ts\nexport function progress(done: number, planned: number) {\n  return Math.round((done / planned) * 100)\n}\n```\n\n' +
    `$$\n\\text{progress} = \\frac{\\text{done}}{\\text{planned}} \\times 100\n$$\n\nThat is all for step ${n}.`
  await db.batch(
    ids.map((id, i) => {
      const n = i + 1
      const user = n % 2 === 1
      const time = at + i * 1000
      return {
        sql: `insert into messages (id, thread_id, seq, parent_id, role, content, status, created_at, updated_at) values (?, ?, ?, ?, ?, ?, 'complete', ?, ?)`,
        args: [id, threadId, n, i === 0 ? null : ids[i - 1]!, user ? 'user' : 'assistant', user ? `Question ${n}` : reply(n), time, time],
      }
    }),
    'write',
  )
  db.close()
}

type Load = { paint: number; field: number; copy: number; math: number; plainFrames: number }

/** One first visit: a new context (no cache), the page's own frames watched from before its first byte. */
async function open(browser: Browser, base: string, cookie: string, threadId: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const [name, value] = cookie.split(';')[0]!.split('=')
  await context.addCookies([{ name: name!, value: value!, url: base }])
  const page = await context.newPage()
  await page.addInitScript(() => {
    const live = (el: Element | null) => !!el && Object.keys(el).some((k) => k.startsWith('__reactFiber'))
    const m: { plainFrames: number; field?: number; copy?: number; math?: number } = { plainFrames: 0 }
    ;(window as unknown as { __load: typeof m }).__load = m
    const frame = () => {
      const t = performance.now()
      if (m.field === undefined && live(document.querySelector('#chat-composer'))) m.field = t
      const copy = [...document.querySelectorAll('[data-testid="code-block"] button')]
      if (m.copy === undefined && copy.length > 0 && copy.every(live)) m.copy = t
      if (m.math === undefined && document.querySelector('[data-testid="assistant-message"] .katex')) m.math = t
      // A reply's markdown waiting shows its text as it stands (markdown.tsx's fallback; found by its
      // class, as the baseline's has no data-markdown-pending; the seeded replies have no reasoning, whose panel has it too).
      if (document.querySelector('[data-testid="assistant-message"] div.whitespace-pre-wrap')) m.plainFrames++
      if (t < 15_000) requestAnimationFrame(frame)
    }
    requestAnimationFrame(frame)
  })
  await page.goto(`${base}/chats/${threadId}`, { waitUntil: 'commit' })
  await page.waitForFunction(() => {
    const m = (window as unknown as { __load: { field?: number; copy?: number; math?: number } }).__load
    return m.field !== undefined && m.copy !== undefined && m.math !== undefined
  }, undefined, { timeout: 15_000 })
  // A little longer, for frames that would show a reply's plain text after the math arrived.
  await page.waitForTimeout(400)
  const load = await page.evaluate(() => {
    const m = (window as unknown as { __load: { plainFrames: number; field?: number; copy?: number; math?: number } }).__load
    const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN
    return { paint, field: m.field!, copy: m.copy!, math: m.math!, plainFrames: m.plainFrames! }
  })
  await context.close()
  return load
}

const servers = [
  { name: 'this checkout', kontor: await startKontor({ port: PORT, env: MODEL_ENV, stdout: 'ignore' }) },
  { name: `baseline (${BASELINE_LABEL})`, kontor: await startKontor({ port: PORT + 1, env: MODEL_ENV, stdout: 'ignore', root: BASELINE_ROOT }) },
]
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' })
try {
  const sides = await Promise.all(
    servers.map(async ({ name, kontor }) => {
      const { cookie, post } = await signedInWithModel(kontor.base)
      const { id } = await post('/api/threads', {})
      await seed(kontor.databaseUrl, id)
      return { name, base: kontor.base, cookie, id, loads: [] as Load[] }
    }),
  )
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    // Alternate which side goes first, so drift hits both alike.
    for (const side of round % 2 ? [...sides].reverse() : sides) {
      const load = await open(browser, side.base, side.cookie, side.id)
      if (round >= WARMUP) side.loads.push(load)
    }
  }
  const [now, before] = sides as [(typeof sides)[number], (typeof sides)[number]]
  const p50 = (loads: Load[], key: keyof Load) => pct(loads.map((l) => l[key]), 50)
  const rows: Array<[string, keyof Load, string]> = [
    ['First paint', 'paint', 'ms'],
    ['Message field works (hydrated)', 'field', 'ms'],
    ["Every code block's Copy button works", 'copy', 'ms'],
    ['First formula typeset', 'math', 'ms'],
    ['Frames with a reply shown as plain text', 'plainFrames', 'frames'],
  ]
  const cell = (x: number, unit: string) => (unit === 'ms' ? `${x.toFixed(0)} ms` : `${x}`)
  const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : a === 0 ? '—' : '∞')
  const table = [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}, Chromium headless, 1280×800; a chat of ${MESSAGES} messages whose ${MESSAGES / 2} replies each hold a table, a fenced block of TypeScript and a formula, opened as on a first visit (a new browser context each time, nothing cached), signed in; ${ROUNDS} rounds after ${WARMUP} warm-up, the two servers taking turns (which goes first alternates); medians, in the page's own frames from navigation start.`,
    '',
    `| | ${now.name} | ${before.name} | Ratio |`,
    '|---|---:|---:|---:|',
    ...rows.map(([label, key, unit]) => `| ${label} | ${cell(p50(now.loads, key), unit)} | ${cell(p50(before.loads, key), unit)} | ${ratio(p50(now.loads, key), p50(before.loads, key))} |`),
  ].join('\n')
  console.log(table)
  const reading =
    `**Reading.** The message field works ${(p50(before.loads, 'field') - p50(now.loads, 'field')).toFixed(0)} ms, every Copy button ${(p50(before.loads, 'copy') - p50(now.loads, 'copy')).toFixed(0)} ms and the first formula ${(p50(before.loads, 'math') - p50(now.loads, 'math')).toFixed(0)} ms sooner than with the baseline (negative: later), ` +
    `and ${p50(now.loads, 'plainFrames')} frames (median) showed a reply as plain text, against ${p50(before.loads, 'plainFrames')}. ` +
    'What decides it (decision 0133): React holds back a Suspense boundary that retries after suspending until 300 ms after any boundary last showed or left its fallback, so each suspension while the page hydrates can cost 300 ms; the router now finishes its own hydration (matches and route chunks, with the replies\' renderer as the chat page\'s preload) before React hydrates, the toasts\' host mounts without a fallback, and math appears only once KaTeX\'s stylesheet has loaded (rendered with it still loading, a reply suspended and showed its plain text). ' +
    'Other work on the machine inflates every time; compare the ratios.'
  console.log(reading)
  writeSection('## An open chat in Chromium (bench/open-chat.ts)', `${table}\n\n${reading}`)
} finally {
  await browser.close()
  for (const { kontor } of servers) await kontor.stop()
}
