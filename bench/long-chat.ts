/**
 * Long chats in Chromium: time from navigation to the last message on screen for a chat of 1,000
 * messages against one of 10 (the baseline), interleaved, in the same browser and server; the
 * page's HTML size; and the long tasks (main-thread work over 50 ms, i.e. dropped frames) while
 * the user scrolls up through the long chat with the mouse wheel.
 * Writes "## Long chats (bench/long-chat.ts)" in bench/RESULTS.md.
 * Run: node_modules/.bin/bun bench/long-chat.ts   (BENCH_ROUNDS, default 15)
 */
import { createClient } from '@libsql/client'
import { chromium, type Page } from 'playwright'
import { waitForHydration } from '../tests/e2e/support/session'
import { machine, pct, signedInWithModel, startKontor, writeSection } from './lib'

const PORT = Number(process.env.BENCH_PORT ?? 3560)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15)
const WARMUP = 2
// The chat page needs a usable model; no request ever reaches this address.
const MODEL_ENV = { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }

/** Appends `count` messages (questions and markdown replies) to a chat straight in the database. */
async function seed(databaseUrl: string, threadId: string, count: number) {
  const db = createClient({ url: databaseUrl })
  const at = Date.now() - count * 1000
  // Each message follows the one before it (its parent), as sent messages do: one branch, no versions.
  const ids = Array.from({ length: count }, () => crypto.randomUUID())
  const statements = Array.from({ length: count }, (_, i) => {
    const n = i + 1
    const user = n % 2 === 1
    const content = user
      ? `Message ${n}`
      : `Reply ${n}: ${'Some **markdown** with a [link](https://example.com) and `code`. '.repeat((n % 5) + 1)}\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |`
    const time = at + i * 1000
    return {
      sql: `insert into messages (id, thread_id, seq, parent_id, role, content, status, created_at, updated_at) values (?, ?, ?, ?, ?, ?, 'complete', ?, ?)`,
      args: [ids[i]!, threadId, n, i === 0 ? null : ids[i - 1]!, user ? 'user' : 'assistant', content, time, time],
    }
  })
  await db.batch(statements, 'write')
  db.close()
}

/**
 * Milliseconds from navigation start until the chat's last reply is on screen, two ways: `frame`,
 * in the page's own frames (a requestAnimationFrame loop from an init script, which runs before
 * the page's scripts: the first frame in which the reply is in the viewport), and `poll`, when
 * Playwright's poller (also on animation frames) first sees it. The poller is evaluated through the
 * DevTools protocol, so it runs only once the page's main thread takes it: while the page parses,
 * loads its modules and hydrates, it waits, and sees a reply that was painted long before.
 */
async function openChat(page: Page, base: string, threadId: string, count: number) {
  // One test of "on screen" for both: the init script's loop and, through the page, the poller.
  await page.addInitScript((last: number) => {
    const w = window as unknown as { __lastReplyOnScreen: () => boolean; __lastOnScreen: number }
    w.__lastReplyOnScreen = () => {
      const replies = document.querySelectorAll('[data-testid=assistant-message]')
      const found = [...replies].find((e) => e.textContent?.includes(`Reply ${last}:`))
      const box = found?.getBoundingClientRect()
      return !!box && box.top < innerHeight && box.bottom > 0
    }
    const check = () => {
      if (w.__lastReplyOnScreen()) w.__lastOnScreen = performance.now()
      else requestAnimationFrame(check)
    }
    requestAnimationFrame(check)
  }, count)
  await page.goto(`${base}/chats/${threadId}`, { waitUntil: 'commit' })
  const value = (handle: { jsonValue(): Promise<unknown> }) => handle.jsonValue() as Promise<number>
  const poll = await page
    .waitForFunction(() => ((window as unknown as { __lastReplyOnScreen: () => boolean }).__lastReplyOnScreen() ? performance.now() : false), undefined, { polling: 'raf', timeout: 30_000 })
    .then(value)
  const frame = await page.waitForFunction(() => (window as unknown as { __lastOnScreen?: number }).__lastOnScreen, undefined, { timeout: 30_000 }).then(value)
  return { frame, poll }
}

/** Scrolls up through the chat with the wheel and returns the long tasks seen meanwhile (ms each). */
async function scrollUp(page: Page, steps: number) {
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] }
    w.__longTasks = []
    new PerformanceObserver((list) => w.__longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' })
  })
  const scroller = page.getByTestId('message-scroller')
  const box = (await scroller.boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  for (let i = 0; i < steps; i++) {
    await page.mouse.wheel(0, -400)
    await page.waitForTimeout(16)
  }
  await page.waitForTimeout(500)
  return page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks)
}

const kontor = await startKontor({ port: PORT, env: MODEL_ENV, stdout: 'ignore' })
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' })
try {
  const { base, databaseUrl } = kontor
  const { cookie, post } = await signedInWithModel(base)
  const chats = [
    { name: '10 messages (baseline)', count: 10, id: (await post('/api/threads', {})).id, times: [] as number[], polls: [] as number[], html: 0 },
    { name: '1,000 messages', count: 1000, id: (await post('/api/threads', {})).id, times: [] as number[], polls: [] as number[], html: 0 },
  ]
  for (const chat of chats) {
    await seed(databaseUrl, chat.id, chat.count)
    chat.html = (await (await fetch(`${base}/chats/${chat.id}`, { headers: { cookie } })).arrayBuffer()).byteLength
  }
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const [name, value] = cookie.split(';')[0]!.split('=')
  await context.addCookies([{ name: name!, value: value!, url: base }])
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    // Alternate which chat goes first, so drift hits both alike; a fresh page each time (no cache of the chat's data).
    for (const chat of round % 2 ? [...chats].reverse() : chats) {
      const page = await context.newPage()
      const { frame, poll } = await openChat(page, base, chat.id, chat.count)
      if (round >= WARMUP) {
        chat.times.push(frame)
        chat.polls.push(poll)
      }
      await page.close()
    }
  }
  const page = await context.newPage()
  await openChat(page, base, chats[1]!.id, 1000)
  // The last message is on screen before the page hydrates: scrolling is measured once it has (its own long task is not scrolling's).
  await waitForHydration(page)
  await page.waitForTimeout(500)
  const longTasks = await scrollUp(page, 120)
  const reached = await page.evaluate(() => document.querySelector('[data-testid=user-message]')?.textContent ?? '')
  await page.close()

  const [short, long] = chats.map((c) => ({ ...c, p50: pct(c.times, 50), p95: pct(c.times, 95), poll50: pct(c.polls, 50) })) as [S, S]
  type S = (typeof chats)[number] & { p50: number; p95: number; poll50: number }
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
  const table = [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}, Chromium headless, 1280×800.`,
    '',
    `Milliseconds from navigation start until the chat's last reply is on screen (ratio to the 10-message chat), in the page's own frames and as Playwright's poller saw it; ${ROUNDS} rounds after ${WARMUP} warm-up, interleaved, a new tab each time, signed in.`,
    '',
    '| Chat | Page HTML | Last message on screen, p50 | p95 | Seen by Playwright, p50 |',
    '|---|---:|---:|---:|---:|',
    ...[short, long].map((c) => `| ${c.name} | ${kb(c.html)} | ${c.p50.toFixed(0)} (${(c.p50 / short.p50).toFixed(2)}×) | ${c.p95.toFixed(0)} (${(c.p95 / short.p95).toFixed(2)}×) | ${c.poll50.toFixed(0)} (${(c.poll50 / short.poll50).toFixed(2)}×) |`),
    '',
    `Scrolling up through the 1,000-message chat with the mouse wheel (120 steps of 400 px, older pages loading on the way): ${longTasks.length} long tasks (main-thread work over 50 ms)` +
      (longTasks.length ? `, the longest ${Math.max(...longTasks).toFixed(0)} ms` : '') +
      `; the first message on screen at the end: "${reached.slice(0, 40)}".`,
  ].join('\n')
  console.log(table)
  if (!process.env.BENCH_NO_WRITE) {
    const reading =
      `**Reading.** The 1,000-message chat shows its last message ${(long.p50 / short.p50).toFixed(2)}× the time of a 10-message one at p50 (${long.p50.toFixed(0)} ms), ` +
      `its page carries ${kb(long.html)} of HTML against ${kb(short.html)}: it opens with its newest 50 messages and loads older ones as the user scrolls up (decision 0050). ` +
      `Issue #15 asks for the last message on screen at most 500 ms after navigation: ${long.p50 <= 500 ? 'reached at p50' : 'not reached'}. ` +
      `Playwright's poller saw it at ${long.poll50.toFixed(0)} ms (p50). Since 2026-11-30 the time is taken in the page's own frames (a requestAnimationFrame loop from an init script, which runs before the page's scripts): the poller runs through the DevTools protocol only once the page's main thread takes it, and while the page parses, loads its modules and hydrates (a long task of 55–130 ms) it waits, so it saw the reply 20–580 ms after the page's first contentful paint (twelve loads timed by hand, the poller's figures beside Chromium's paint timings). Earlier runs recorded the poller's time alone. ` +
      'The server renders the newest eight messages in flow, replies as markdown, and an inline script keeps the scroll box at its end from before the first paint until the page has hydrated, when the virtualised list takes over (decision 0082); ' +
      'before that change the server rendered a placeholder and the last message appeared only after hydration (870–1,050 ms for a 10-message chat, measured by hand). ' +
      'Since decision 0117 (2026-11-30) the server\'s JavaScript heap is collected in full more often: that day four runs of this bench with it gave 420–525 ms at p50 for the 1,000-message chat as the poller saw it (one of them over 500) and two with Bun\'s defaults given to the server 406 and 495 ms, alternating; the spread between runs is larger than the difference. ' +
      'The messages are seeded as sent ones are: each follows the one before it (before 2026-11-26 they had no parent, so each counted as a version of all the others and the 1,000-message page carried 1.9 MB).'
    writeSection('## Long chats (bench/long-chat.ts)', `${table}\n\n${reading}`)
  }
} finally {
  await browser.close()
  await kontor.stop()
}
