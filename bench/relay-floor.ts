/**
 * What any relay adds to the first token on this machine, as a yardstick for bench/stream.ts: a
 * bare relay (a Bun server that calls the fake provider with `fetch` and hands each network chunk
 * on through a stream of its own, and nothing else) against reading the fake directly, the reads
 * of each round in a random order, in one run. The relay also spins for a set time before its
 * call (as Kontor reads the session, the chat and the history first) or right after it (as the
 * batch that begins a reply runs while the provider answers). Writes "## Relay floor (bench/relay-floor.ts)".
 * Run: node_modules/.bin/bun bench/relay-floor.ts (BENCH_NO_WRITE=1 prints only)
 */
import { loadavg } from 'node:os'
import { machine, pct, providerTokens, readReply, type ReplySample, shuffled, startBareRelay, startFakeProvider, writeSection } from './lib'

/** Started with `--relay PORT FAKE_PORT`: the bare relay itself, in a process of its own. */
if (process.argv[2] === '--relay') {
  const fake = `http://127.0.0.1:${process.argv[4]}/v1/chat/completions`
  /** Holds the thread for `us` microseconds, as synchronous work does. */
  const spin = (us: number) => {
    const until = performance.now() + us / 1000
    while (performance.now() < until);
  }
  Bun.serve({
    port: Number(process.argv[3]),
    async fetch(request) {
      if (request.method !== 'POST') return new Response('ok')
      const body = await request.text()
      spin(Number(request.headers.get('x-work-before-us') ?? 0))
      const answer = fetch(fake, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer bench' }, body })
      // Once the call is made, as the batch that begins a reply runs while the provider answers.
      spin(Number(request.headers.get('x-work-after-us') ?? 0))
      const reader = (await answer).body!.getReader()
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const chunk = await reader.read()
          if (chunk.done) controller.close()
          else controller.enqueue(chunk.value)
        },
        cancel: (reason) => reader.cancel(reason),
      })
      return new Response(stream, { headers: { 'content-type': 'text/event-stream' } })
    },
  })
} else {
  await main()
}

async function main() {
  const SIZES = [1000, 5000] as const
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100)
  const WARM_UP = 5
  const PORT = Number(process.env.BENCH_PORT ?? 3540)
  const FAKE_PORT = PORT + 1
  /** Microseconds of work before the relay's call and right after it. */
  const VARIANTS = [[0, 0], [400, 0], [800, 0], [0, 400]] as const

  await startFakeProvider(FAKE_PORT)
  const relay = await startBareRelay(PORT, FAKE_PORT)
  // Stopped by a signal, the relay and the fake provider go too (on 'exit').
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130))

  const body = (size: number) => JSON.stringify({ model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: `[[fake:tokens=${size}]][[fake:burst=20]] go` }] })
  const read = async (url: string, size: number, headers: Record<string, string> = {}) => {
    const start = performance.now()
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer bench', ...headers }, body: body(size) })
    const sample = await readReply(res, providerTokens, start)
    if (sample.tokens !== size) throw new Error(`a reply lost tokens: ${sample.tokens} of ${size}`)
    return sample
  }
  const fmt = (n: number, digits = 2) => n.toFixed(digits)

  const load = [loadavg()[0]!]
  const rows: string[] = []
  const readings: string[] = []
  for (const size of SIZES) {
    const direct: ReplySample[] = []
    const relayed: ReplySample[][] = VARIANTS.map(() => [])
    const steps = [
      async () => direct.push(await read(`http://127.0.0.1:${FAKE_PORT}/v1/chat/completions`, size)),
      ...VARIANTS.map(([before, after], v) => async () =>
        relayed[v]!.push(await read(`http://127.0.0.1:${PORT}/`, size, { 'x-work-before-us': String(before), 'x-work-after-us': String(after) })),
      ),
    ]
    // A new order every round (shuffled), so that each read follows each of the others about as often.
    for (let r = 0; r < WARM_UP + ROUNDS; r++) {
      if (r === WARM_UP) {
        direct.length = 0
        for (const samples of relayed) samples.length = 0
      }
      for (const step of shuffled(steps)) await step()
    }
    const ttft = (xs: ReplySample[], p: number) => pct(xs.map((x) => x.ttft), p)
    for (const [v, [before, after]] of VARIANTS.entries()) {
      const samples = relayed[v]!
      rows.push(`| ${size} | ${before} µs | ${after} µs | ${fmt(ttft(samples, 50) - ttft(direct, 50))} ms | ${fmt(ttft(samples, 95) - ttft(direct, 95))} ms |`)
    }
    readings.push(`${size} tokens: the first token after ${fmt(ttft(direct, 50))} ms directly and ${fmt(ttft(relayed[0]!, 50))} ms through the bare relay (medians)`)
  }
  load.push(loadavg()[0]!)

  const table = [
    `The fake provider (a separate process, 20 tokens per network chunk) read directly and through a bare relay (a Bun server in a process of its own that calls the fake with \`fetch\` and hands each network chunk on through a stream of its own, nothing else), ${ROUNDS} rounds at each size after ${WARM_UP} not counted, one reply at a time, in a new random order every round. ` +
      'The relay also spins for a set time before its call (as Kontor reads the session, the chat and the history before it calls the provider) or right after it (as the batch that begins a reply runs while the provider answers). Added times are the relay’s percentile minus the direct one.',
    '',
    '| Tokens | Work before the call | Work right after the call | Added time to first token, p50 | Added, p95 |',
    '|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n')
  console.log(table)
  console.log(readings.join('\n'))
  if (!process.env.BENCH_NO_WRITE) {
    writeSection(
      '## Relay floor (bench/relay-floor.ts)',
      `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}, load average ${fmt(load[0]!, 1)} at the start and ${fmt(load[1]!, 1)} at the end.\n\n${table}\n\n` +
        `**Reading.** ${readings.join('; ')}. ` +
        'A yardstick for bench/stream.ts, whose target is the time Kontor adds to the first token: what a relay adds on this machine when it does nothing, and how the first token moves with work before the call and during the provider’s answer.',
    )
  }
  relay.kill()
  process.exit(0)
}
