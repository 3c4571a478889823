/**
 * Many chat replies at once, each token 20–50 ms after the last (a model's pace), read directly
 * from the fake provider, through a bare relay (what any relay on Bun's fetch and streams adds on
 * this machine, bench/relay-floor.ts) and through Kontor, rounds alternating. Reports the
 * inter-token gaps the reader sees (p50, p99; the added p99 over direct), Kontor's peak resident
 * memory, the CPU time a token costs (and how much of it the main thread's, which also says how
 * much of the round that thread was on a core or waiting for one) and errors. Before its rounds it waits for a quiet machine (at least 90% idle over a second, quietMachine).
 * Writes "## Concurrency (bench/concurrency.ts)" of bench/RESULTS.md.
 * Run: node_modules/.bin/bun bench/concurrency.ts [streams=1000] [rounds=2]
 */
// Bun's fetch runs at most 256 requests at once unless the process starts with
// BUN_CONFIG_MAX_HTTP_REQUESTS: this reader needs all its streams open together.
if (!process.env.BUN_CONFIG_MAX_HTTP_REQUESTS) process.execve!(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: '4096' })

import { availableParallelism, loadavg } from 'node:os'
import { readFileSync } from 'node:fs'
import { machine, mainThread, pct, quietMachine, quietText, register, startBareRelay, startFakeProvider, startKontor, writeSection } from './lib'

const STREAMS = Number(process.argv[2] ?? 1000)
const ROUNDS = Number(process.argv[3] ?? 2)
const TOKENS = Number(process.env.BENCH_TOKENS ?? 300)
const PORT = Number(process.env.BENCH_PORT ?? 3530)
const FAKE_PORT = PORT + 1
const RELAY_PORT = PORT + 2
const prompt = `[[fake:tokens=${TOKENS}]][[fake:delay=20-50]] go`

// The fake runs in its own process, so that neither side measures the other's CPU.
const fakeProcess = await startFakeProvider(FAKE_PORT)
const fakeUrl = `http://127.0.0.1:${FAKE_PORT}`
// The yardstick: a bare relay in a process of its own, which hands the fake's network chunks on as they come.
const relayProcess = await startBareRelay(RELAY_PORT, FAKE_PORT)
// Kontor as `npm start` runs it, the server bundle (decision 0114); BENCH_SOURCE_FILES=1 runs src/main.ts instead.
const fromSourceFiles = process.env.BENCH_SOURCE_FILES === '1'
const kontor = await startKontor({ port: PORT, env: { OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: `${fakeUrl}/v1` }, bundle: !fromSourceFiles })
const base = kontor.base

/** When each token of one reply arrived (tokens of one frame arrive together), or why it failed. */
type Stream = { arrivals: number[]; error?: string }

/** Replies between their first token and their end right now, and the most at once in this round. */
const streaming = { now: 0, most: 0 }

/** Reads an SSE body; `tokensIn` says how many tokens a frame carries. */
async function read(res: Response, tokensIn: (frame: string) => number): Promise<Stream> {
  if (!res.ok) return { arrivals: [], error: `status ${res.status}` }
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  const arrivals: number[] = []
  let buffer = ''
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      const now = performance.now()
      buffer += decoder.decode(chunk.value, { stream: true })
      let end: number
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const frame = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        if (/^event: error$/m.test(frame)) return { arrivals, error: frame }
        const tokens = tokensIn(frame)
        if (tokens > 0 && arrivals.length === 0) streaming.most = Math.max(streaming.most, ++streaming.now)
        for (let n = tokens; n > 0; n--) arrivals.push(now)
      }
    }
  } finally {
    if (arrivals.length) streaming.now--
  }
  return arrivals.length === TOKENS ? { arrivals } : { arrivals, error: `${arrivals.length} of ${TOKENS} tokens` }
}

/** The fake's own answer, read from `url`: the fake itself, or the bare relay in front of it. */
const providerAnswer = (url: string): Promise<Stream> =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
    body: JSON.stringify({ model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: prompt }] }),
  }).then((res) => read(res, (f) => (/"content":"[^"]/.test(f) ? 1 : 0)), (e) => ({ arrivals: [], error: String(e) }))
const direct = () => providerAnswer(`${fakeUrl}/v1/chat/completions`)
const throughRelay = () => providerAnswer(`http://127.0.0.1:${RELAY_PORT}/`)

const words = (f: string) => (JSON.parse(f.slice(f.indexOf('data: ') + 6)) as { delta: string }).delta.split(' ').filter(Boolean).length
const throughKontor = (cookie: string, threadId: string): Promise<Stream> =>
  fetch(`${base}/api/threads/${threadId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: base },
    body: JSON.stringify({ content: prompt }),
  }).then((res) => read(res, (f) => (/^event: text$/m.test(f) ? words(f) : 0)), (e) => ({ arrivals: [], error: String(e) }))

async function setup() {
  const cookie = await register(base)
  const post = (path: string, body: unknown) =>
    fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', cookie, origin: base }, body: JSON.stringify(body) }).then((r) => r.json())
  await post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
  await post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
  const ids: string[] = []
  for (let i = 0; i < STREAMS; i++) ids.push(((await post('/api/threads', {})) as { id: string }).id)
  // One short exchange each, so that no measured reply also waits for its chat's title.
  for (let i = 0; i < ids.length; i += 50) {
    await Promise.all(ids.slice(i, i + 50).map((id) => fetch(`${base}/api/threads/${id}/messages`, {
      method: 'POST', headers: { 'content-type': 'application/json', cookie, origin: base }, body: JSON.stringify({ content: 'hello' }),
    }).then((r) => r.text())))
  }
  return { cookie, ids }
}

const rssMb = () => Number(readFileSync(`/proc/${kontor.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)![1]) / 1024
/** A process's CPU time so far (user and system, all its threads), in seconds: Kontor's unless named. */
const cpuSeconds = (pid: number | 'self' = kontor.pid) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // After the command name in parentheses (which may hold anything), in clock ticks of 1/100 s.
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}
/** Adds what a main thread did between two readings (mainThread) to `into`; where the kernel keeps no such statistics, `into` becomes null. */
const addMainThread = (into: ReturnType<typeof mainThread>, before: ReturnType<typeof mainThread>, after: ReturnType<typeof mainThread>) =>
  into && before && after ? { cpu: into.cpu + after.cpu - before.cpu, waited: into.waited + after.waited - before.waited } : null

/** Runs all streams at once; samples Kontor's RSS every 100 ms meanwhile. */
async function round(start: () => Promise<Stream>[]) {
  streaming.most = 0
  let peak = rssMb()
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 100)
  const t0 = performance.now()
  const streams = await Promise.all(start())
  const wall = performance.now() - t0
  clearInterval(sampler)
  return { streams, wall, peak: Math.max(peak, rssMb()), most: streaming.most }
}

/**
 * Where in its round each gap over `over` ended, counted by whole seconds from the round's first
 * token, the seconds with the most first. A loop that stalls holds up a token of nearly every
 * stream at once: such gaps crowd into a few seconds, where a loop that is merely busy spreads
 * them over the round.
 */
function longGapsBySecond(streams: Stream[], over: number) {
  const bySecond = new Map<number, number>()
  let count = 0
  const first = Math.min(...streams.map((s) => s.arrivals[0] ?? Infinity))
  for (const { arrivals } of streams) {
    for (let i = 1; i < arrivals.length; i++) {
      if (arrivals[i]! - arrivals[i - 1]! <= over) continue
      const second = Math.floor((arrivals[i]! - first) / 1000)
      bySecond.set(second, (bySecond.get(second) ?? 0) + 1)
      count++
    }
  }
  return { count, seconds: [...bySecond].sort((a, b) => b[1] - a[1]) }
}

const gaps = (streams: Stream[]) => streams.flatMap((s) => s.arrivals.slice(1).map((t, i) => t - s.arrivals[i]!))
const fmt = (n: number, digits = 1) => n.toFixed(digits)

try {
  const load = [loadavg()[0]!]
  const session = await setup()
  // The setup's replies put in the search index (a second after they end) and any work left from before: done first.
  const quiet = await quietMachine()
  const idleRss = rssMb()
  const results = { direct: [] as Stream[], relay: [] as Stream[], kontor: [] as Stream[], kontorRounds: [] as Stream[][], directWall: 0, relayWall: 0, kontorWall: 0, peak: 0, mostDirect: 0, mostRelay: 0, mostKontor: 0, cpu: 0, main: { cpu: 0, waited: 0 } as ReturnType<typeof mainThread>, fakeCpu: 0, readerCpu: 0, relayCpu: 0, relayMain: { cpu: 0, waited: 0 } as ReturnType<typeof mainThread>, relayFakeCpu: 0, directFakeCpu: 0 }
  for (let r = 0; r < ROUNDS; r++) {
    // The fake's CPU time while it is read directly, nothing else running: the machine's speed from one run to another.
    const directBefore = cpuSeconds(fakeProcess.pid)
    const d = await round(() => Array.from({ length: STREAMS }, direct))
    results.directFakeCpu += cpuSeconds(fakeProcess.pid) - directBefore
    results.direct.push(...d.streams)
    results.directWall += d.wall
    results.mostDirect = Math.max(results.mostDirect, d.most)
    const relayBefore = [cpuSeconds(relayProcess.pid), cpuSeconds(fakeProcess.pid), mainThread(relayProcess.pid)] as const
    const b = await round(() => Array.from({ length: STREAMS }, throughRelay))
    results.relayCpu += cpuSeconds(relayProcess.pid) - relayBefore[0]
    results.relayFakeCpu += cpuSeconds(fakeProcess.pid) - relayBefore[1]
    results.relayMain = addMainThread(results.relayMain, relayBefore[2], mainThread(relayProcess.pid))
    results.relay.push(...b.streams)
    results.relayWall += b.wall
    results.mostRelay = Math.max(results.mostRelay, b.most)
    // Kontor's CPU time, and what the fake provider and this reader took of the same cores meanwhile.
    const before = [cpuSeconds(), cpuSeconds(fakeProcess.pid), cpuSeconds('self'), mainThread(kontor.pid)] as const
    const k = await round(() => session.ids.map((id) => throughKontor(session.cookie, id)))
    results.cpu += cpuSeconds() - before[0]
    results.main = addMainThread(results.main, before[3], mainThread(kontor.pid))
    results.fakeCpu += cpuSeconds(fakeProcess.pid) - before[1]
    results.readerCpu += cpuSeconds('self') - before[2]
    results.kontor.push(...k.streams)
    results.kontorRounds.push(k.streams)
    results.kontorWall += k.wall
    results.peak = Math.max(results.peak, k.peak)
    results.mostKontor = Math.max(results.mostKontor, k.most)
  }
  load.push(loadavg()[0]!)
  const errors = (xs: Stream[]) => xs.filter((s) => s.error)
  for (const e of [...errors(results.direct), ...errors(results.relay), ...errors(results.kontor)].slice(0, 5)) console.log('error:', e.error)
  const gd = gaps(results.direct)
  const gb = gaps(results.relay)
  const gk = gaps(results.kontor)
  const longGaps = results.kontorRounds.map((streams) => longGapsBySecond(streams, pct(gk, 99)))
  const clustered = longGaps.some((l) => l.count)
    ? `Kontor's gaps over its p99 by the second of their round in which they ended, counted from the round's first token: ${longGaps
        .map((l, i) => {
          const top = l.seconds.slice(0, 3).reduce((sum, [, n]) => sum + n, 0)
          const seconds = l.seconds.slice(0, 4).map(([second, n]) => `${second}–${second + 1} s: ${n}`).join(', ')
          return `${ROUNDS > 1 ? `round ${i + 1}, ` : ''}${l.count} gaps, ${seconds}${l.seconds.length > 4 ? ` and ${l.seconds.length - 4} more seconds` : ''} (the three seconds with the most hold ${fmt((100 * top) / Math.max(1, l.count), 0)}%)`
        })
        .join('; ')}. `
    : ''
  const row = (name: string, g: number[], failed: number) =>
    `| ${name} | ${fmt(pct(g, 50))} ms | ${fmt(pct(g, 99))} ms | ${fmt(pct(g, 99.9))} ms | ${failed} |`
  const table = [
    `${STREAMS} replies at once, ${TOKENS} tokens each, every token 20–50 ms after the last (the fake provider, a separate process); ${ROUNDS} rounds, each reading directly, through a bare relay and through Kontor in turn. ` +
      'Gaps are between consecutive tokens as the reader receives them (tokens that arrive in one frame count as a gap of 0).',
    '',
    '| Read | Gap p50 | Gap p99 | Gap p99.9 | Failed streams |',
    '|---|---:|---:|---:|---:|',
    row('directly from the provider (baseline)', gd, errors(results.direct).length),
    row('through a bare relay in Bun (yardstick)', gb, errors(results.relay).length),
    row('through Kontor', gk, errors(results.kontor).length),
  ].join('\n')
  const perToken = (seconds: number) => fmt((seconds / ROUNDS / (STREAMS * TOKENS)) * 1e6, 0)
  const shareOf = (seconds: number, wallMs: number) => fmt((100 * seconds) / (wallMs / 1000), 0)
  // The main threads' figures, where the kernel keeps the statistics they are read from.
  const kontorMain = results.main
    ? `, ${fmt(results.main.cpu / ROUNDS, 1)} s of it on its main thread, the event loop (${perToken(results.main.cpu)} µs a token, on a core ${shareOf(results.main.cpu, results.kontorWall)}% of the round's time and ready to run but waiting for one another ${shareOf(results.main.waited, results.kontorWall)}%)`
    : ''
  const relayMain = results.relayMain
    ? `, ${fmt(results.relayMain.cpu / ROUNDS, 1)} s of it on its main thread: ${perToken(results.relayMain.cpu)} µs a token, on a core ${shareOf(results.relayMain.cpu, results.relayWall)}% of the round's time and waiting for one ${shareOf(results.relayMain.waited, results.relayWall)}%`
    : ''
  const reading =
    `**Reading.** Through Kontor the p99 gap is ${fmt(pct(gk, 99) - pct(gd, 99))} ms above reading the provider directly (p50 ${fmt(pct(gk, 50) - pct(gd, 50))} ms). ` +
    clustered +
    `Kontor's resident memory: ${fmt(idleRss, 0)} MB before the first round, ${fmt(results.peak, 0)} MB at its peak. ` +
    `A round took ${fmt(results.directWall / ROUNDS / 1000, 1)} s direct and ${fmt(results.kontorWall / ROUNDS / 1000, 1)} s through Kontor, which used ${fmt(results.cpu / ROUNDS, 1)} s of CPU time in it (${fmt((results.cpu / ROUNDS / (STREAMS * TOKENS)) * 1e6, 0)} µs a token, the replies' start and end included)${kontorMain}; in the same time the fake provider used ${fmt(results.fakeCpu / ROUNDS, 1)} s and this reader ${fmt(results.readerCpu / ROUNDS, 1)} s (on the machine's ${availableParallelism()} cores); at most ${results.mostDirect} replies streamed at once directly, ${results.mostRelay} through the bare relay and ${results.mostKontor} through Kontor. ` +
    `A bare relay (bench/relay-floor.ts: a Bun server that calls the fake with \`fetch\` and hands each network chunk on through a stream of its own, parsing nothing, storing nothing) adds ${fmt(pct(gb, 99) - pct(gd, 99))} ms to the p99 gap (p50 ${fmt(pct(gb, 50) - pct(gd, 50))} ms) and used ${fmt(results.relayCpu / ROUNDS, 1)} s of CPU time in a round of ${fmt(results.relayWall / ROUNDS / 1000, 1)} s (${fmt((results.relayCpu / ROUNDS / (STREAMS * TOKENS)) * 1e6, 0)} µs a token${relayMain}; the fake provider meanwhile ${fmt(results.relayFakeCpu / ROUNDS, 1)} s): what any relay on Bun's fetch and streams costs on this machine, so that Kontor's own share is its figures beyond the relay's. A main thread that is on a core or waiting for one for most of the round is an event loop that is rarely idle: a token that arrives waits for the work of those before it. It waits for a core while other threads have them: the fake provider's, this reader's and the process's own (its HTTP client, the collector). That the added gap grows with the CPU time a token costs on that thread is an inference from these figures, not measured apart (decision 0136). Read directly, with nothing else running, the fake provider used ${fmt(results.directFakeCpu / ROUNDS, 1)} s of CPU time in a round: the same work in every run, so that this tells the machine's speed from one run to another. The run recorded on 2026-11-30 at 22:03 UTC (the code of decision 0130, two rounds, no bare relay) gave +41.8 ms at p99, 116 MB before the round, a peak of 219 MB and 45 µs a token, the fake provider using 6.5 s of CPU time in Kontor's round; on 2026-12-01 the same code took 64–76 µs a token in five single rounds, and the fake 10–13 s in Kontor's round (decision 0135). ` +
    'Since 2026-11-30 (after decision 0129) this bench waits before its rounds until the machine has been at least 90% idle for a second (`quietMachine`, bench/lib.ts): the set-up\'s replies are put in the search index a second after they end, and a run started right after another inherits its load. ' +
    `Every reply is persisted as it streams (its new text appended every 300 ms, decision 0044). Since decision 0137 (2026-12-02, after the run recorded on 2026-12-01 at 10:07 UTC) a reply's end leaves its appended parts, marked ended, to go with those of the other replies that ended meanwhile (a tick's parts of many replies share pages, which each end rewrote alone): timed in the server, one round each (the one after the change while a stray process of another trial held most of a core, which lengthens what is timed: an upper bound), the statement that ends a reply took 190 µs on average against 402 and the commits 1.15 s against 1.28 s (checkpoints of the log, 34 and 42 commits over 10 ms, remain most of it); four single rounds each, alternating with the commit before (with that stray process running throughout, on both sides alike), gave added p99 gaps of +87.0–136.1 ms (median +101.0) against +87.9–124.8 ms (median +101.9), within the spread, p50 gaps +11.0 against +15.25 ms (medians) and 30.5 against 32 µs a token on the main thread (medians). Measured again later that day with nothing else running and no timer in the database driver (the statements timed in the server above were timed by one: a clock read and a map update per statement): four single rounds each, alternating with the commit before, gave added p99 gaps of +82.8, +60.2, +102.2 and +111.1 ms (median +92.5) against +49.5, +94.4, +84.5 and +83.3 ms (median +83.9), peaks of 203–231 MB against 209–243 MB and Kontor's CPU time 57–76 against 56–65 µs a token: within the spread, so no gain at the p99 is measured; the p99 followed the load of each round (the fake provider's CPU time in Kontor's round 8.4–11.7 s). Tried that night and not kept (three single rounds each, alternating, the source files, with the same stray process running): the log's checkpoints moved to a thread of their own (a second connection checkpointing every 100 ms, the server's own at 4,000 pages instead of 1,000): +100.6–182.5 ms against +86.4–125.3 ms; the thread used 2.6–3.2 s of CPU time in a round, and the main thread's cost a token rose (32–36 against 30–33 µs). Since decision 0139 (2026-12-02) a tick takes the text the tool loop appended since the last one instead of slicing it off the reply's text, which copied the whole text of every streaming reply each tick (a string built by appending is a rope, and slicing makes it flat): in CPU profiles of one round each the tick's part of the main thread outside SQL fell from about 277 to 166 samples of some 5,440; four single rounds each, alternating with the commit before, gave added p99 gaps of +37.3–110.8 ms (median +76.45) against +70.8–96.1 ms (median +83.75), within the spread, and peaks of 203–210 against 207–213 MB. Where the p99 comes from (2026-12-02, after decision 0139; single rounds from the source files): the longest gaps crowd into a few seconds of a round (see the count by second above, written since that day). In two rounds timed with a timer in the server that logged every turn of the event loop over 60 ms, Kontor's 2,990 gaps over its p99 fell 612 in the round's eighth second and 1,531 in its tenth in one, 976 in its fourteenth and 1,304 in its fifteenth in the other, while turns of 60–180 ms ran all through both rounds: in the seconds in which the loop's turns run longest, a token of most of the 1,000 streams waits at once, so that the p99 (the 3,000 longest of 300,000 gaps) follows a few such seconds of a round more than the load spread over it. What makes those holds is not yet told apart; seen in the same rounds: ticks of 35–89 ms (against 5–15 ms as a rule; likely those whose commit checkpoints the log), 48 full collections of the heap in one round (logged with \`BUN_JSC_logGC=1\`), and the seconds in which the replies end together. Tried that day and not kept (single rounds, alternating): rounds without the tick's writes at all (no appends, no question for Stop, no lease renewal: a bound, not a design) gave added p99 gaps of +89.5, +98.4 and +104.6 ms against +64.4, +71.5 and +83.4 ms with them, so the appends are not what sets the p99; a sketch of a fake provider a third lighter (a direct stream and a timer per reply: 6.0–7.5 against 9.3–10.7 s of CPU time in Kontor's round) lowered every read's p99 (directly 54–64 against 72–77 ms, through Kontor 115–151 against 133–175 ms) but left the added gap within the spread (+57.3, +67.1 and +87.1 against +55.8, +77.4 and +102.8 ms); 20 µs of busy work added to each network chunk of the provider's answer on the main thread raised Kontor's main thread by 10 and 4 µs a token (under load one read often brings several chunks) and the added p99 gap by 32 and 23 ms (+87.8 to +119.9 and +77.3 to +100.2 ms, two pairs): about 3–6 ms of p99 per µs a token, so that the target of +50 ms asks of the main thread about a fifth less work a token than it did that day (36–37 µs), or such seconds no longer standing out. Nor kept: the fake provider's and this reader's main threads run at a lower priority (\`renice\` 10) while the relays are read, as if they ran on machines of their own: the fake's tokens then left late and this reader read them late, and every read through a relay lost (three single rounds each, alternating: Kontor +93.7, +100.2 and +64.2 ms against +53.7, +82.8 and +58.7 ms, the bare relay +32.9, +34.0 and +60.3 against +14.8, +31.7 and +36.9 ms). Nor kept: the search index's transactions at the replies' ends taking 16 replies each instead of 64 (three single rounds each, alternating): +45.7, +123.0 and +98.1 ms against +95.1, +79.4 and +106.9 ms: within the spread, and peaks of 216–223 against 218–272 MB. Since decision 0117 (2026-11-30) Kontor\'s JavaScript heap grows to 1.5 times what its last full collection left before it is collected in full again; with Bun\'s defaults (about 3 times on a machine with 16 GB or more, as the one of that day) the objects that eden collections moved to the old generation piled up over the round (logged: 154 to 211 MB of heap between two full collections): 13 single rounds each on 2026-11-30, alternating with Bun\'s defaults given to Kontor (\`BENCH_SERVER_ENV\`), gave peaks of 218–236 MB against 262–295 MB, 128–138 MB before the round against 169–179 MB, p99 gaps of +38.6–91.4 ms (median +45.5) against +28.2–51.6 ms (median +42.4), and 46–55 against 45–52 µs a token; 2 times (\`heapGrowthMaxIncrease\` 1) peaked at 281–298 MB. Since decision 0118 (2026-11-30) calls made together take turns on one database connection (before, the pool grew to its 20 connections, and the page cache of each was dropped whenever another one wrote): a single round and the two rounds recorded that day at 04:13 UTC gave 122 and 125 MB before the round, peaks of 215 and 227 MB and p99 gaps of +46.5 and +49.9 ms: less memory than in the 13 rounds above, the p99 gaps within their spread. After decision 0120 (2026-11-30: less before each model call, among it the system prompt’s date line kept per minute) a single round gave 122 MB before the round, a peak of 211 MB and a p99 gap of +33.2 ms, and the two rounds recorded after it (06:27 UTC) +39.5 ms, 136 MB before the round and a peak of 218 MB. The two rounds recorded on 2026-11-30 at 18:22 UTC ran after decisions 0126–0128 (a chat’s reply context kept, a network chunk’s text tokens read as they stand, the SSE reader’s offer of text events where they stand); that evening nine single rounds each, alternating decision 0128 with the commit before, gave p99 gaps of +41.1–67.5 ms (median +47.5) against +38.3–62.2 ms (median +45.9), peaks of 208–216 MB against 204–218 MB, and 46–51 against 45–52 µs a token. Since decision 0129 (2026-11-30) JavaScriptCore leaves the server at most nine tenths of the time while it collects concurrently (Bun ran with 0.6 on this machine): seven single rounds gave p99 gaps of +26.9–43.0 ms (median +34.3) against +30.9–47.5 ms (median +42.2) in six with 0.6 (a seventh, +89.8 ms at 37 µs a token, unlike any other round that evening, left out), peaks of 210–217 against 201–213 MB, and 44–47 against 45–50 µs a token. The reader, the fake provider and Kontor share the machine's cores. ${fromSourceFiles ? 'In this run Kontor ran from its source files (`src/main.ts`, BENCH_SOURCE_FILES=1). ' : ''}Since decision 0114 this bench runs Kontor as \`npm start\` runs it, the server bundle built from the checkout (before, \`src/main.ts\`): one round from the source files on 2026-11-29 at 18:12 UTC held 188 MB before the round and peaked at 299 MB, with a p99 gap of +41.0 ms. The same evening, before React\'s production build in the bundle (decision 0114), two rounds with the bundle gave +67.6 ms, 173 MB before the round and a peak of 286 MB; single rounds on a slower machine +90 ms (bundle) and +111 ms (source files). Since 2026-11-29 at 20:36 UTC a client\'s stream has a queue mark of 1 KB (decision 0115; it was 16 KB, and Bun\'s server sizes the buffer it writes a stream to the socket through by that mark): six single rounds each, alternating, peaks of 260–292 MB (median 279) against 278–298 MB (median 288), p99 gaps of +43–57 ms (median +52) against +42–112 ms (median +64), 50–59 µs a token (median 54) against 53–58 (median 57). The two rounds recorded before, on 2026-11-29 at 18:15 UTC with the 16 KB mark, gave a p99 gap of +44.3 ms, 171 MB before the round, a peak of 285 MB and 55 µs a token: the p99 gap varies more between runs (single rounds +42–112 ms with 16 KB, +43–57 ms with 1 KB) than the mark moves it. Measured that evening and not kept (single rounds, alternating): with the 16 KB mark, the streamed model calls over a socket of Bun\'s own (\`Bun.connect\`, a minimal HTTP/1.1 reader without pooling, for the measurement only): 46 µs a token and p99 gaps of +22 and +33 ms against 50–54 µs and +45–47 ms, but peaks of 372–385 MB against 281–294 MB (in a script that only reads, 58 against 73 MB); JavaScriptCore told the machine has 256 MB: peaks of 237–296 MB against 262–287 MB; with the 1 KB mark, a checkpoint of the database\'s log every 4,000 pages instead of 1,000: within the spread; the provider\'s answer read with Bun\'s \`readMany\` (all waiting chunks at once) instead of \`read\`: p99 gaps of +82–90 ms against +46–57 ms. What the appended text of the streaming replies cost before decision 0116 (every statement timed in the server, one round): the 50 ticks of a round each took about 6 ms to insert their 1,000 rows and most of their commits 4–23 ms (the rows went into the index of reply_chunks by message id, on pages all over it, and the log takes each changed page); in rounds without those appends (with the 1 KB mark; a bound, not a design: a crash would lose the streamed text) the p99 gap was +37–71 ms (median +49) against +56–64 ms (median +59), 50–58 against 57–59 µs a token. Since decision 0116 (2026-11-29, 23:10 UTC) the appended parts are keyed by a number for the reply instead of its 36-character message id, so that a tick\'s rows go into a small index: six single rounds each, alternating with the commit before, gave p99 gaps of +41.6–57.7 ms (median +48.9) against +59.5–82.3 ms (median +68.5), peaks of 267–287 MB (median 277) against 263–291 MB (median 275), and 56–59 against 55–65 µs a token (earlier that evening the commit before had given +43–57 ms in six single rounds: only the alternating rounds compare the two). After the set-up a full collection leaves 22 MB of JavaScript objects, while the process holds 157–160 MB (110 MB of it anonymous memory; measured by hand). Tried that evening, with the 16 KB mark, and not kept: the streamed model calls over node:http instead of fetch, whose answer body holds a buffer of 64 KB for the whole reply (66 MB for 1,000 streams in the heap\'s statistics; in a script that allocates as a relay does, 1,000 streams read with fetch grew the resident memory by 106–146 MB, with node:http by 44–45 MB); in Kontor one round peaked at 442 MB and cost 73 µs a token, against 297 MB and 58 µs with fetch. The memory before the round is that of a server in use (1,000 chats set up, each with a first reply): since decision 0110 its sign-up loads neither SAML\'s nor the passkeys\' libraries, and since decision 0111 only the API domains used load; in single rounds on 2026-11-29 it held 178–193 MB before the round against 206–225 MB before decision 0110, and peaked at 295–301 against 302–306 MB: the peak depends more on the collector\'s headroom over the memory of relaying 1,000 streams than on the memory the round starts from.\n\n` +
    'Until 2026-11-26 this bench read at most 256 replies at once (Bun\'s fetch runs 256 requests at once unless started with BUN_CONFIG_MAX_HTTP_REQUESTS), and so did Kontor\'s model calls; both now run all 1,000 (decision 0087). ' +
    'Where the time goes (a timer in the server that notes how late it fires, the SQL timed per statement, the CPU time of each thread, and the gaps over 85 ms counted per second of the round): the process is busy about one core\'s worth for the whole round, its main thread 70% of it, the HTTP client thread (the 1,000 model calls) most of the rest. SQL was about a sixth of the main thread on 2026-11-27 (the sends\' writes, the replies\' last writes with the search index\'s new entries, the usage records, their commits); the rest is relaying the tokens: reading each network chunk of the provider, passing its event through the adapter (which reads a token\'s event by a template, decision 0095), the gateway, the usage meter and the tool loop (async generators), and writing the frame. ' +
      'Found on 2026-11-27 by counting the gaps over 85 ms per second of a round (not measured by this script): nine in ten came from the round\'s last seconds, when its replies end within about two seconds, each end writing and committing alone, twice (the reply, its usage), about 400 µs a commit on the event loop. Since the writes asked for in one turn of the loop are committed together (decision 0097), most of those gaps are gone; what remains fell mostly in the first seconds, while the sends begin. The turns of the last seconds still grew (a batch that held the loop let more replies end before the next one): batches of up to 144 statements, 30–70 ms each; since decision 0106 a batch holds at most 32 statements and the rest go first in the next turn (nine single rounds each, alternating, on 2026-11-29: peaks of 301–321 MB, median 312, against 321–336, median 329; p99 gaps no better, +61–151 ms, median +75, against +45–93, median +74). On this machine a commit takes 4–30 ms (the log\'s pages, and every thousand pages a checkpoint with its syncs), and the p99 of 1,000 streams follows the few longest holds of the loop: a hold delays a token of every stream at once. ' +
      'A burst of sends starts eight per turn (decision 0094): before, the 1,000 sends arriving together held the loop three times for about 600 ms. The appends of the streaming text (one batch every 300 ms for all replies) took 5–7 ms a tick before decision 0116; in the same batch the tick asks which replies to stop and reads back only those (timed in the server: 1.1–1.6 ms a tick; in a script over 20,000 messages, 3.8–4.3 ms against 5.3–6.9 ms when it read back the rows of all 1,000). Since decision 0107 a reply\'s end no longer puts it in the search index: the replies that ended are indexed together, up to 64 a transaction, about a second later (on 2026-11-29, every statement timed in the server, one round each: a reply\'s last write took 332 µs against 774, each of those transactions took about 3.5 ms, and SQL on the event loop took 2.5 s in the 20 s timed, against 3.0 s; three single rounds each, alternating, left the p99 gap and the peak within the spread). ' +
      'After each chunk the relay waits until its write has left the process (two turns of the loop, decision 0102); the replies writing in one turn share that wait and one backstop timer for their frame queues (decision 0105: six single rounds each, alternating with the commit before, on 2026-11-29: p99 gaps of +65–100 ms, median +73, against +86–120, median +106; peaks the same within the spread, 309–334 against 313–355 MB), where before each reply set a pair of immediates and a timer for every chunk. ' +
      'The machine matters: the runs from 2026-11-29 are on one that spends 49–64 µs of CPU time a token on the same code where the runs of 2026-11-27 spent 44, and the p99 gap rises with the time the main thread is busy: there the event loop was busy nearly the whole round (a 2 ms timer in the server, on 2026-11-29: turns of over 15 ms added up to 14.8 s of a round of 17 s), so that the gap follows the CPU time a token costs on the main thread, about a third of it SQL before decision 0107 (the replies\' appended text, their beginnings and ends with the search index, the commits). ' +
      'The cores are full: on 2026-11-29 (this machine, single rounds) Kontor, the fake provider and this reader together used 31–35 s of CPU time in rounds of 16–19 s on two cores; the same timer in the server found turns of 40–80 ms every 50–100 ms through the whole round, not bursts at its start or end, so that the gap follows Kontor\'s CPU time a token on a loop that is rarely idle. Measured and not adopted (2026-11-29, three single rounds each, alternating): the replies\' streams to the reader written straight to the socket (Bun\'s `direct` streams, without the standard stream\'s queue): 53–61 µs a token and p99 gaps of +51–82 ms, against 56–61 µs and +67–73 ms; the fake provider writing its text events from a template instead of building each with JSON.stringify (the same bytes): its CPU time in a round 8.9–10.0 s against 9.2–10.5 s, the p99 gap within the spread. ' +
      'Memory (measured by hand on 2026-11-27, not by this script: heap snapshots, the allocator\'s statistics, resident memory sampled every 250 ms). ' +
      'Until decision 0103 the peak came in the round\'s last second, when the replies end together: building their last statements anew (the reply\'s last write, the price look-up, the usage row and roll-up) allocated up to 720,000 arrays and lifted the resident memory by 60–80 MB above its level while streaming; prepared once, the ends no longer rise above that level (three single rounds each, alternating with the commit before: peaks of 326–344 MB against 374–393 MB, p99 gaps of +31–39 ms against +47–51 ms). ' +
      'That level is 280–345 MB. In a snapshot in the middle of a round (taken after a full collection) the JavaScript heap holds 135 MB, against 36 MB before the round: of the 99 MB more, 66 MB are the buffers Bun\'s fetch reads the model calls\' answers into (64 KB each, one per call) and 17 MB the sinks of the 1,000 streams to the reader (16 KB each, before decision 0115), both Bun\'s own and the same in a bare relay; Kontor\'s own objects for a streaming reply are about 16 KB (its state, the tool loop\'s and the adapters\' generators, promises, the watchdog). Bun\'s fetch buffers, measured on 2026-11-29 in a script (1,000 streaming fetches from a server on the same machine, three rounds): the collector counted 63 MB of them, and the script\'s resident memory grew by 22 MB: most of each 64 KB buffer is never written and so not resident, though the collector counts it in the heap\'s size; reading the answers through `node:http` instead held more (53–55 against 44–48 MB resident). ' +
      'A bare relay in Bun (fetch, parse, write; no Kontor) peaks at 106–142 MB in this bench, from 17–19 MB. Kontor starts the round higher (165–240 MB after the set-up\'s 1,000 chats and first exchanges; 86 MB warm, on 2026-11-27) and adds the database\'s memory (the C library\'s heap, about 26 MB at the peak) and the garbage of about 40 µs of relaying per token between collections. ' +
      'What the collector\'s policy does (tried on 2026-11-27, JavaScriptCore options through the environment, rounds of this bench): without generations (every collection full) the peak is 240–241 MB, but the p99 gap rises to +58–79 ms and Kontor\'s CPU time by 15–20%; told the machine has 256 MB (so that it collects as if memory were short) 261 MB at +62 ms; a smaller growth factor of the heap, Bun\'s more eager collection level, a larger assumed memory (384 or 512 MB), a full collection every 250–500 ms asynchronously, or the allocator\'s options (purging at once, page retention) leave the peak within the spread of 320–350 MB; a full collection every 500 ms synchronously gives 267 MB at +70 ms. Earlier (also by hand): the memory held before the round is not the peak (a full collection after the set-up brought it from about 240 to 155 MB, and the round still peaked at 368 MB, before decision 0103).'
  console.log(table)
  console.log(reading)
  if (STREAMS === 1000 && !process.env.BENCH_NO_WRITE) {
    writeSection(
      '## Concurrency (bench/concurrency.ts)',
      `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}, load average ${fmt(load[0]!)} at the start and ${fmt(load[1]!)} at the end, ${quietText([quiet])}.\n\n${table}\n\n${reading}`,
    )
  }
} finally {
  await kontor.stop()
  fakeProcess.kill()
  relayProcess.kill()
}
