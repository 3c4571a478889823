/**
 * API overhead: requests per second and p50/p99 latency of an authenticated `GET /api/prompts`
 * (20 prompts) on a real Kontor server against a bare route (bench/bare-api.ts: same kind of
 * server, same database, only the session lookup and the same rows), at 10 and 50 connections,
 * alternating the servers in one run. Writes "## API (bench/api.ts)" in bench/RESULTS.md.
 * Run: node_modules/.bin/bun bench/api.ts
 * BENCH_BASELINE_ROOT=<another checkout> (and BENCH_BASELINE_LABEL) adds that version of Kontor
 * to the same run, to measure a change before and after.
 */
import { BENCH_SECRET, machine, pct, register, ROOT, startKontor, writeSection } from './lib'

const PORT = Number(process.env.BENCH_PORT ?? 3530)
const PROMPTS = 20
const CONNECTIONS = [10, 50]
// Each round loads every server for ROUND_MS in turn; the order rotates every round.
const [ROUNDS, ROUND_MS, WARMUP_MS] = [Number(process.env.BENCH_ROUNDS ?? 8), 2000, 1500]
const baselineRoot = process.env.BENCH_BASELINE_ROOT

type Server = { name: string; url: string; cookie: string }
type Side = Server & { requests: number; ms: number; latencies: number[] }

/** `connections` loops, each with one request in flight at a time, over keep-alive, for `ms`. */
async function load(side: Side, connections: number, ms: number, record: boolean) {
  const start = performance.now()
  const end = start + ms
  const latencies: number[] = []
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const sent = performance.now()
        const res = await fetch(side.url, { headers: { cookie: side.cookie } })
        await res.arrayBuffer()
        if (res.status !== 200) throw new Error(`${side.name}: status ${res.status}`)
        latencies.push(performance.now() - sent)
      }
    }),
  )
  if (!record) return
  side.ms += performance.now() - start
  side.requests += latencies.length
  for (const l of latencies) side.latencies.push(l)
}

/** A Kontor server with a signed-in member who keeps PROMPTS prompts (the same ones on every server). */
async function kontorWithPrompts(port: number, root?: string) {
  const kontor = await startKontor({ port, root, stdout: 'ignore', env: { LOG_LEVEL: 'info' } })
  const cookie = await register(kontor.base)
  for (let i = 0; i < PROMPTS; i++) {
    const content = `Summarise the {{document}} for {{audience}} in ${i + 3} bullet points. ` + 'Keep the tone factual and name the sources. '.repeat(4 + (i % 8))
    const res = await fetch(`${kontor.base}/api/prompts`, {
      method: 'POST',
      headers: { cookie, origin: kontor.base, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Prompt ${i + 1}`, content }),
    })
    if (res.status !== 201) throw new Error(`create prompt: ${res.status} ${await res.text()}`)
  }
  return { ...kontor, cookie }
}

const kontor = await kontorWithPrompts(PORT)
const baseline = baselineRoot ? await kontorWithPrompts(PORT + 2, baselineRoot) : undefined
const bare = Bun.spawn([process.execPath, 'bench/bare-api.ts'], {
  cwd: ROOT, stdout: 'inherit', stderr: 'inherit',
  env: { ...process.env, PORT: String(PORT + 1), DATABASE_URL: kontor.databaseUrl, KONTOR_SECRET: BENCH_SECRET },
})
try {
  for (let i = 0; !(await fetch(`http://localhost:${PORT + 1}/health`).then((r) => r.ok, () => false)); i++) {
    if (i > 100) throw new Error('bench/bare-api.ts did not start')
    await Bun.sleep(50)
  }
  const servers: Server[] = [
    { name: 'bare route (baseline)', url: `http://localhost:${PORT + 1}/api/prompts`, cookie: kontor.cookie },
    { name: 'Kontor', url: `${kontor.base}/api/prompts`, cookie: kontor.cookie },
    ...(baseline ? [{ name: process.env.BENCH_BASELINE_LABEL ?? `Kontor at ${baselineRoot}`, url: `${baseline.base}/api/prompts`, cookie: baseline.cookie }] : []),
  ]
  // The bare route must answer Kontor's bytes, or the comparison would be of different work.
  const [bareBody, kontorBody] = await Promise.all(servers.slice(0, 2).map((s) => fetch(s.url, { headers: { cookie: s.cookie } }).then((r) => r.text())))
  if (bareBody !== kontorBody || (JSON.parse(kontorBody!) as unknown[]).length !== PROMPTS) throw new Error(`the two routes answer differently:\n${bareBody}\n${kontorBody}`)
  const bodyKb = (new TextEncoder().encode(kontorBody).byteLength / 1024).toFixed(1)

  const stats = (s: Side) => ({ name: s.name, rps: (s.requests / s.ms) * 1000, p50: pct(s.latencies, 50), p99: pct(s.latencies, 99) })
  const results: { connections: number; sides: ReturnType<typeof stats>[] }[] = []
  for (const connections of CONNECTIONS) {
    const sides: Side[] = servers.map((s) => ({ ...s, requests: 0, ms: 0, latencies: [] }))
    for (const s of sides) await load(s, connections, WARMUP_MS, false)
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < sides.length; k++) await load(sides[(round + k) % sides.length]!, connections, ROUND_MS, true)
    }
    results.push({ connections, sides: sides.map(stats) })
    console.log(connections, sides.map(stats))
  }

  const ms = (x: number) => `${x.toFixed(2)} ms`
  const x = (a: number, b: number) => `${(a / b).toFixed(2)}×`
  const table = [
    `${ROUNDS} rounds of ${ROUND_MS / 1000} s per server and connection count after ${WARMUP_MS / 1000} s warm-up, the servers taking turns (the order rotates every round); ` +
      'each connection keeps one request in flight over keep-alive (Bun fetch from one load-generator process on the same machine). ' +
      `Body: ${PROMPTS} prompts, ${bodyKb} KB of JSON, the same bytes from Kontor and the bare route. Kontor logs at info (its default), to /dev/null. ` +
      'Ratios are to the bare route at the same connection count.',
    '',
    '| Connections | Server | Requests/s | Ratio | p50 | Ratio | p99 | Ratio |',
    '|---:|---|---:|---:|---:|---:|---:|---:|',
    ...results.flatMap(({ connections: n, sides: [b, ...rest] }) =>
      [b!, ...rest].map((s) => `| ${n} | ${s.name} | ${Math.round(s.rps)} | ${x(s.rps, b!.rps)} | ${ms(s.p50)} | ${x(s.p50, b!.p50)} | ${ms(s.p99)} | ${x(s.p99, b!.p99)} |`)),
  ].join('\n')
  console.log(table)
  const at = (i: number, side: number) => results[i]!.sides[side]!
  const rps = (i: number, side: number) => (at(i, side).rps / at(i, 0).rps).toFixed(2)
  const p50 = (i: number, side: number) => (at(i, side).p50 / at(i, 0).p50).toFixed(2)
  const reading = [
    `Kontor serves ${rps(0, 1)}× the bare route's requests per second at ${CONNECTIONS[0]} connections and ${rps(1, 1)}× at ${CONNECTIONS[1]}; its median request takes ${p50(0, 1)}× and ${p50(1, 1)}× as long.`,
    baseline ? `${at(0, 2).name} served ${rps(0, 2)}× and ${rps(1, 2)}× (median ${p50(0, 2)}× and ${p50(1, 2)}×).` : '',
    'Each server runs on one thread, so once the connections keep it busy its throughput is its CPU time per request, and latency is mostly the queue.',
    "What Kontor does on top of the bare route's two statements: a request id and an access log line, the CSRF and body-limit checks, routing through the API sub-app,",
    'validating the query with zod, and reading rows through Drizzle (row mapping, four more session columns: name, e-mail, organisation and locale, which services need).',
    'In a CPU profile of Kontor under this load the largest single cost is libSQL preparing each statement anew, which both sides pay (@libsql/client keeps no statement cache).',
    'The load generator shares the two cores and costs the same per request for every server, which pulls the ratios towards 1.',
    `Load average at the end of the run: ${Bun.spawnSync(['cat', '/proc/loadavg']).stdout.toString().split(' ')[0]}.`,
  ].filter(Boolean).join(' ')
  writeSection('## API (bench/api.ts)', `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}.\n\n${table}\n\n**Reading.** ${reading}`)
} catch (error) {
  console.error(error)
  process.exitCode = 1
} finally {
  bare.kill()
  await bare.exited
  await Promise.all([kontor.stop(), baseline?.stop()])
}
