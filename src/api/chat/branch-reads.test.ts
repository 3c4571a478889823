/**
 * A chat's branch shown is found without reading the versions off it (decision 0130): every new
 * reply and every edit leaves a version behind, and a statement that found the branch by the chat
 * alone read them all, before every model call. Checked on the plans SQLite makes for the
 * statements the app runs (captured as they run: a send, new replies, an edit, the chat opened,
 * paged and paged back to a message, exported and shared), and for the trigger that takes a
 * reply's replaced versions out of the search index.
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
/** Notes the SQL of every statement run through `target` (a client or a transaction of it). */
const noting = <T extends object>(target: T): T =>
  new Proxy(target, {
    get(object, key) {
      const value = Reflect.get(object, key, object) as unknown
      if (typeof value !== 'function') return value
      if (key === 'execute') return (s: InStatement, args?: never) => (ran.add(sqlOf(s)), value.call(object, s, args))
      if (key === 'batch') return (stmts: InStatement[], mode?: never) => (stmts.forEach((s) => ran.add(sqlOf(s))), value.call(object, stmts, mode))
      if (key === 'executeMultiple') return (sql: string) => (ran.add(sql), value.call(object, sql))
      if (key === 'transaction') return async (mode?: never) => noting(await value.call(object, mode))
      return value.bind(object)
    },
  })

beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-branch', OPENAI_BASE_URL: `${fake.url}/v1` }, client: (client: Client) => noting(client) })
})
afterAll(async () => {
  await t.close()
  fake.close()
})

/** What SQLite's plan for `sql` says of each table it reads (values left unbound: the plan does not depend on them). */
const planOf = async (sql: string) => (await t.deps.db.$client.execute(`EXPLAIN QUERY PLAN ${sql}`)).rows.map((r) => String(r.detail))

/** A plan's steps that read `messages` (as itself or an alias). */
const messageSteps = (plan: string[]) => plan.filter((step) => /^(SCAN|SEARCH) (messages|m|o|s)\b/.test(step))

/**
 * How a statement that reads the branch may look messages up: by the branch, by a message's
 * versions, by id, or by the chat in two indexes alone: the chat's highest number (one step to
 * the end of the index) and its streaming reply (an index of streaming replies only). Anything
 * else (a scan, the chat's messages or their index entries read one by one) reads the versions
 * off the branch too.
 */
const FOUND_WITHOUT_VERSIONS =
  /\(thread_id=\? AND (on_branch|parent_id)=\?|\(id=\?\)$|INTEGER PRIMARY KEY|^SEARCH \w+ USING COVERING INDEX (messages_thread_seq_idx|messages_one_streaming_idx) \(thread_id=\?\)$/

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
  const shown = await client.get(`/api/threads/${thread.id}?last=2`)
  expect(shown.status).toBe(200)
  const older = await client.get(`/api/threads/${thread.id}/messages?before=1000&limit=4`)
  expect(older.status).toBe(200)
  expect(older.body.messages.length).toBe(4)
  // Versions are told apart on the pages: the edited message has two.
  expect(older.body.messages.some((m: { siblingIds: string[] }) => m.siblingIds.length === 2)).toBe(true)
  expect((await client.get(`/api/threads/${thread.id}?last=2&through=${shown.body.messages[0].id}`)).status).toBe(200)
  expect((await client.get(`/api/threads/${thread.id}/export?format=json`)).status).toBe(200)
  expect((await client.post(`/api/threads/${thread.id}/shares`, {})).status).toBe(201)

  const branchReads = [...ran].filter((sql) => /\bon_branch"? = (\?|0|1)/.test(sql))
  // A send's and a new reply's history and their writes, the chat and its pages: not a few statements by chance.
  expect(branchReads.length).toBeGreaterThanOrEqual(6)
  for (const sql of branchReads) {
    const steps = messageSteps(await planOf(sql))
    expect({ sql, steps: steps.length > 0 }).toEqual({ sql, steps: true })
    for (const step of steps) expect({ sql, step }).toEqual({ sql, step: expect.stringMatching(FOUND_WITHOUT_VERSIONS) })
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
