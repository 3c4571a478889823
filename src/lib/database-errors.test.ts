import { afterAll, expect, test } from 'bun:test'
import { createClient } from '@libsql/client'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/libsql'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describeDatabaseError, isDatabaseBusy, isDatabaseUnavailable, retryingWhenBusy } from './database-errors'
import { freePort } from '../../tests/support/ports'

const dir = mkdtempSync(join(tmpdir(), 'kontor-dberr-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The error a query through Drizzle (as the services run them) raises. */
async function failure(url: string, query = sql`SELECT 1`) {
  const client = createClient({ url })
  try {
    await drizzle(client).run(query)
  } catch (error) {
    return error
  } finally {
    client.close()
  }
  throw new Error(`the query on ${url} succeeded`)
}

/** A port nothing listens on: bound once, then released. */
const closedPort = freePort

test('a libSQL server that does not answer is an outage, described in one line without the SQL', async () => {
  const error = await failure(`http://127.0.0.1:${closedPort()}`)
  expect(isDatabaseUnavailable(error)).toBe(true)
  const line = describeDatabaseError(error)
  expect(line).toContain('ECONNREFUSED')
  expect(line).not.toContain('SELECT')
  expect(line).not.toContain('\n')
})

test('a closed client is an outage', async () => {
  const client = createClient({ url: `file:${join(dir, 'closed.db')}` })
  client.close()
  let error: unknown
  await drizzle(client).run(sql`SELECT 1`).catch((e) => (error = e))
  expect(isDatabaseUnavailable(error)).toBe(true)
})

test('a server or proxy answering 5xx is an outage; a refused token (401) and a bad query are not', async () => {
  const statuses = new Map<string, number>()
  const proxy = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (r) => new Response('no', { status: statuses.get(new URL(r.url).hostname) ?? 502 }) })
  try {
    statuses.set('127.0.0.1', 503)
    expect(isDatabaseUnavailable(await failure(`http://127.0.0.1:${proxy.port}`))).toBe(true)
    statuses.set('127.0.0.1', 401)
    const refused = await failure(`http://127.0.0.1:${proxy.port}`)
    expect(isDatabaseUnavailable(refused)).toBe(false)
    expect(describeDatabaseError(refused)).toContain('401')
  } finally {
    proxy.stop(true)
  }
  const bad = await failure(`file:${join(dir, 'ok.db')}`, sql`SELECT * FROM no_such_table`)
  expect(isDatabaseUnavailable(bad)).toBe(false)
  expect(describeDatabaseError(bad)).toContain('no such table')
})

test('a write to a file another connection is writing is a busy error, not an outage', async () => {
  const url = `file:${join(dir, 'busy.db')}`
  const holder = createClient({ url })
  await holder.execute('PRAGMA journal_mode = WAL')
  await holder.execute('CREATE TABLE t (x)')
  const open = await holder.transaction('write')
  await open.execute('INSERT INTO t VALUES (1)')
  try {
    const error = await failure(url, sql`INSERT INTO t VALUES (2)`)
    expect(isDatabaseBusy(error)).toBe(true)
    expect(isDatabaseUnavailable(error)).toBe(false)
  } finally {
    await open.commit()
    holder.close()
  }
  expect(isDatabaseBusy(await failure(`file:${join(dir, 'busy.db')}`, sql`SELECT * FROM missing`))).toBe(false)
})

test('a statement that meets another connection\'s write lock is tried again once the lock is gone', async () => {
  const url = `file:${join(dir, 'retry.db')}`
  const holder = createClient({ url })
  await holder.execute('PRAGMA journal_mode = WAL')
  await holder.execute('CREATE TABLE t (x)')
  const waiting = retryingWhenBusy(createClient({ url }))
  const open = await holder.transaction('write')
  await open.execute('INSERT INTO t VALUES (1)')
  // The local driver runs the first attempt at once: it meets the lock and waits to try again.
  const write = waiting.execute('INSERT INTO t VALUES (2)')
  const batch = waiting.batch(['INSERT INTO t VALUES (3)', 'INSERT INTO t VALUES (4)'], 'write')
  await open.commit()
  await write
  await batch
  expect((await holder.execute('SELECT x FROM t ORDER BY x')).rows.map((r) => r.x)).toEqual([1, 2, 3, 4])

  // A lock that is never released ends in the busy error; other errors are not tried again.
  const stuck = await holder.transaction('write')
  await stuck.execute('INSERT INTO t VALUES (5)')
  try {
    expect(isDatabaseBusy(await waiting.execute('INSERT INTO t VALUES (6)').catch((e: unknown) => e))).toBe(true)
  } finally {
    await stuck.rollback()
  }
  const missing = await waiting.execute('SELECT * FROM missing').catch((e: unknown) => e)
  expect(isDatabaseBusy(missing)).toBe(false)
  expect(String(missing)).toContain('no such table')
  expect(waiting.closed).toBe(false)
  expect(waiting.protocol).toBe('file')
  holder.close()
  waiting.close()
  expect(waiting.closed).toBe(true)
})

