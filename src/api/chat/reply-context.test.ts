/**
 * A process keeps a chat's reply context while the database's context version is unchanged
 * (reply-context.ts, decision 0126). What must hold: every table the context is read from changes
 * the version when written (whatever writes it: triggers); a kept context is used only while the
 * version is the same, so a change made by any process reaches the next reply.
 */
import type { Client, InStatement } from '@libsql/client'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { startTestMcpServer } from '../../../tests/support/mcp-servers'
import { until } from '../../../tests/support/wait-for'
import { BASE_URL, chatThrough, createTestApp, enableOpenAiModels, registerOrg, type TestClient } from '../../../tests/support/test-app'
import type { SessionUser } from '../../lib/context'
import { forgetReplyContexts, replyContext } from './reply-context'

// Sign-ups (password hashing), uploads and two apps: room on a loaded machine.
setDefaultTimeout(60_000)

type TestApp = Awaited<ReturnType<typeof createTestApp>>
let fake: FakeLlm
let own: ReturnType<typeof startTestMcpServer>
let t: TestApp
/** A second server process on the same database file. */
let other: TestApp

/** The statements the app ran while recording. */
let recorded: string[] | null = null
const sqlOf = (s: InStatement) => (typeof s === 'string' ? s : s.sql)
const recording = (client: Client): Client =>
  new Proxy(client, {
    get(target, key) {
      if (key === 'execute') return (s: InStatement) => (recorded?.push(sqlOf(s)), target.execute(s))
      if (key === 'batch') return (stmts: InStatement[], mode?: never) => (recorded?.push(...stmts.map(sqlOf)), target.batch(stmts, mode))
      const value = Reflect.get(target, key, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
async function statementsOf(run: () => Promise<unknown>) {
  recorded = []
  try {
    await run()
    return recorded
  } finally {
    recorded = null
  }
}
/** The tables a statement reads or writes, by name. */
const tablesOf = (statements: string[]) => [...new Set(statements.flatMap((s) => [...s.matchAll(/\b(?:from|join|into|update)\s+[`"]?(\w+)[`"]?/gi)].map((m) => m[1]!)))].sort()

beforeAll(async () => {
  fake = await startFakeLlm()
  own = startTestMcpServer()
  const env = { OPENAI_API_KEY: 'sk-context', OPENAI_BASE_URL: `${fake.url}/v1`, KONTOR_FETCH_ALLOWED_HOSTS: '127.0.0.1' }
  t = await createTestApp({ env, client: recording, localFiles: true })
  other = await createTestApp({ env, databaseUrl: t.databaseUrl })
})
afterAll(async () => {
  await other?.close()
  await t?.close()
  own?.close()
  fake?.close()
})

const callerOf = async (client: TestClient) => (await t.deps.readSession(new Headers({ cookie: client.cookieHeader() })))!
/** The same member signed in to the second process. */
const signedInToOther = (client: TestClient) => {
  const there = other.client()
  for (const [name, value] of client.cookies) there.cookies.set(name, value)
  return there
}
const modelCalls = () => fake.requests.filter((r) => r.body?.stream)
const offeredTools = () => ((modelCalls().at(-1)!.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((x) => x.function.name).sort()
const systemPromptOf = () => (modelCalls().at(-1)!.body as { messages: { role: string; content: string }[] }).messages[0]!.content
const chat = async (client: TestClient, threadId: string) => {
  fake.reset()
  const events = await chatThrough(t.app, client, threadId, 'Hello')
  return events.find((e) => e.event === 'error' || e.event === 'done')?.data as { code?: string } | undefined
}

/**
 * An organisation whose chat reads from every kind of table a reply context has: an agent with a
 * knowledge collection and a tool, a collection attached to the chat, a file in it, MCP tools for a
 * group the member is in and for the agent.
 */
async function richChat() {
  const admin = t.client()
  await registerOrg(admin)
  const me = (await admin.get('/api/auth/me')).body as { id: string }
  const [model] = await enableOpenAiModels(admin, ['openai/gpt-4.1', 'openai/text-embedding-3-small'])
  const group = (await admin.post('/api/groups', { name: 'Editors' })).body
  await admin.post(`/api/groups/${group.id}/members`, { userIds: [me.id] })
  const collection = (await admin.post('/api/collections', { name: 'Handbook' })).body
  const attached = (await admin.post('/api/collections', { name: 'Glossary' })).body
  const agent = (await admin.post('/api/agents', { name: 'Editor', instructions: 'Edit texts.', modelId: model.id, collectionIds: [collection.id], tools: ['source_query'] })).body
  const server = (await admin.post('/api/mcp-servers', { name: 'Dictionary', url: own.url })).body
  expect((await admin.put(`/api/mcp-servers/${server.id}/tools/lookup`, { scope: 'groups', groupIds: [group.id] })).status).toBe(200)
  expect((await admin.put(`/api/mcp-servers/${server.id}/tools/picture`, { scope: 'agents', agentIds: [agent.id] })).status).toBe(200)
  const thread = (await admin.post('/api/threads', { agentId: agent.id })).body
  expect((await admin.put(`/api/threads/${thread.id}/collections/${attached.id}`)).status).toBe(200)
  const form = new FormData()
  form.set('file', new File(['Kerning is the space between letters.'], 'kerning.txt', { type: 'text/plain' }))
  const upload = await t.app.request(`/api/threads/${thread.id}/sources/file`, { method: 'POST', headers: { cookie: admin.cookieHeader(), origin: BASE_URL }, body: form })
  expect(upload.status).toBe(201)
  // Processed (its writes change the version too): ready to search.
  await until('the file processed', async () => (await admin.get(`/api/threads/${thread.id}/sources`)).body[0]?.status === 'ready')
  return { admin, model, group, agent, server, thread, collection, attached }
}

describe('reply context', () => {
  test('every table a reply context is read from changes the context version with each insert, update and delete', async () => {
    const { admin, thread } = await richChat()
    const caller = await callerOf(admin)
    forgetReplyContexts(t.deps)
    const tables = tablesOf(await statementsOf(() => replyContext(t.deps, caller, thread.id))).filter((name) => name !== 'context_version' && name !== 'threads')
    // The chat itself is read with every reply. The chat above reads all the others (a change to the reading shows here first).
    expect(tables).toEqual(
      expect.arrayContaining(['agent_collections', 'agents', 'budgets', 'collections', 'group_members', 'mcp_servers', 'mcp_tools', 'permitted_models', 'sources', 'thread_collections']),
    )
    const triggers = await t.deps.db.$client.execute(`SELECT tbl_name, sql FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%context_version%'`)
    for (const table of tables) {
      const own = triggers.rows.filter((r) => r.tbl_name === table).map((r) => String(r.sql))
      for (const event of ['INSERT', 'UPDATE', 'DELETE']) expect({ table, event, raises: own.some((sql) => new RegExp(`AFTER ${event}\\b`, 'i').test(sql)) }).toEqual({ table, event, raises: true })
    }
  })

  test('a kept context costs one statement (the chat with the version); a change, made by this process or another, is read again before the next reply', async () => {
    const { admin, agent, model, server, thread, collection } = await richChat()
    const caller = await callerOf(admin)
    expect(await chat(admin, thread.id)).toBeUndefined()
    expect(offeredTools()).toEqual(['Dictionary__lookup', 'Dictionary__picture', 'source_query'])
    // Unchanged: the chat with the version.
    const again = await statementsOf(() => replyContext(t.deps, caller, thread.id))
    expect(tablesOf(again)).toEqual(['context_version', 'threads'])
    expect(again).toHaveLength(1)

    // The agent's instructions changed through this process.
    expect((await admin.put(`/api/agents/${agent.id}`, { name: 'Editor', instructions: 'Shorten texts.', modelId: model.id, collectionIds: [collection.id], tools: ['source_query'] })).status).toBe(200)
    expect(await chat(admin, thread.id)).toBeUndefined()
    expect(systemPromptOf()).toContain('Shorten texts.')

    // An MCP tool disabled through another process on the same database.
    const elsewhere = signedInToOther(admin)
    expect((await elsewhere.delete(`/api/mcp-servers/${server.id}/tools/picture`)).status).toBe(204)
    expect(await chat(admin, thread.id)).toBeUndefined()
    expect(offeredTools()).toEqual(['Dictionary__lookup', 'source_query'])

    // The model no longer permitted (another process): the next reply is refused.
    expect((await elsewhere.delete(`/api/models/permitted/${model.id}`)).status).toBe(204)
    const refused = await admin.post(`/api/threads/${thread.id}/messages`, { content: 'Hello' })
    expect([refused.status, refused.body.code]).toEqual([404, 'NO_MODEL_FOUND'])
  })

  test("a file's processing changes the version only where what the reading reads changes", async () => {
    const { thread } = await richChat()
    const version = async () => (await t.deps.db.$client.execute('SELECT n FROM context_version')).rows[0]?.n
    const before = await version()
    await other.deps.db.$client.execute({ sql: 'UPDATE sources SET locked_until = ?, lease = ?, attempts = attempts + 1, updated_at = ? WHERE thread_id = ?', args: [Date.now() + 60_000, 'a-lease', Date.now(), thread.id] })
    expect(await version()).toBe(before)
    await other.deps.db.$client.execute({ sql: "UPDATE sources SET status = 'failed' WHERE thread_id = ?", args: [thread.id] })
    expect(await version()).not.toBe(before)
  })

  test('a budget set after the context was kept applies to the next reply', async () => {
    const { admin, thread } = await richChat()
    expect(await chat(admin, thread.id)).toBeUndefined()
    // Kept without budgets: no statement of budgets before the call.
    expect(tablesOf(await statementsOf(async () => expect(await chat(admin, thread.id)).toBeUndefined()))).not.toContain('budgets')
    expect((await admin.put('/api/budgets', { scope: 'organization', metric: 'tokens', limit: 1 })).status).toBe(200)
    await until('the replies counted', async () => ((await admin.get('/api/budgets')).body[0]?.spent ?? 0) >= 1)
    const refused = await admin.post(`/api/threads/${thread.id}/messages`, { content: 'Hello' })
    expect([refused.status, refused.body.code]).toEqual([429, 'BUDGET_EXCEEDED'])
  })

  test('a chat deleted, or written straight into the database, is read again', async () => {
    const { admin, thread, group } = await richChat()
    const caller = await callerOf(admin)
    await replyContext(t.deps, caller, thread.id)
    // Out of the group that gets the lookup tool, by a statement of no route.
    await other.deps.db.$client.execute({ sql: 'DELETE FROM group_members WHERE group_id = ?', args: [group.id] })
    expect((await replyContext(t.deps, caller, thread.id)).tools.map((tool) => tool.name).sort()).toEqual(['Dictionary__picture', 'source_query'])
    expect((await admin.delete(`/api/threads/${thread.id}`)).status).toBe(204)
    await expect(replyContext(t.deps, caller, thread.id)).rejects.toMatchObject({ code: 'THREAD_NOT_FOUND' })
  })

  test('a context kept for its owner does not open a chat to another member of the organisation', async () => {
    const { admin, thread } = await richChat()
    await replyContext(t.deps, await callerOf(admin), thread.id)
    const intruder: SessionUser = { ...(await callerOf(admin)), id: crypto.randomUUID() }
    await expect(replyContext(t.deps, intruder, thread.id)).rejects.toMatchObject({ code: 'THREAD_NOT_FOUND' })
  })
})
