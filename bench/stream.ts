/**
 * Chat streaming through Kontor against reading the fake provider directly, in one run: replies
 * of 1,000 and 5,000 tokens from a fast provider (20 tokens per network chunk), 1 and 200 at a
 * time, rounds alternating. Reports the streaming throughput (tokens from the first to the last,
 * per second), the time to first token Kontor adds, and bytes on the wire per byte of text; one at
 * a time also the first token through a bare relay (what any relay on Bun's fetch and streams adds
 * on this machine, bench/relay-floor.ts), as a yardstick.
 * Before each size's rounds it waits for a quiet machine (at least 90% idle over a second, quietMachine).
 * Writes "## Chat stream (bench/stream.ts)".
 * Run: node_modules/.bin/bun bench/stream.ts (Kontor as `npm start` runs it, the server bundle;
 * BENCH_SOURCE_FILES=1 runs its source files; BENCH_PROVIDER_HOST=localhost gives it the provider by name;
 * BENCH_NO_WRITE=1 prints only)
 */
import { loadavg } from 'node:os'
import { machine, pct, providerTokens, type Quiet, quietMachine, quietText, readReply as read, register, shuffled, startBareRelay, startFakeProvider, startKontor, type ReplySample as Sample, writeSection } from './lib'

const SIZES = [1000, 5000] as const
const PORT = Number(process.env.BENCH_PORT ?? 3520)
const FAKE_PORT = PORT + 1
const RELAY_PORT = PORT + 2
/** A fast provider: 20 frames (tokens) in each network chunk. */
const promptOf = (tokens: number) => `[[fake:tokens=${tokens}]][[fake:burst=20]] go`
const textOf = (tokens: number) => Array.from({ length: tokens }, (_, i) => `t${i}`).join(' ')
/** BENCH_STREAMS=1 (or 200) runs one level only, e.g. to profile it; only a full run writes RESULTS.md. */
const LEVELS = ([[1, 60], [200, 2]] as const).filter(([n]) => !process.env.BENCH_STREAMS || process.env.BENCH_STREAMS === String(n))

// The fake runs in its own process, so that neither side measures the other's CPU.
const fakeProcess = await startFakeProvider(FAKE_PORT)
const fakeUrl = `http://127.0.0.1:${FAKE_PORT}`
// The yardstick: a bare relay in a process of its own, which hands the fake's network chunks on as they come.
const relayProcess = await startBareRelay(RELAY_PORT, FAKE_PORT)
/** BENCH_PROVIDER_HOST=localhost gives Kontor the provider by name, as providers are reached in production (the reader still reads it by address). */
const providerUrl = `http://${process.env.BENCH_PROVIDER_HOST ?? '127.0.0.1'}:${FAKE_PORT}`
const kontor = await startKontor({ port: PORT, env: { OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: `${providerUrl}/v1` }, bundle: process.env.BENCH_SOURCE_FILES !== '1' })
const base = kontor.base

/** The fake's own answer, read from `url`: the fake itself (`direct`), or the bare relay in front of it. */
async function providerAnswer(url: string, size: number): Promise<Sample> {
  const start = performance.now()
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
    body: JSON.stringify({ model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: promptOf(size) }] }),
  })
  return read(res, providerTokens, start)
}
const direct = (size: number) => providerAnswer(`${fakeUrl}/v1/chat/completions`, size)
const throughRelay = (size: number) => providerAnswer(`http://127.0.0.1:${RELAY_PORT}/`, size)

// Kontor merges the tokens of one provider chunk into one frame: its words are the tokens.
const words = (f: string) => (JSON.parse(f.slice(f.indexOf('data: ') + 6)) as { delta: string }).delta.split(' ').filter(Boolean).length

/** A new reply to the chat's last message (the prompt), so that the history stays the same each round. */
async function throughKontor(cookie: string, threadId: string): Promise<Sample> {
  const start = performance.now()
  const res = await fetch(`${base}/api/threads/${threadId}/regenerate`, { method: 'POST', headers: { cookie, origin: base } })
  // A frame starts with its id (for Last-Event-ID), then its event.
  return read(res, (f) => (/^event: text$/m.test(f) ? words(f) : 0), start)
}

/** A send to a new chat (made first, not timed): the everyday path, with the user message written too. */
async function sendThroughKontor(cookie: string, size: number): Promise<Sample> {
  const headers = { cookie, origin: base, 'content-type': 'application/json' }
  const thread = (await (await fetch(`${base}/api/threads`, { method: 'POST', headers, body: '{}' })).json()) as { id: string }
  const start = performance.now()
  const res = await fetch(`${base}/api/threads/${thread.id}/messages`, { method: 'POST', headers, body: JSON.stringify({ content: promptOf(size) }) })
  return read(res, (f) => (/^event: text$/m.test(f) ? words(f) : 0), start)
}

async function setup(threads: number) {
  const cookie = await register(base)
  const post = (path: string, body: unknown) =>
    fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', cookie, origin: base }, body: JSON.stringify(body) }).then((r) => r.json())
  await post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
  await post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
  const ids: string[] = []
  for (let i = 0; i < threads; i++) ids.push(((await post('/api/threads', {})) as { id: string }).id)
  return { cookie, ids }
}

/** Sends `content` to every chat (not measured): the last message the rounds regenerate replies to. */
async function ask(session: { cookie: string; ids: string[] }, content: string) {
  for (let i = 0; i < session.ids.length; i += 20) {
    await Promise.all(session.ids.slice(i, i + 20).map((id) => fetch(`${base}/api/threads/${id}/messages`, {
      method: 'POST', headers: { 'content-type': 'application/json', cookie: session.cookie, origin: base }, body: JSON.stringify({ content }),
    }).then((r) => r.text())))
  }
}

/**
 * `concurrency` streams at once, `rounds` times: directly and through Kontor (and at one stream a
 * send and a read through the bare relay) in turn, in a new random order every round, so that each
 * follows each of the others about as often (the reader's own work on the reply before, its
 * collections among it, falls on all of them).
 */
async function run(size: number, concurrency: number, rounds: number, session: { cookie: string; ids: string[] }) {
  const results = { direct: [] as Sample[], kontor: [] as Sample[], sends: [] as Sample[], relay: [] as Sample[] }
  const steps = [
    async () => results.direct.push(...(await Promise.all(Array.from({ length: concurrency }, () => direct(size))))),
    async () => results.kontor.push(...(await Promise.all(session.ids.slice(0, concurrency).map((id) => throughKontor(session.cookie, id))))),
    ...(concurrency === 1 ? [async () => results.sends.push(await sendThroughKontor(session.cookie, size)), async () => results.relay.push(await throughRelay(size))] : []),
  ]
  for (let r = 0; r < rounds; r++) for (const step of shuffled(steps)) await step()
  return results
}

const fmt = (n: number, digits = 1) => n.toFixed(digits)
/** The shortest span from first to last token that is timed. */
const SPAN_MS = 0.5
/**
 * Tokens per second from first to last token. One at a time: the median of the replies' own rates
 * (a reply of 1,000 tokens spans about a millisecond, so a single pause of the machine in one
 * reply, on either side, would outweigh all the others in a sum). Several at once (`at` replies
 * per round, started together): all the round's tokens over the time from its first token to its
 * last, as the replies share the machine.
 */
const rate = (xs: Sample[], at = 1) => {
  // A reply whose tokens reached the reader in one read (within half a millisecond) was too fast
  // to time: it ranks above every timed one (the same tokens in less time), on either side.
  if (at === 1) return pct(xs.map((x) => (x.last - x.ttft > SPAN_MS ? x.tokens / ((x.last - x.ttft) / 1000) : Infinity)), 50)
  let seconds = 0
  for (let i = 0; i < xs.length; i += at) {
    const round = xs.slice(i, i + at)
    seconds += (Math.max(...round.map((x) => x.last)) - Math.min(...round.map((x) => x.ttft))) / 1000
  }
  return xs.reduce((s, x) => s + x.tokens, 0) / seconds
}

try {
  const load = [loadavg()[0]!]
  const session = await setup(200)
  // Titles come with the first exchange: not in the measured replies.
  await ask(session, 'hello')
  const rows: string[] = []
  const readings: string[] = []
  const quiet: Array<Quiet | null> = []
  for (const size of SIZES) {
    await ask(session, promptOf(size))
    await run(size, 1, 3, session) // warm-up
    // The replies asked for put in the search index (a second after they end) and any work left from before: done first.
    quiet.push(await quietMachine())
    const textBytes = new TextEncoder().encode(textOf(size)).byteLength
    for (const [concurrency, rounds] of LEVELS) {
      const r = await run(size, concurrency, rounds, session)
      if ([...r.kontor, ...r.sends].some((s) => s.tokens !== size)) throw new Error('a reply through Kontor lost tokens')
      if (r.relay.some((s) => s.tokens !== size)) throw new Error('a reply through the bare relay lost tokens')
      const ttft = (xs: Sample[], p: number) => pct(xs.map((x) => x.ttft), p)
      const wire = (xs: Sample[]) => xs.reduce((s, x) => s + x.bytes, 0) / (xs.length * textBytes)
      // A reply that reaches the reader in one read has no span to measure a rate over: one at a
      // time it counts as the fastest (see rate); a round at 200 has one span for all its replies.
      // The time to the last token, from the request, is reported too: a relay that held tokens
      // back and sent them in a rush would look fast from first token to last, but not there.
      const last = (xs: Sample[], p: number) => pct(xs.map((x) => x.last), p)
      const oneRead = r.kontor.filter((x) => x.last - x.ttft <= SPAN_MS).length
      const kontorRate = rate(r.kontor, concurrency)
      const spanned = Number.isFinite(kontorRate)
      const ratio = spanned ? `${fmt(kontorRate / rate(r.direct, concurrency), 2)}×${oneRead ? ` (${oneRead} of ${r.kontor.length} in one read)` : ''}` : 'in one read'
      rows.push(
        `| ${size} | ${concurrency} | ${ratio} | ${fmt(last(r.kontor, 50) - last(r.direct, 50))} ms | ${fmt(ttft(r.kontor, 50) - ttft(r.direct, 50))} ms | ` +
          `${fmt(ttft(r.kontor, 95) - ttft(r.direct, 95))} ms | ${r.sends.length ? `${fmt(ttft(r.sends, 50) - ttft(r.direct, 50))} ms` : '—'} | ${r.relay.length ? `${fmt(ttft(r.relay, 50) - ttft(r.direct, 50))} ms` : '—'} | ${fmt(wire(r.kontor), 2)}× | ${fmt(wire(r.direct), 2)}× |`,
      )
      readings.push(`${size} tokens, ${concurrency} at a time: ${fmt(rate(r.direct, concurrency) / 1000)}k tokens/s direct, ${spanned ? `${fmt(kontorRate / 1000)}k` : 'most in one read'} through Kontor, first token after ${fmt(ttft(r.direct, 50))} ms and ${fmt(ttft(r.kontor, 50))} ms${r.relay.length ? ` (${fmt(ttft(r.relay, 50))} ms through the bare relay)` : ''}`)
    }
  }
  load.push(loadavg()[0]!)
  const table = [
    'Replies from the fake provider (a separate process, 20 tokens per network chunk), read directly and through Kontor (SSE over HTTP, each reply persisted; a new reply to the same message each round, and at one stream also a send to a new chat and, as a yardstick, a read through a bare relay: a Bun server that calls the fake with `fetch` and hands each network chunk on, bench/relay-floor.ts, decision 0135), interleaved in one run (' + LEVELS.map(([n, rounds]) => `${rounds} rounds at ${n} at once`).join(', ') + ', in a new random order every round). ' +
      'Throughput counts the tokens between a reply’s first and last token (one at a time the median of the replies’ rates), at 200 at once all the tokens of a round between its first and its last (“in one read”: Kontor’s frames of a reply reached the reader together, too fast to time; one at a time, such a reply ranks as the fastest in the median); the times to the first and to the last token, from the request, are reported apart.',
    '',
    '| Tokens | Streams at once | Throughput, Kontor / direct | Added time to last token, p50 | Added time to first token, p50 | Added, p95 | Added, p50, a send to a new chat | Added, p50, a bare relay | Bytes on the wire per byte of text, Kontor | Direct |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n')
  console.log(table)
  console.log(readings.join('\n'))
  if (LEVELS.length === 2 && !process.env.BENCH_NO_WRITE) {
    writeSection(
      '## Chat stream (bench/stream.ts)',
      `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}, load average ${fmt(load[0]!)} at the start and ${fmt(load[1]!)} at the end, ${quietText(quiet)} at ${SIZES.map((n) => n.toLocaleString('en')).join(' and ')} tokens.\n\n${table}\n\n` +
        `**Reading.** ${readings.join('; ')}. ` +
        'The run recorded on 2026-11-30 at 22:01 UTC (the code of decision 0130, without the bare relay’s reads, the order rotating; the provider read directly at 560–600k tokens a second), gave a new reply’s first token 1.7 and 1.1 ms later than directly, a send’s 1.9 and 1.7 ms, 1.72× and 1.03× of the direct rate one at a time and 0.74× and 0.75× at 200 at once. ' +
        'What the relay does (decisions 0024, 0041, 0091, 0095): it reads the provider with its own SSE reader, and what one network chunk brought leaves in one write as soon as it is parsed, ' +
        'the chunk’s text deltas merged into one frame, so Kontor sends less than the provider’s verbose chunks; a chunk of more than 32 messages (the answer of a provider faster than the relay piles up in chunks of 256 KB, about 1,500 tokens) is parsed 32 messages first and then 1,024 at a time, and after each write the relay waits until the write has left the process (two turns of the event loop, decision 0102) before the provider is read on. ' +
        'Since decision 0117 (2026-11-30) Kontor’s JavaScript heap grows to 1.5 times what its last full collection left before it is collected in full again (for 1,000 replies at once, bench/concurrency.ts), so that a reply’s garbage is also collected in full more often: one reply at a time, eight runs each that day, alternating with Bun’s defaults given to Kontor (`BENCH_SERVER_ENV`), medians: the whole reply 2.45 against 1.8 ms and 4.05 against 2.5 ms later than directly at 1,000 and 5,000 tokens, 1.24× against 1.29× and 0.98× (0.92–1.06) against 1.04× (0.95–1.06) of the direct rate, the first token 3.05 against 2.7 ms and 2.95 against 2.7 ms. ' +
        'Throughput: where the provider is faster than Kontor, the rate is Kontor’s cost per token. The direct reader parses every event in full; Kontor parses an event that differs from the last one only in its text by that text alone (a template, decision 0095), and passes the events of one network chunk through the gateway, the usage meter and the tool loop as one (decision 0095); the time to the last token shows what a reply costs from the request to its end; a model’s own pace (a token every 20–50 ms, bench/concurrency.ts) is far below either. ' +
        'Before the first token it reads the session (a signed cookie is checked once per process, decision 0100), the chat, the model, tools, attached files and budgets (since decision 0126 only where the chat’s context is not kept) and the chat’s history (statements prepared once, decision 0093), then calls the provider; the request leaves before the new reply is committed (its lock; decisions 0085 and 0093; the batch’s statements are prepared once, decision 0101), and frames leave once that commit is done. ' +
        'Since decision 0118 (2026-11-30) the statements of a request take turns on one database connection, where before each call made together with others borrowed one of its own (SQLite drops a connection’s page cache whenever another connection has written), and a new reply takes the reply it replaces from the history read for the early call instead of reading it again. Timed in the server that day (marks at each step, 66 new replies a run, medians): the provider was called 1.08–1.18 ms after the request came in, against 1.47–1.52 ms, and the batch that begins the reply started at 1.37–1.40 ms, against 1.92–1.97 ms; end to end, three runs each alternating with the client before, the first token came 2.7–3.1 and 2.3–3.2 ms later than directly, against 2.5–3.5 and 2.6–3.3 ms (1,000 and 5,000 tokens). ' +
        'What remains after the call, timed the same way with the fake’s times on the same clock: the fake has the request 0.28 ms after the call and writes its first chunk at 0.73 ms; Kontor’s fetch sees it at 1.26 ms, although Kontor’s main thread is idle from about 0.95 ms (Bun’s fetch reads the answer on a thread of its own and hands it over; the fake, which floods one core, and the reader share the two cores with those threads); the response’s status and first frame reach the reader 0.7–0.9 ms after Kontor’s handler returned it, where the request took 0.17–0.2 ms the other way. Written straight to the socket (a `direct` stream, one run), they came no sooner. Since decision 0119 the batch that begins a reply checks that the chat is as read (the message the user message follows, or that the new reply was written) instead of reading its branch back: a send in a chat of 1,000 messages got its first token after 17.2–17.7 ms instead of 22.9–24.7 ms (timed by hand: medians of 40 sends, two runs each, alternating). ' +
        'Since decision 0120 (2026-11-30) less runs before the model call: the outbound resolver keeps a host’s addresses for 30 s (before, every model call to a provider by name looked its host up through node:dns: each request connects to the addresses it checked, so Bun’s own cache of lookups never served it), the system prompt’s date line is kept per minute (ICU’s date format, cold between requests, took 30–40 µs), a new reply reads the text of the reply it replaces only when that failed (a 5,000-token reply’s 30 KB made the read 46–72 µs longer than at 1,000 tokens, two runs), and a request whose addresses need no lookup leaves within the outbound call (before, it waited for the synchronous part of the writes that begin the reply, about 40 µs). Timed in the server that day (marks at each step, medians of one run): before these changes the history read before the call took 97 and 143 µs at 1,000 and 5,000 tokens (114 and 186 µs with the system prompt in another run), and the system prompt 37–40 µs. End to end, alternating with the commit before (BENCH_STREAMS=1, eight runs each, the last four with the request leaving at the call): a new reply’s first token came 1.9–3.9 and 1.8–3.8 ms later than directly at 1,000 and 5,000 tokens (medians of the runs 2.5 and 2.2 ms), against 1.9–3.0 and 1.9–4.6 ms (2.55 and 2.9 ms); at 5,000 tokens the new code was sooner in seven of the eight pairs, at 1,000 tokens the two are within the spread; with the provider by name (`BENCH_PROVIDER_HOST=localhost`, two runs each) 1.9–2.8 and 2.1–2.2 ms against 2.8–2.9 and 2.5–2.8 ms, a send’s 1.5–2.6 against 2.5–3.3 ms. Since decision 0121 (2026-11-30) the writes that begin a reply (a send’s or a new reply’s) hold no update of abandoned replies where the history read before them found no reply streaming (36 µs of that batch in one sample; the batch runs on the event loop while the provider answers), and whether the chat’s files can be searched is taken from the files read anyway: twelve runs each, alternating with the commit before the first of these (`BENCH_STREAMS=1`), gave a new reply’s first token 1.8–2.7 and 1.7–3.2 ms later than directly (medians 2.25 and 2.0 ms) against 2.2–3.6 and 1.7–3.5 ms (2.5 and 2.35 ms) at 1,000 and 5,000 tokens, sooner in ten of the twelve pairs at 1,000 tokens and in seven at 5,000; a send’s within the spread. ' +
        'Since decision 0126 (2026-11-30) a process keeps a chat’s reply context (the model and its provider, the agent, the tools, the chat’s files and collections, whether a budget applies) while the database’s context version, changed by triggers with every write to a table it is read from, is unchanged: a new reply in a chat already answered reads the version and the chat instead of six to eight statements (a send to a new chat reads its context as before). Timed in the server that day (marks, three runs each alternating with the code before, 198 sends and new replies each): the provider was called 0.80 ms after the request came in (quartiles 0.67–0.95), against 1.11 ms (0.94–1.27), and the first text frame left at 2.25 against 2.69 ms. End to end (`BENCH_STREAMS=1`, eight runs each, alternating): a new reply’s first token came 2.3 and 1.95 ms later than directly at 1,000 and 5,000 tokens (medians of the runs), against 2.7 and 2.25 ms, sooner in eight and six of the eight pairs; a send to a new chat 2.65 and 1.9 against 2.9 and 2.25 ms. ' +
        'Since decision 0127 (2026-11-30) a text token without escapes is taken as it stands between its quotes, and the tokens of a run within one network chunk are joined into one new string (a run of one token is parsed, as every token was before): in a CPU profile of 300 new replies of 5,000 tokens, `JSON.parse` fell from 16.3% of Kontor’s samples to 0.6%, and the samples from 6,818 to 6,169; nine runs each, alternating with the commit before (six with `BENCH_STREAMS=1`, three full), gave one reply at a time 1.36× against 1.10× of the direct rate at 1,000 tokens and 0.96× (0.77–1.09) against 0.87× (0.80–1.12) at 5,000 (medians of the runs; in the three full runs 1.03×, 0.95× and 0.96× against 0.84×, 0.84× and 0.87×), the first token and 200 replies at once within the spread. ' +
        'Where the first milliseconds go after decision 0126 (2026-11-30; one run timed in the server, with the fake’s and this script’s times on the same clock, about 33 new replies and 33 sends at each size; medians, given as ranges over the two sizes and the two kinds of request): Kontor starts the provider call 0.54–0.77 ms after it has the request (the session read by 0.12–0.35 ms, the chat and the context version by 0.24–0.49 ms, a new reply’s history read before the call in 110–250 µs, a send’s in 30–50 µs); Bun’s `fetch` is called 40–120 µs later (the outbound checks); the fake has the request 144–162 µs after that (about as long as this script’s own requests take) and writes its first chunk 307–505 µs later; meanwhile the batch that begins the reply takes 275–446 µs on the event loop, and the loop is then idle from 1.0–1.35 ms after the request; Kontor’s fetch sees the fake’s first chunk 283–714 µs after the fake wrote it (lower quartiles 142–280 µs, upper quartiles 1,469–3,022 µs), and its first text frame leaves 138–155 µs after that; this script reads it 175 µs later (lower and upper quartiles 122 and 1,018 µs), where it reads the fake’s first chunk directly 190 µs after the fake wrote it (157 and 533 µs). So a reply through Kontor crosses two connections between processes where one read directly crosses one, and on two cores both have upper quartiles about 2–6 times the direct one’s; that suggests (not measured across runs) that those tails, more than Kontor’s steps before the call, spread its first token over runs. In that run 9% of Bun’s `fetch` calls (of about 160 timed) took 0.5–3.3 ms to return, although the request had reached the fake within 0.2 ms; in another run, logged with `BUN_JSC_logGC=1`, no collection of the heap was logged within any of about 1,000 calls. The likely cause (not measured): more threads ready to run than the two cores (the fake answering, Kontor’s main thread and its fetch’s), so one waits for a core. A script that only reads the fake (no Kontor) saw a streamed answer’s first chunk 120–200 µs after the fake had written it at the median, and 0.6–1.6 ms at the 90th percentile. Tried that day and not kept (six runs each, alternating, `BENCH_STREAMS=1`, medians of the runs): keeping a member’s model, tools, budgets and provider for a new chat too (without any check, as an upper bound) left a send’s first token within the spread (2.2 and 1.85 ms against 2.35 and 1.4 ms at 1,000 and 5,000 tokens); holding the response back until the provider’s first event, so that this script wakes once for the start and the first text, also within the spread (a new reply’s first token 2.2 and 1.8 ms against 2.2 and 1.75 ms). ' +
        'What any relay adds, measured later that day (bench/relay-floor.ts, its own section here: a bare Bun relay that only calls the fake with `fetch` and hands its chunks on, against reading the fake directly; four runs, the last one recorded, the three before it in a fixed rotation of the reads): 0.20–0.67 and 0.20–0.35 ms at the median at 1,000 and 5,000 tokens; work before its call adds about its own length or more (400 µs: 0.58–1.17 and 0.62–0.73 ms in all; 800 µs: 1.01–1.89 and 1.02–1.15 ms), work right after its call, while the fake answers, little (400 µs: 0.34–0.67 and 0.21–0.30 ms). Kontor’s steps before the provider call took 0.87 ms that day (quartiles 0.72–1.10 ms, timed in the server, new replies and sends together) and 0.69 ms in the run timed before (0.56–0.94 ms): so at the median those steps, more than the connections, likely account for most of what Kontor’s first token holds beyond a relay’s floor (an inference from the two measurements; the paragraph before is about the spread between runs). Tried that day and not kept (alternating runs, `BENCH_STREAMS=1`): an HTTP/1.1 client of Kontor’s own on Bun’s sockets for providers reached by plain HTTP, which a script reading a local stream saw at its first chunk 341 µs after the request (medians) against 771 µs with `fetch`, 1,040 µs with node:http and 1,164 µs with undici; in Kontor (three runs each) the first token came no sooner (2.6–3.0 and 2.8–5.1 ms against 2.5–3.1 and 1.8–2.2 ms) and the rate fell (0.92–0.94× against 1.20–1.88× at 1,000 tokens, 0.83–0.93× against 0.84–1.01× at 5,000): there were more frames (1.53× and 1.41× the text’s bytes on the wire in one run), likely because the socket hands over smaller reads than `fetch` (not measured). As an upper bound, the batch that begins a new reply left out altogether (the reply not written): a new reply’s first token within the spread (four runs each: 1.6–2.8 and 1.5–2.0 ms against 2.1–3.0 and 1.8–2.5 ms). Kept: the SSE reader takes each field’s value straight from the network chunk’s text instead of cutting each line out first, and keeps a message’s one data line as a string instead of an array per message; in CPU profiles of 300 new replies of 5,000 tokens (four runs each, alternating) the reader’s own time came to 827–1,083 ms against 955–1,401 ms, and one reply at a time stayed within the spread (six runs each at 5,000 tokens: 0.88–1.03× against 0.73–1.22×, medians 0.995× and 0.99×). ' +
        'Since decision 0128 (2026-11-30) the SSE reader offers each message of one data line to the adapter where it stands in the network chunk’s text, before making a message of it, and the adapters take the events that are only text there: in CPU profiles of 300 new replies of 5,000 tokens (source files, three runs each, alternating) the reader, template, adapter loop and decoding came to 1,956–2,532 ms against 2,148–2,586 ms and the profiles’ whole time to 4,988–5,899 ms against 5,025–6,037 ms (medians 5,049 and 5,840); end to end (six runs each) one reply at a time at 5,000 tokens 0.83–1.17× against 0.94–1.11× of the direct rate (medians 1.085× and 1.055×) and a new reply’s first token 1.4–2.5 against 1.2–2.9 ms later than directly at 1,000 tokens (medians 1.95 and 2.2 ms) and 1.6–2.8 against 1.5–2.9 ms at 5,000 (medians 2.1 and 1.85 ms), within the spread; 1,000 slow replies at once (bench/concurrency.ts, nine rounds each) within the spread too. Since decision 0129 (2026-11-30) JavaScriptCore leaves the server at most nine tenths of the time while it collects concurrently (Bun ran with 0.6 on this machine): three alternating runs each of one reply at a time gave a new reply’s first token 1.8–2.5 against 1.6–2.0 ms later than directly at 1,000 tokens and 1.6–2.0 against 1.8–2.1 ms at 5,000, and 0.94–1.10× against 0.96–1.02× of the direct rate at 5,000 tokens, within the spread; the run recorded after it (20:44 UTC, started right after a run of bench/concurrency.ts, a load average of 1.9) missed the target at 5,000 tokens with 3.8 ms. ' +
        "Since decision 0130 (2026-11-30) the branch shown has an index of its own, so that the versions of a reply left off the branch (this bench leaves up to about 130 in the chat it asks again, about 65 of each reply) are not read to find the history: four runs each of one reply at a time, alternating with the code before, gave a new reply's first token 1.2–2.1 against 1.6–2.7 ms later than directly at 1,000 tokens and 1.5–1.7 against 1.5–2.4 ms at 5,000, within the spread; as an upper bound, a new reply's history not read at all (the plan kept per chat without any check, four runs each, alternating) gave 2.8, 2.9, 2.3 and 1.8 ms and 1.8, 2.3, 2.2 and 2.9 ms against 2.0, 1.9, 2.7 and 2.0 ms and 2.2, 2.7, 2.3 and 2.7 ms, within the spread too. " +
        'Since 2026-11-30 (after decision 0129) this bench waits before each size\'s rounds until the machine has been at least 90% idle for a second (`quietMachine`, bench/lib.ts: the 200 replies asked for first are put in the search index a second after they end, and a run started right after another inherits its load; the last run recorded without it, at 20:44 UTC, started right after bench/concurrency.ts at a load average of 1.9), and takes 60 rounds one reply at a time instead of 30, for a steadier median. ' +
        'The fake provider sends its first network chunk at once, as a provider does, and the rest as fast as it can (since 2026-11-27; before, its server on Bun held the first bytes back until 128–256 KB were ready, and that late first byte hid the commit that begins a reply). ' +
        'Where the first milliseconds go (medians of about 40 sends and new replies at a time, 1,000 and 5,000 tokens, timed by hand on 2026-11-27 from the moment Kontor has the request, after decisions 0100 and 0101): the session is read by 0.17–0.19 ms; the model, tools, files and budgets by 0.43–0.60 ms; the provider is called at 0.59–0.88 ms; the batch that begins the reply is committed by 1.06–1.53 ms; the first frame leaves at 1.35–2.07 ms. Before those decisions the session took 0.24–0.36 ms, and the provider was called at 0.66–0.98 ms. ' +
        'What holds the first token back at 5,000 tokens (timed by hand on 2026-11-27, the times of Kontor’s steps, of the fake’s first chunk and of the reader’s reads side by side): in some replies a pause of 2–3 ms before the first frame, in one of three places. The fake’s first chunk reached Kontor’s fetch only with the next 130–400 KB, although the fake had written it at once; the batch that begins the reply took 3 ms instead of 0.5; or Kontor read the session and the chat more slowly (1.1–1.5 ms to the provider call instead of 0.6–0.9). At 5,000 tokens the fake writes as fast as it can, and the fake, Kontor’s two threads and this script share two cores. Until decision 0102, a frame also waited in the server for the next one to be parsed: 0.9–1.2 ms from Kontor’s write to the reader at 5,000 tokens, 0.1–0.2 ms since. ' +
        'Until 2026-11-27 the order within a round was fixed (direct, a new reply, a send): the new reply always came right after this script had parsed the direct reply, and at 5,000 tokens its first token came 1–2.6 ms later than a send’s (3.9 against 1.3 ms in the last such run); rotating, the two differ by less than the spread between runs. Until 2026-12-01 the order rotated every round (each read came after the same other one: the new reply after the direct read, the direct read after the send); since then it is drawn anew every round. ' +
        'Tried and not kept (2026-11-27; since decision 0127 it is done with each run of tokens joined into a new string): taking a token’s text as it stands between its quotes, without JSON.parse, raised the throughput one at a time to 1.06–1.31× at 5,000 tokens, but the slices kept their network chunks alive (1,000 replies at once peaked at 430–477 MB); copied once per chunk, the peak was still higher than with each token parsed in five rounds of five (402–429 MB, median 407, against 360–413 MB, median 384; bench/concurrency.ts, one round each, alternating). ' +
        'A new reply to the same message begins in one batch as a send does, and the reply it replaces leaves the chat search index only when the new one ends (decision 0096). ' +
        'At 200 streams the requests arrive at once and queue for two cores shared with the fake provider and this script; they start eight per turn of the event loop (decision 0094), so the first replies stream while the last have not started, which lengthens a round’s span from its first token to its last. ' +
        (process.env.BENCH_SOURCE_FILES === '1' ? 'In this run Kontor ran from its source files (`src/main.ts`, BENCH_SOURCE_FILES=1). ' : '') +
        'Since 2026-11-29 (after decision 0114) this bench runs Kontor as `npm start` runs it, the server bundle (BENCH_SOURCE_FILES=1 for the source files). ' +
        'The run before, on 2026-11-27 17:33 UTC, read the provider directly 1.5–2.2× faster (569.6k tokens/s one at a time at 1,000 tokens, against 343.5k on 2026-11-29 at 20:54 UTC, at a load average of 1.1 against 2.1): 1.04× and 1.33× one at a time, the first token 1.4 and 3.0 ms and the whole reply 1.5 and 0.9 ms later than directly (a send’s first token 2.3 and 3.2 ms), 0.44× and 0.43× at 200 at once; that day’s runs gave a send 1.9–2.3 ms and a new reply 1.4–2.2 ms at 1,000 tokens, 2.5–3.2 and 2.1–3.0 ms at 5,000. On 2026-11-29, before decision 0115, four runs of one reply at a time gave 1.17–1.49× at 1,000 tokens and 0.97–1.15× at 5,000 (the bundle and the source files). ' +
        'Where the first milliseconds go on 2026-11-29 (a slower machine: the direct reader’s first token after 0.6–1.2 ms against 0.4 ms on 2026-11-27; sends of 5 tokens to new chats, 300–600 in a row, medians, timed by hand from the moment Kontor has the request, the fake’s times on the same clock): the route is reached at 0.27–0.38 ms (the session, the checks), the look-ups are done by 0.64–0.96 ms and the provider is called at 0.93–1.37 ms. After the call: the fake has the request at 0.32–0.47 ms and writes its first chunk at 0.53–0.75 ms; the batch that begins the reply runs from 0.16–0.27 ms to 0.76–0.96 ms, and Kontor’s response (its status and first frame) leaves 0.2 ms after that commit; Kontor’s fetch sees the fake’s answer at 1.27–1.52 ms (at 1.03–1.05 ms when the batch was held back until then, for the measurement), and the first text frame leaves 0.23–0.29 ms later. ' +
        'Tried that evening and not kept: the batch written once the provider’s answer arrived (the first text frame 2.2–2.6 ms after the call against 1.6–1.8 ms); the look-ups one after another instead of together (within the spread); a user’s message put in the search index with the replies that ended, shortly after, instead of at once (the batch 0.1–0.15 ms shorter, the first token within the spread). ' +
        'Tried on 2026-12-02 and not kept: a pause of 1.3 s before each read one at a time (so that the reply before it, and its entry in the search index a second after it ended, are done with), one run each: every read through a relay came later, not sooner: a new reply’s first token 8.9 and 9.5 ms later than directly at 1,000 and 5,000 tokens and the bare relay’s 3.4 and 4.6 ms, against 3.3 and 2.6 ms and 1.6 and 1.5 ms in the run without pauses just before; on this machine (a virtual one) processes that waited a second answer far more slowly (the cores’ and caches’ state, likely; not measured apart), so the reads follow each other without a pause. ' +
        'Other work on the machine inflates every time; compare the ratios.',
    )
  }
} catch (error) {
  console.error(error)
  process.exitCode = 1
} finally {
  await kontor.stop()
  fakeProcess.kill()
  relayProcess.kill()
}
