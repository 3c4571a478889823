/**
 * The main thread's CPU time a provider's network chunk costs in Kontor's relay, in one process
 * and without a network: the OpenAI adapter (its SSE reader and text template), the gateway, the
 * usage meter, the tool loop and a client's frame queue, fed from a stream in memory one chunk
 * (one token) per turn of the event loop, as a model at its own pace sends them. The baseline is a bare pipe that hands
 * the same chunks from the same kind of stream on to a stream of its own. Runs alternate in a new
 * random order every round. Neither side writes to a database (the reply's writer is left out).
 *
 * A gauge of the work a token costs on the main thread without the network and the other
 * processes of bench/concurrency.ts (decision 0136); the machine's own speed still moves it, so a
 * change is compared with the code before in runs that take turns.
 * Before its rounds it waits for a quiet machine (at least 90% idle over a second, quietMachine).
 * Writes "## Relay pipeline (bench/relay-pipeline.ts)" (only with the arguments' defaults).
 * Run: node_modules/.bin/bun bench/relay-pipeline.ts [replies=200] [chunks=300] [rounds=10]
 * (BENCH_NO_WRITE=1 prints only)
 */
import { loadavg } from 'node:os'
import { createProvider, withUsageMeter } from '../src/ai'
import { LiveReply } from '../src/api/chat/reply-relay'
import { REPLY_START } from '../src/api/chat/sse'
import { runToolLoop, startModelCall, type ReplyState } from '../src/api/chat/tool-loop'
import type { AppDeps } from '../src/lib/context'
import { machine, mainThread, pct, type Quiet, quietMachine, quietText, shuffled, writeSection } from './lib'

const REPLIES = Number(process.argv[2] ?? 200)
const CHUNKS = Number(process.argv[3] ?? 300)
const ROUNDS = Number(process.argv[4] ?? 10)
const WARM_UP = 4

// The chunks of one reply as OpenAI streams them (as the fake provider of the tests sends them):
// a first chunk with the role, one text token per chunk, the end with the usage, then [DONE].
const encoder = new TextEncoder()
const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
  encoder.encode(`data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1', choices: [{ index: 0, delta, finish_reason: finish }], ...extra, obfuscation: 'Xq3' })}\n\n`)
const CHUNKS_OF_A_REPLY = [
  chunk({ role: 'assistant', content: '' }),
  ...Array.from({ length: CHUNKS }, (_, i) => chunk({ content: `t${i} ` })),
  chunk({}, 'stop', { usage: { prompt_tokens: 10, completion_tokens: CHUNKS, total_tokens: CHUNKS + 10 } }),
  encoder.encode('data: [DONE]\n\n'),
]
const TEXT_OF_A_REPLY = Array.from({ length: CHUNKS }, (_, i) => `t${i} `).join('')

/** A provider's answer: a chunk per turn of the event loop (after the loop's I/O, as from a socket). */
const answer = () => {
  let next = 0
  return new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        await new Promise((resolve) => setImmediate(resolve))
        if (next < CHUNKS_OF_A_REPLY.length) controller.enqueue(CHUNKS_OF_A_REPLY[next++]!)
        else controller.close()
      },
    },
    { highWaterMark: 0 },
  )
}
const inMemory = (async () => new Response(answer(), { headers: { 'content-type': 'text/event-stream' } })) as unknown as typeof fetch

const provider = withUsageMeter(createProvider({ kind: 'openai', apiKey: 'bench', baseUrl: 'http://provider.invalid/v1', fetch: inMemory }), async () => {})
// What a client's stream needs of the app: a logger, and the turn's shared waits of the Bun server.
const deps = { logger: { debug() {}, info() {}, warn() {}, error() {} }, writesTogether: true } as unknown as AppDeps

/** Reads a stream to its end; how many bytes it brought (and, with `decoded`, its text). */
async function drain(stream: ReadableStream<Uint8Array>, decoded?: string[]) {
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let bytes = 0
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.length
    decoded?.push(decoder.decode(read.value, { stream: true }))
  }
  return bytes
}

/** The bytes a client gets of one reply through the relay: every reply's frames are the same (checked by the first, `throughKontor`). */
let clientBytes: number | undefined

/** One reply through Kontor's relay, as the server streams it to the client that sent the message. */
async function throughKontor() {
  const state: ReplyState = { content: '', reasoning: '', parts: [], inputTokens: null, outputTokens: null }
  const abort = new AbortController()
  const live = new LiveReply({ threadId: 'thread', userMessageId: 'user', assistantMessageId: 'reply', model: 'openai/gpt-4.1' }, state, abort, true)
  // The first reply's frames are read as a client reads them; the others' are counted, and must come to as many bytes.
  const decoded = clientBytes === undefined ? [] : undefined
  const client = drain(live.follow(deps, REPLY_START), decoded)
  live.send({ event: 'message_start', data: live.start })
  const firstCall = startModelCall(provider, { model: 'gpt-4.1', messages: [{ role: 'user', content: 'go' }], tools: [], signal: abort.signal })
  await runToolLoop({
    provider, model: 'gpt-4.1', messages: [{ role: 'user', content: 'go' }], tools: [], toolContext: { signal: abort.signal } as never,
    state, send: live.send, flush: live.flush, changed: () => {}, checkpoint: async () => {}, firstCall,
  })
  live.send({ event: 'message_end', data: { status: 'complete' } })
  live.end()
  const bytes = await client
  if (state.content !== TEXT_OF_A_REPLY) throw new Error('a reply through the relay lost text')
  if (decoded) {
    const frames = decoded.join('').split('\n\n').filter((f) => /^event: text$/m.test(f))
    const text = frames.map((f) => (JSON.parse(f.slice(f.indexOf('data: ') + 6)) as { delta: string }).delta).join('')
    if (text !== TEXT_OF_A_REPLY) throw new Error('the client of a reply through the relay got another text')
    clientBytes = bytes
  } else if (bytes !== clientBytes) throw new Error(`the client of a reply through the relay got ${bytes} bytes, not ${clientBytes}`)
}

/** The same chunks handed on as they come, to a stream of the pipe's own. */
async function throughPipe() {
  const body = (await inMemory('http://provider.invalid')).body!.getReader()
  let out!: ReadableStreamDefaultController<Uint8Array>
  const client = drain(new ReadableStream<Uint8Array>({ start: (c) => void (out = c) }))
  for (let read = await body.read(); !read.done; read = await body.read()) out.enqueue(read.value)
  out.close()
  const expected = CHUNKS_OF_A_REPLY.reduce((n, c) => n + c.length, 0)
  if ((await client) !== expected) throw new Error('the pipe lost bytes')
}

/**
 * The main thread's CPU time (where the relay runs in a server; the process's, all threads, where
 * the kernel keeps no statistics per thread) per chunk of REPLIES replies at once, in µs.
 */
const onMainThread = mainThread(process.pid) !== null
const cpuSeconds = () => (onMainThread ? mainThread(process.pid)!.cpu : (process.cpuUsage().user + process.cpuUsage().system) / 1e6)
async function measure(run: () => Promise<void>) {
  Bun.gc(true)
  const before = cpuSeconds()
  await Promise.all(Array.from({ length: REPLIES }, run))
  return ((cpuSeconds() - before) * 1e6) / (REPLIES * CHUNKS)
}

const fmt = (n: number, digits = 1) => n.toFixed(digits)
const load = [loadavg()[0]!]
const quiet: Array<Quiet | null> = [await quietMachine()]
const samples = { kontor: [] as number[], pipe: [] as number[] }
const steps = [async () => samples.kontor.push(await measure(throughKontor)), async () => samples.pipe.push(await measure(throughPipe))]
for (let r = 0; r < WARM_UP + ROUNDS; r++) {
  if (r === WARM_UP) samples.kontor.length = samples.pipe.length = 0
  for (const step of shuffled(steps)) await step()
}
load.push(loadavg()[0]!)

const kontor = pct(samples.kontor, 50)
const pipe = pct(samples.pipe, 50)
const table = [
  `${REPLIES} replies at once, each of ${CHUNKS} network chunks of one token (OpenAI's wire format), a chunk per turn of the event loop from a stream in memory; ${ROUNDS} rounds after ${WARM_UP} not counted, the two runs of a round in a new random order. ${onMainThread ? 'CPU time of the main thread' : 'CPU time of the process (all its threads)'} per chunk, medians.`,
  '',
  '| Through | CPU time a chunk | Ratio |',
  '|---|---:|---:|',
  `| a bare pipe (baseline) | ${fmt(pipe, 2)} µs | 1.00× |`,
  `| Kontor's relay (adapter, gateway, usage meter, tool loop, frames) | ${fmt(kontor, 2)} µs | ${fmt(kontor / pipe, 2)}× |`,
].join('\n')
const reading =
  `Kontor's relay used ${fmt(kontor - pipe, 2)} µs more CPU time a chunk than the bare pipe (rounds: ${samples.kontor.map((x) => fmt(x, 2)).join(', ')} against ${samples.pipe.map((x) => fmt(x, 2)).join(', ')} µs). ` +
  'This is the JavaScript a token costs Kontor on its main thread beyond handing bytes on, without the network (read by Bun’s HTTP client thread in the server), the writes to the database and the collector’s work in a server holding many replies; bench/concurrency.ts measures those in a server. ' +
  'Work on what a token costs can be tried here first, in runs that take turns with the code before: on 2026-12-01 runs a few minutes apart on an idle machine gave medians from 4.6 to 7.6 µs for the relay, the pipe moving with them (the machine\'s speed changed within minutes), where single rounds of bench/concurrency.ts differ by tens of milliseconds. That day, in a server relaying 1,000 replies, Kontor\'s main thread spent 17–18 µs more a token than a bare relay\'s in two runs: what this bench measures, and each reply\'s start and end, the writes to the database and the collector (decision 0136).'
console.log(table)
console.log(reading)
if (!process.env.BENCH_NO_WRITE && process.argv.length <= 2) {
  writeSection(
    '## Relay pipeline (bench/relay-pipeline.ts)',
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}, load average ${fmt(load[0]!)} at the start and ${fmt(load[1]!)} at the end, ${quietText(quiet)}.\n\n${table}\n\n**Reading.** ${reading}`,
  )
}
process.exit(0)
