/**
 * Chat search: p50 and p99 latency of `GET /api/search?q=…` for one user with 10,000 chats of 20
 * messages (200,000 messages, made-up words with a Zipf-like skew), for searches from a rare word
 * to one found in most messages, against the same user's `GET /api/threads` (the first page of
 * the chat list) as the baseline, measured in the same run on the same server. Another
 * organisation's user has 1,000 chats in the same index. The load comes from autocannon (Node, its
 * own process), one connection, so latency is the server's time per request; the routes take
 * turns and the order rotates every round.
 * Writes "## Search (bench/search.ts)" in bench/RESULTS.md.
 * Run: node_modules/.bin/bun bench/search.ts   (BENCH_ROUNDS, default 5; BENCH_ROUND_S, default 3)
 */
import { createClient, type Client } from '@libsql/client'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { matchExpressions } from '../src/api/search/fts-query'
import { machine, register, ROOT, signedInWithModel, startKontor, writeSection } from './lib'

const PORT = Number(process.env.BENCH_PORT ?? 3830)
const [ROUNDS, ROUND_S, WARMUP_S] = [Number(process.env.BENCH_ROUNDS ?? 5), Number(process.env.BENCH_ROUND_S ?? 3), 1]
const [CHATS, PER_CHAT, OTHER_CHATS] = [10_000, 20, 1_000]
const AUTOCANNON = join(ROOT, 'node_modules/autocannon/autocannon.js')
const PROVIDER_ENV = { OPENAI_API_KEY: 'bench-key', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }

// Made-up words from syllables (so that beginnings are shared as in a language), used with a
// Zipf-like skew: the word of rank r comes about 1/r as often as the commonest.
let seed = 7
/** mulberry32: a small seeded generator, so that every run writes the same chats. */
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
  return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32
}
const SYLLABLES = [...'bdfgklmnprstvz'].flatMap((c) => [...'aeiou'].map((v) => c + v))
const VOCABULARY = [...new Set(Array.from({ length: 40_000 }, () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join('')))].slice(0, 20_000)
const word = () => VOCABULARY[Math.min(VOCABULARY.length, Math.floor(Math.exp(random() * Math.log(VOCABULARY.length + 1)))) - 1]!
const sentence = (words: number) => Array.from({ length: words }, word).join(' ')

/** `chats` chats of PER_CHAT messages (questions of 15 words, replies of 80) for a user, straight in the database, 50 chats per statement. */
async function seedChats(db: Client, user: { id: string; organizationId: string }, chats: number) {
  const start = Date.now() - chats * 60_000
  for (let from = 0; from < chats; from += 50) {
    const threadRows: unknown[] = []
    const messageRows: unknown[] = []
    for (let c = from; c < Math.min(chats, from + 50); c++) {
      const id = crypto.randomUUID()
      const at = start + c * 60_000
      threadRows.push(id, user.organizationId, user.id, sentence(3), at, at)
      for (let m = 1; m <= PER_CHAT; m++) messageRows.push(crypto.randomUUID(), id, m, m % 2 ? 'user' : 'assistant', sentence(m % 2 ? 15 : 80), at + m, at + m)
    }
    const values = (rows: unknown[], width: number, extra = '') => Array.from({ length: rows.length / width }, () => `(${Array(width).fill('?').join(', ')}${extra})`).join(', ')
    await db.batch([
      { sql: `INSERT INTO threads (id, organization_id, user_id, title, created_at, last_message_at) VALUES ${values(threadRows, 6)}`, args: threadRows as never },
      { sql: `INSERT INTO messages (id, thread_id, seq, role, content, created_at, updated_at, status) VALUES ${values(messageRows, 7, ", 'complete'")}`, args: messageRows as never },
    ], 'write')
  }
}

type Run = { p50: number; p99: number; rps: number }

/** One autocannon run (Node, its own process) with one connection: latency is the server's time per request. */
async function autocannon(url: string, cookie: string, seconds: number): Promise<Run> {
  const child = Bun.spawn(['node', AUTOCANNON, '--json', '-c', '1', '-d', String(seconds), '-H', `cookie=${cookie}`, url], { stdout: 'pipe', stderr: 'ignore' })
  const out = await new Response(child.stdout).text()
  if ((await child.exited) !== 0) throw new Error(`autocannon failed on ${url}`)
  const r = JSON.parse(out) as { '2xx': number; non2xx: number; errors: number; duration: number; latency: { p50: number; p99: number } }
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} answers other than 2xx, ${r.errors} errors`)
  return { p50: r.latency.p50, p99: r.latency.p99, rps: r['2xx'] / r.duration }
}

const kontor = await startKontor({ port: PORT, stdout: 'ignore', env: PROVIDER_ENV })
try {
  const { cookie } = await signedInWithModel(kontor.base)
  await register(kontor.base) // the other organisation
  const db = createClient({ url: kontor.databaseUrl })
  const users = (await db.execute('SELECT id, organization_id FROM users ORDER BY created_at')).rows.map((r) => ({ id: String(r.id), organizationId: String(r.organization_id) }))
  const [user, other] = users as [(typeof users)[0], (typeof users)[0]]
  const seeding = performance.now()
  await seedChats(db, user, CHATS)
  await seedChats(db, other, OTHER_CHATS)
  const seedSeconds = (performance.now() - seeding) / 1000
  console.log(`seeded ${CHATS * PER_CHAT + OTHER_CHATS * PER_CHAT} messages in ${seedSeconds.toFixed(0)} s`)

  // Searches from rare to common (by the rank of their words), several words, and a word being typed.
  const byRank = (r: number) => VOCABULARY[r - 1]!
  const searches = [
    { name: 'a rare word', q: byRank(8000) },
    { name: 'a word of middling frequency', q: byRank(600) },
    { name: 'a common word', q: byRank(40) },
    { name: 'the commonest word', q: byRank(1) },
    { name: 'two words', q: `${byRank(40)} ${byRank(600)}` },
    { name: 'three words', q: `${byRank(3)} ${byRank(40)} ${byRank(300)}` },
    { name: 'a word being typed (the first 4 letters of a word of rank 150)', q: byRank(150).slice(0, 4) },
    { name: 'a word being typed (the first 3 letters of the commonest word)', q: byRank(1).slice(0, 3) },
    { name: 'a word being typed (the first 5 letters of the second commonest)', q: byRank(2).slice(0, 5) },
  ]
  const owner = Number((await db.execute({ sql: 'SELECT n FROM chat_search_owners WHERE user_id = ?', args: [user.id] })).rows[0]!.n)
  const range = [BigInt(owner) * 2n ** 32n, BigInt(owner + 1) * 2n ** 32n]
  const matches = new Map<string, number>()
  for (const s of searches) {
    const count = await db.execute({ sql: 'SELECT count(*) AS n FROM chat_search WHERE chat_search MATCH ? AND rowid > ? AND rowid < ?', args: [matchExpressions(s.q)!.whole, ...range] })
    matches.set(s.q, Number(count.rows[0]!.n))
  }
  db.close()

  const routes = [
    { name: 'GET /api/threads (the first page of the chat list) — baseline', path: '/api/threads' },
    ...searches.map((s) => ({ name: `search: ${s.name} (\`${s.q}\`, ${matches.get(s.q)!.toLocaleString('en')} passages match)`, path: `/api/search?q=${encodeURIComponent(s.q)}` })),
  ]
  for (const r of routes) {
    const res = await fetch(kontor.base + r.path, { headers: { cookie } })
    if (!res.ok) throw new Error(`${r.path}: ${res.status}`)
  }
  for (const r of routes) await autocannon(kontor.base + r.path, cookie, WARMUP_S)
  const runs = routes.map(() => [] as Run[])
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < routes.length; k++) {
      const i = (round + k) % routes.length
      runs[i]!.push(await autocannon(kontor.base + routes[i]!.path, cookie, ROUND_S))
    }
    console.log(`round ${round + 1} of ${ROUNDS}`)
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  const stats = runs.map((r) => ({ p50: median(r.map((x) => x.p50)), p99: median(r.map((x) => x.p99)), rps: median(r.map((x) => x.rps)) }))
  const base = stats[0]!
  const ms = (x: number) => `${x.toFixed(0)} ms`
  const ratio = (a: number, b: number) => `${(a / Math.max(b, 1)).toFixed(1)}×`
  const rows = routes.map((r, i) => `| ${r.name} | ${ms(stats[i]!.p50)} | ${ratio(stats[i]!.p50, base.p50)} | ${ms(stats[i]!.p99)} | ${ratio(stats[i]!.p99, base.p99)} | ${stats[i]!.rps.toFixed(0)} |`)
  const searchP50s = stats.slice(1).map((s) => s.p50)
  const dbMb = (statSync(kontor.databaseUrl.replace(/^file:/, '')).size / 2 ** 20).toFixed(0)
  const load = Bun.spawnSync(['cat', '/proc/loadavg']).stdout.toString().split(' ')
  const table = [
    `One user with ${CHATS.toLocaleString('en')} chats of ${PER_CHAT} messages (${(CHATS * PER_CHAT).toLocaleString('en')} messages: questions of 15 words, replies of 80, titles of 3, from 20,000 made-up words with a Zipf-like skew); ` +
      `another organisation's user with ${OTHER_CHATS.toLocaleString('en')} chats in the same index. Written straight to the database in batches of 50 chats, the index kept by its triggers: ${seedSeconds.toFixed(0)} s; the database file is then ${dbMb} MB. ` +
      `${ROUNDS} rounds of ${ROUND_S} s per route after ${WARMUP_S} s of warm-up each, the routes taking turns, the order rotating every round. Load from autocannon (Node, a new process per run, on the same machine), one connection with one request in flight, so latency is the server's time per request. ` +
      'p50 and p99 are the median over rounds of each round\'s percentile (autocannon reports whole milliseconds); ratios are to the baseline in the same run.',
    '',
    '| Route | p50 | Ratio | p99 | Ratio | Requests/s |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n')
  console.log(table)
  const reading = [
    `Every search answered with a p50 of ${ms(Math.min(...searchP50s))}–${ms(Math.max(...searchP50s))} (the median search ${ms(median(searchP50s))}), against ${ms(base.p50)} for the first page of the chat list: the target of 50 ms p50 over 10,000 chats of 20 messages ${Math.max(...searchP50s) <= 50 ? 'holds for every search measured' : median(searchP50s) <= 50 ? 'holds for the median search, not for all' : 'is missed'}.`,
    "A search reads the caller's own range of the index only (the other organisation's rows are never touched) and computes BM25 for at most the 1,000 newest matching passages, so a word found in most messages costs about as much as one found in a thousand;",
    'a rare word is ranked over all its matches. The answer then asks the index for the passages (snippets) of the 20 best only.',
    'A word being typed (3 letters or more, no space after it) is first searched whole; when that finds fewer than 20, it stands for the 16 commonest words of the index that begin with it (looked up in the fts5vocab table), OR-ed:',
    "FTS5's own prefix query (`\"buz\"*`) gathers every match of every such word in the whole index before it ranks, which took 0.2–0.9 s for beginnings of the commonest words here.",
    'The passages match count for a word being typed is that of the whole word only.',
    `Load average (1 and 5 minutes) at the end of the run: ${load[0]} and ${load[1]}.`,
  ].join(' ')
  writeSection('## Search (bench/search.ts)', `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}.\n\n${table}\n\n**Reading.** ${reading}`)
} catch (error) {
  console.error(error)
  process.exitCode = 1
} finally {
  await kontor.stop()
}
