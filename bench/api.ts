/**
 * API overhead: requests per second and p50/p99 latency of four authenticated list routes
 * (`GET /api/prompts`, `/api/threads`, `/api/agents`, the admin's `/api/users`, 20 rows each) on
 * a real Kontor server against bare routes (bench/bare-api.ts: same kind of server, same
 * database, only the session lookup and one statement per list), at 10 and 50 connections.
 * The load comes from autocannon run by Node in its own process, so the load generator is not
 * Bun; the servers and routes take turns, the order rotating every round.
 * Writes "## API (bench/api.ts)" in bench/RESULTS.md.
 * Run: node_modules/.bin/bun bench/api.ts
 * BENCH_BASELINE_ROOT=<another checkout> (and BENCH_BASELINE_LABEL) adds that version of Kontor
 * to the same run, to measure a change before and after.
 */
import { createClient } from '@libsql/client'
import { join } from 'node:path'
import { BENCH_SECRET, machine, register, ROOT, startKontor, writeSection } from './lib'

const PORT = Number(process.env.BENCH_PORT ?? 3730)
const ROWS = 20
const CONNECTIONS = [10, 50]
// BENCH_ROUTES=/api/agents,... measures fewer routes (for a quick look; RESULTS.md should have all four).
const ROUTES = process.env.BENCH_ROUTES?.split(',') ?? ['/api/prompts', '/api/threads', '/api/agents', '/api/users']
// Each round loads every server on every route for ROUND_S in turn; the order rotates every round.
const [ROUNDS, ROUND_S, WARMUP_S] = [Number(process.env.BENCH_ROUNDS ?? 5), Number(process.env.BENCH_ROUND_S ?? 2), 1]
const baselineRoot = process.env.BENCH_BASELINE_ROOT
// A configured platform provider, so that agents and chats have models; it is never called.
const PROVIDER_ENV = { OPENAI_API_KEY: 'bench-key', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }
const AUTOCANNON = join(ROOT, 'node_modules/autocannon/autocannon.js')

type Server = { name: string; base: string; cookie: string }
type Run = { rps: number; p50: number; p99: number }

/** One autocannon run (Node, its own process): `connections` connections, one request in flight each. */
async function autocannon(url: string, cookie: string, connections: number, seconds: number): Promise<Run> {
  const child = Bun.spawn(['node', AUTOCANNON, '--json', '-c', String(connections), '-d', String(seconds), '-H', `cookie=${cookie}`, url], {
    stdout: 'pipe', stderr: 'ignore',
  })
  const out = await new Response(child.stdout).text()
  if ((await child.exited) !== 0) throw new Error(`autocannon failed on ${url}`)
  const r = JSON.parse(out) as { '2xx': number; non2xx: number; errors: number; duration: number; latency: { p50: number; p99: number } }
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} answers other than 2xx, ${r.errors} errors`)
  return { rps: r['2xx'] / r.duration, p50: r.latency.p50, p99: r.latency.p99 }
}

/** A Kontor server whose signed-in admin has ROWS prompts, agents and chats, in an organisation of ROWS members. */
async function seededKontor(port: number, root?: string) {
  const kontor = await startKontor({ port, root, stdout: 'ignore', env: { LOG_LEVEL: 'info', ...PROVIDER_ENV } })
  const cookie = await register(kontor.base)
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${kontor.base}${path}`, {
      method: 'POST', headers: { cookie, origin: kontor.base, 'content-type': 'application/json' }, body: JSON.stringify(body),
    })
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as { id: string }
  }
  await post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
  const models = [await post('/api/models/permitted', { modelId: 'openai/gpt-4.1' }), await post('/api/models/permitted', { modelId: 'openai/gpt-4.1-mini' })]
  const agents: string[] = []
  for (let i = 0; i < ROWS; i++) {
    const content = `Summarise the {{document}} for {{audience}} in ${i + 3} bullet points. ` + 'Keep the tone factual and name the sources. '.repeat(4 + (i % 8))
    await post('/api/prompts', { title: `Prompt ${i + 1}`, content })
    const instructions = `You review ${['contracts', 'invoices', 'reports', 'letters'][i % 4]} for the legal team. ` + 'Answer briefly and cite the clause. '.repeat(3 + (i % 5))
    agents.push((await post('/api/agents', { name: `Agent ${i + 1}`, instructions, modelId: models[i % 2]!.id })).id)
  }
  for (let i = 0; i < ROWS; i++) await post('/api/threads', i % 2 ? { agentId: agents[i]! } : { modelId: models[i % 2]!.id })
  // Members straight into the database: inviting needs mail. The admin is the first of ROWS.
  const db = createClient({ url: kontor.databaseUrl })
  const organizationId = (await db.execute('SELECT organization_id FROM users')).rows[0]!.organization_id as string
  const now = Date.now()
  for (let i = 1; i < ROWS; i++) {
    await db.execute({
      sql: 'INSERT INTO users (id, name, email, email_verified, organization_id, role, locale, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      args: [crypto.randomUUID(), `Member ${i}`, `member-${i}-${crypto.randomUUID().slice(0, 6)}@acme.test`, i % 3 ? 1 : 0, organizationId, i % 5 ? 'user' : 'admin', 'de', now + i, now + i],
    })
  }
  db.close()
  return { ...kontor, cookie }
}

const kontor = await seededKontor(PORT)
const baseline = baselineRoot ? await seededKontor(PORT + 2, baselineRoot) : undefined
const bare = Bun.spawn([process.execPath, 'bench/bare-api.ts'], {
  cwd: ROOT, stdout: 'inherit', stderr: 'inherit',
  env: { ...process.env, ...PROVIDER_ENV, PORT: String(PORT + 1), DATABASE_URL: kontor.databaseUrl, KONTOR_SECRET: BENCH_SECRET },
})
try {
  for (let i = 0; !(await fetch(`http://localhost:${PORT + 1}/health`).then((r) => r.ok, () => false)); i++) {
    if (i > 100) throw new Error('bench/bare-api.ts did not start')
    await Bun.sleep(50)
  }
  const servers: Server[] = [
    { name: 'bare route (baseline)', base: `http://localhost:${PORT + 1}`, cookie: kontor.cookie },
    { name: 'Kontor', base: kontor.base, cookie: kontor.cookie },
    ...(baseline ? [{ name: process.env.BENCH_BASELINE_LABEL ?? `Kontor at ${baselineRoot}`, base: baseline.base, cookie: baseline.cookie }] : []),
  ]
  // The bare routes must answer Kontor's bytes, or the comparison would be of different work.
  const bodyKb: Record<string, string> = {}
  for (const route of ROUTES) {
    const [bareBody, kontorBody] = await Promise.all(servers.slice(0, 2).map((s) => fetch(s.base + route, { headers: { cookie: s.cookie } }).then((r) => r.text())))
    const parsed = JSON.parse(kontorBody!) as unknown[] | { threads: unknown[] }
    if (bareBody !== kontorBody || (Array.isArray(parsed) ? parsed : parsed.threads).length !== ROWS) {
      throw new Error(`${route}: the two routes answer differently:\n${bareBody}\n${kontorBody}`)
    }
    bodyKb[route] = (new TextEncoder().encode(kontorBody).byteLength / 1024).toFixed(1)
  }

  type Cell = { runs: Run[] }
  const cells = new Map<string, Cell>() // `${connections} ${route} ${server index}`
  const cell = (n: number, route: string, s: number) => cells.get(`${n} ${route} ${s}`) ?? cells.set(`${n} ${route} ${s}`, { runs: [] }).get(`${n} ${route} ${s}`)!
  const jobs = ROUTES.flatMap((route) => servers.map((_, s) => ({ route, s })))
  for (const n of CONNECTIONS) {
    for (const { route, s } of jobs) await autocannon(servers[s]!.base + route, servers[s]!.cookie, n, WARMUP_S)
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < jobs.length; k++) {
        const { route, s } = jobs[(round + k) % jobs.length]!
        cell(n, route, s).runs.push(await autocannon(servers[s]!.base + route, servers[s]!.cookie, n, ROUND_S))
      }
      console.log(`${n} connections: round ${round + 1} of ${ROUNDS}`)
    }
  }

  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
  const stats = (n: number, route: string, s: number) => {
    const runs = cell(n, route, s).runs
    return { rps: mean(runs.map((r) => r.rps)), p50: mean(runs.map((r) => r.p50)), p99: mean(runs.map((r) => r.p99)) }
  }
  const ms = (x: number) => `${x.toFixed(1)} ms`
  const x = (a: number, b: number) => `${(a / b).toFixed(2)}×`
  const rows: string[] = []
  const summary: string[] = []
  for (const route of ROUTES) {
    for (const n of CONNECTIONS) {
      const b = stats(n, route, 0)
      servers.forEach((server, s) => {
        const k = stats(n, route, s)
        rows.push(`| \`${route}\` | ${n} | ${server.name} | ${Math.round(k.rps)} | ${x(k.rps, b.rps)} | ${ms(k.p50)} | ${x(k.p50, b.p50)} | ${ms(k.p99)} | ${x(k.p99, b.p99)} |`)
      })
    }
    summary.push(`\`${route}\` ${CONNECTIONS.map((n) => x(stats(n, route, 1).rps, stats(n, route, 0).rps)).join(' and ')}`)
  }
  const table = [
    `${ROUNDS} rounds of ${ROUND_S} s per server, route and connection count after ${WARMUP_S} s of warm-up each; the server–route pairs take turns and the order rotates every round. ` +
      'Load from autocannon (Node, a new process per run, on the same machine), each connection keeping one request in flight over keep-alive. ' +
      `Bodies: ${ROWS} rows each (prompts ${bodyKb['/api/prompts']} KB, chats ${bodyKb['/api/threads']} KB, agents ${bodyKb['/api/agents']} KB, members ${bodyKb['/api/users']} KB of JSON), the same bytes from Kontor and the bare routes. ` +
      'Kontor logs at info (its default), to /dev/null. Requests/s are the mean over rounds; p50 and p99 the mean of each round\'s percentile. Ratios are to the bare route at the same connection count.',
    '',
    '| Route | Connections | Server | Requests/s | Ratio | p50 | Ratio | p99 | Ratio |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n')
  console.log(table)
  const load = Bun.spawnSync(['cat', '/proc/loadavg']).stdout.toString().split(' ')
  const reading = [
    `Kontor serves, of the bare route's requests per second at ${CONNECTIONS.join(' and ')} connections: ${summary.join('; ')}.`,
    baseline
      ? `${servers[2]!.name}: ${ROUTES.map((route) => `\`${route}\` ${CONNECTIONS.map((n) => x(stats(n, route, 2).rps, stats(n, route, 0).rps)).join(' and ')}`).join('; ')}.`
      : '',
    "What Kontor does on top of the bare routes: a request id, an access log line and the security headers, the CSRF and body-limit checks, routing through the API sub-app,",
    'validating the query with zod (chats), Drizzle\'s decoders for each column (dates, booleans, JSON; rows read by position, decision 0090), and more session columns (the organisation\'s name, whether a second factor is missing), which services need.',
    'Both sides run one statement per list after the session with its user: the prompts and the agents with their owner, share groups, collections and MCP tools as JSON from subqueries, the agents joined with their model, its provider, endpoint and settings;',
    'the chats list its pinned chats and the first page of the others in one compound statement (decision 0042). The members list, one statement on both sides, shows the floor that Kontor\'s own work per request sets.',
    "In a CPU profile of Kontor's request path under load, SQLite running the statements is the largest cost both sides pay (statements are prepared once per connection, decision 0088). The bare routes also have the libSQL client name every value of every row (two property definitions a value); Kontor's reads take their rows as plain arrays (decision 0093), which on the agents list (20 rows of about 25 columns) was 16% of its CPU time.",
    'Then the session cookie\'s HMAC check, which the bare routes make at every request and Kontor once per process and cookie (decision 0100). autocannon reports latency in whole milliseconds, so the p50 ratios are coarse.',
    'Each server runs on one thread, so once the connections keep it busy its throughput is its CPU time per request, and latency is mostly the queue.',
    'The load generator shares the two cores and costs the same per request for every server, which pulls the ratios towards 1.',
    "Since decision 0117 (2026-11-30) Kontor's JavaScript heap grows to 1.5 times what its last full collection left before it is collected in full again (Bun's defaults: about 3 times on a machine with 16 GB or more, as the one of that day; the bare server keeps them), which keeps 1,000 streaming replies about 50 MB smaller and costs requests: one run each that day, with Bun's defaults given to Kontor (`BENCH_SERVER_ENV`), served `/api/prompts` 0.94× and 0.94×, `/api/threads` 0.93× and 0.90×, `/api/agents` 1.19× and 1.05×, `/api/users` 0.97× and 0.88×, against 0.77× and 0.69×, 0.67× and 0.72×, 0.87× and 0.83×, 0.85× and 0.83× with the setting.",
    `Load average (1 and 5 minutes) at the end of the run: ${load[0]} and ${load[1]}.`,
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
