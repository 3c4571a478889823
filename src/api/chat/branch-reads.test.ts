/**
 * A chat's branch shown is found without reading the versions off it (decision 0130): every new
 * reply and every edit leaves a version behind, and a statement that found the branch by the chat
 * alone read them all, before every model call. Checked on the plans SQLite makes for the
 * statements the app runs (captured as they run: a send, new replies, an edit, the chat opened
 * and paged), and for the trigger that takes a reply's replaced versions out of the search index.
 */
import { type Client, type InStatement } from '@libsql/client'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { readSse } from '../../../tests/support/sse'
import { BASE_URL, chatThrough, createTestApp, enableOpenAiModels, registerOrg } from '../../../tests/support/test-app'

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
/** Every statement's SQL the app ran, as it ran it. */
const ran = new Set<string>()
const sqlOf = (s: InStatement) => (typeof s === 'string' ? s : s.sql)
const noting = (client: Client): Client =>
  new Proxy(client, {
    get(target, key) {
      if (key === 'execute') return (s: InStatement, args?: never) => (ran.add(sqlOf(s)), target.execute(s as never, args))
      if (key === 'batch') return (stmts: InStatement[], mode?: never) => (stmts.forEach((s) => ran.add(sqlOf(s))), target.batch(stmts, mode))
      const value = Reflect.get(target, key, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })

beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-branch', OPENAI_BASE_URL: `${fake.url}/v1` }, client: noting })
})
afterAll(async () => {
  await t.close()
  fake.close()
})

/** What SQLite's plan for `sql` says of each table it reads (values left unbound: the plan does not depend on them). */
const planOf = async (sql: string) => (await t.deps.db.$client.execute(`EXPLAIN QUERY PLAN ${sql}`)).rows.map((r) => String(r.detail))

/** A plan's steps that read `messages` (as itself or an alias). */
const messageSteps = (plan: string[]) => plan.filter((step) => /^(SCAN|SEARCH) (messages|m|s)\b/.test(step))

test('the statements that read the branch shown find it by the branch, not by reading the chat', async () => {
  const client = t.client()
  await registerOrg(client)
  await enableOpenAiModels(client, ['openai/gpt-4.1'])
  const thread = (await client.post('/api/threads', {})).body as { id: string }
  const headers = { cookie: client.cookieHeader(), origin: BASE_URL }
  await chatThrough(t.app, client, thread.id, 'hello')
  await chatThrough(t.app, client, thread.id, 'second')
  for (let i = 0; i < 3; i++) await readSse(await t.app.request(`/api/threads/${thread.id}/regenerate`, { method: 'POST', headers }))
  const send = { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ content: 'second, edited', replaceLast: true }) }
  await readSse(await t.app.request(`/api/threads/${thread.id}/messages`, send))
  await chatThrough(t.app, client, thread.id, 'third')
  expect((await client.get(`/api/threads/${thread.id}?last=2`)).status).toBe(200)
  const older = await client.get(`/api/threads/${thread.id}/messages?before=1000&limit=2`)
  expect(older.status).toBe(200)
  expect(older.body.messages.length).toBe(2)

  const branchReads = [...ran].filter((sql) => /\bon_branch"? = (\?|1)/.test(sql))
  // A send's and a new reply's history and their writes, the chat and its pages: not a few statements by chance.
  expect(branchReads.length).toBeGreaterThanOrEqual(6)
  for (const sql of branchReads) {
    for (const step of messageSteps(await planOf(sql))) {
      // Never every message of the database, nor every message of the chat read row by row; the
      // one search of a chat's messages by the chat alone that is left is its highest number
      // (the next message's), read from the index alone.
      expect({ sql, step }).toEqual({ sql, step: expect.not.stringMatching(/^SCAN|USING INDEX \S+ \(thread_id=\?\)$/) })
    }
  }
  // The history read before the model call, a send's and a new reply's: by the branch.
  const histories = branchReads.filter((sql) => /^select .* from "messages" where \("messages"\."thread_id" = \? and "messages"\."on_branch" = \?\) order by "messages"\."seq" asc$/s.test(sql))
  expect(histories.length).toBeGreaterThanOrEqual(2)
  for (const sql of histories) expect(messageSteps(await planOf(sql))[0]).toMatch(/USING INDEX \S+ \(thread_id=\? AND on_branch=\?\)$/)
})

test("a reply's replaced versions leave the search index found among its own versions, not among all the chat's versions off the branch", async () => {
  const [row] = (await t.deps.db.$client.execute(`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'chat_search_replaced_versions'`)).rows
  const trigger = String(row!.sql)
  // The trigger's statements, with the new row's values as parameters.
  const statements = trigger
    .slice(trigger.indexOf(' BEGIN') + 6, trigger.lastIndexOf('END'))
    .split(';')
    .map((s) => s.trim().replace(/NEW\.`\w+`/g, '?'))
    .filter(Boolean)
  expect(statements.length).toBe(2)
  for (const sql of statements) {
    const steps = messageSteps(await planOf(sql))
    expect(steps.length).toBe(1)
    expect(steps[0]).toMatch(/\(thread_id=\? AND parent_id=\? AND on_branch=\?\)$/)
  }
})
