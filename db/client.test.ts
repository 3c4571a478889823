import { createClient } from '@libsql/client'
import { afterAll, describe, expect, spyOn, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { blob, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { drizzle } from 'drizzle-orm/libsql'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bound, flatRows, prepareDatabaseFile } from './client'

// A table of every kind of column the app reads, and one to left-join (its columns may be null).
const items = sqliteTable('items', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  note: text('note'),
  tags: text('tags', { mode: 'json' }).$type<string[]>().notNull(),
  done: integer('done', { mode: 'boolean' }).notNull(),
  count: integer('count').notNull(),
  at: integer('at', { mode: 'timestamp_ms' }).notNull(),
  seen: integer('seen', { mode: 'timestamp' }),
  data: blob('data'),
})
const owners = sqliteTable('owners', { itemId: text('item_id').notNull(), name: text('name').notNull(), since: integer('since', { mode: 'timestamp_ms' }) })

async function database() {
  const client = createClient({ url: `file:${join(mkdtempSync(join(tmpdir(), 'kontor-flat-')), 'flat.db')}` })
  await client.executeMultiple(`
    CREATE TABLE items (id TEXT PRIMARY KEY, name TEXT NOT NULL, note TEXT, tags TEXT NOT NULL, done INTEGER NOT NULL, count INTEGER NOT NULL, at INTEGER NOT NULL, seen INTEGER, data BLOB);
    CREATE TABLE owners (item_id TEXT NOT NULL, name TEXT NOT NULL, since INTEGER);`)
  const db = drizzle(client)
  await db.insert(items).values([
    { id: 'a', name: 'First', note: null, tags: ['x', 'y'], done: true, count: 3, at: new Date(1_700_000_000_123), seen: new Date(1_700_000_000_000), data: Buffer.from([1, 2, 3]) },
    { id: 'b', name: 'Second', note: 'n', tags: [], done: false, count: 0, at: new Date(1_600_000_000_000), seen: null, data: null },
  ])
  await db.insert(owners).values({ itemId: 'a', name: 'Ann', since: new Date(1_650_000_000_000) })
  return db
}

describe('flatRows', () => {
  test('answers the rows `all()` answers: dates, booleans, JSON, blobs, nulls, left-joined columns, sql with and without a decoder', async () => {
    const db = await database()
    const select = db
      .select({
        id: items.id,
        name: items.name,
        note: items.note,
        tags: items.tags,
        done: items.done,
        count: items.count,
        at: items.at,
        seen: items.seen,
        data: items.data,
        owner: owners.name,
        ownerSince: owners.since,
        doubled: sql<number>`${items.count} * 2`,
        named: sql<string>`upper(${items.name})`.as('named'),
        isFirst: sql<boolean>`${items.id} = 'a'`.mapWith(Boolean),
        atAgain: sql<Date>`${items.at}`.mapWith(items.at),
      })
      .from(items)
      .leftJoin(owners, eq(owners.itemId, items.id))
      .where(sql`${items.count} >= ${sql.placeholder('min')}`)
      .orderBy(items.id)
      .prepare()
    const expected = await select.all({ min: 0 })
    const rows = await flatRows(select)({ min: 0 })
    expect(rows).toEqual(expected)
    expect(rows[0]!.at).toEqual(new Date(1_700_000_000_123))
    expect(rows[1]!.owner).toBeNull()
    expect(rows[0]!.isFirst).toBe(true)
    // The second call reads with the same columns.
    expect(await flatRows(select)({ min: 1 })).toEqual(await select.all({ min: 1 }))
  })

  test('a select with nested fields is refused when first read, not mapped wrongly', async () => {
    const db = await database()
    const nested = db.select({ item: { id: items.id }, name: items.name }).from(items).prepare()
    await expect(flatRows(nested as never)()).rejects.toThrow('flat fields')
  })
})

describe('rows read by position', () => {
  test('a database file answers a `raw` statement with plain arrays, its values as a named row has them', async () => {
    const db = await database()
    const statement = { sql: 'SELECT id, count, data, note, 9007199254740991 AS big FROM items ORDER BY id', args: [] }
    const named = await db.$client.execute(statement)
    const raw = await db.$client.execute({ ...statement, raw: true } as typeof statement)
    expect(raw.rows.every((row) => Array.isArray(row))).toBe(true)
    expect(raw.rows.map((row) => [...(row as unknown as unknown[])])).toEqual(named.rows.map((row) => Array.from(row)))
    // Integers arrive as numbers and blobs as ArrayBuffers, as in a named row.
    expect(raw.rows[0] as unknown).toEqual(['a', 3, new Uint8Array([1, 2, 3]).buffer, null, 9007199254740991])
    // Without `raw`, rows name their values.
    expect(named.rows[0]!.id).toBe('a')
  })

  test("Drizzle's reads ask for them; selects, single rows, reads in a transaction, batches and raw SQL answer as before", async () => {
    const db = await database()
    const executed: unknown[] = []
    const execute = db.$client.execute.bind(db.$client)
    db.$client.execute = ((stmt: unknown) => (executed.push(stmt), execute(stmt as never))) as typeof execute
    const rows = await db.select({ id: items.id, tags: items.tags, at: items.at, data: items.data }).from(items).orderBy(items.id)
    expect(executed.at(-1)).toMatchObject({ raw: true })
    expect(rows[0]).toEqual({ id: 'a', tags: ['x', 'y'], at: new Date(1_700_000_000_123), data: Buffer.from([1, 2, 3]) })
    expect(await db.select().from(items).where(eq(items.id, 'b')).get()).toMatchObject({ id: 'b', done: false, seen: null, data: null })
    expect(await db.transaction((tx) => tx.select({ id: items.id, done: items.done }).from(items).where(eq(items.id, 'a')))).toEqual([{ id: 'a', done: true }])
    const [batched] = await db.batch([db.select({ id: items.id, count: items.count }).from(items).orderBy(items.id)])
    expect(batched).toEqual([{ id: 'a', count: 3 }, { id: 'b', count: 0 }])
    // A read of raw SQL names its columns itself: it still gets named rows.
    expect(await db.all(sql`SELECT id, count FROM items ORDER BY id`)).toEqual([{ id: 'a', count: 3 }, { id: 'b', count: 0 }])
  })
})

describe('a database file', () => {
  test('commits without waiting for the disk on every connection the client opens, also those opened after a transaction took one', async () => {
    const client = createClient({ url: `file:${join(mkdtempSync(join(tmpdir(), 'kontor-sync-')), 'sync.db')}` })
    await prepareDatabaseFile(client)
    const synchronous = async (run: { execute: typeof client.execute }) => (await run.execute('PRAGMA synchronous')).rows[0]![0]
    expect(await synchronous(client)).toBe(1) // NORMAL
    const held = await client.transaction('write')
    expect(await synchronous(held)).toBe(1)
    // The transaction holds the first connection: this statement runs on a new one.
    expect(await synchronous(client)).toBe(1)
    await held.commit()
    expect((await client.execute('PRAGMA journal_mode')).rows[0]![0]).toBe('wal')
    client.close()
  })

  // SQLite drops a connection's page cache whenever another connection has written. Calls made
  // together (a request's look-ups, started at once) each borrowed a connection of their own, so
  // the pool grew to its limit and most reads began by reading their pages again
  // (patches/@libsql%2Fclient, decision 0118).
  test('calls made together take turns on one connection; only a transaction holds another', async () => {
    const client = createClient({ url: `file:${join(mkdtempSync(join(tmpdir(), 'kontor-turns-')), 'turns.db')}` })
    await prepareDatabaseFile(client)
    // A temporary table lives in its own connection: a call on any other one does not find it.
    await client.execute('CREATE TEMP TABLE mine (x INTEGER)')
    const count = (run: { execute: typeof client.execute } = client) => run.execute('SELECT count(*) AS n FROM mine').then((r) => Number(r.rows[0]!.n))
    const [counts, batch] = await Promise.all([
      Promise.all(Array.from({ length: 8 }, () => count())),
      client.batch(['INSERT INTO mine VALUES (1)', 'SELECT count(*) AS n FROM mine']),
      client.executeMultiple('INSERT INTO mine VALUES (2);'),
    ])
    expect(counts).toEqual([0, 0, 0, 0, 0, 0, 0, 0])
    expect(Number(batch[1]!.rows[0]!.n)).toBe(1)
    expect(await count()).toBe(2)
    // A transaction holds the connection it began on: a call meanwhile gets another, and the one after it the first again.
    const held = await client.transaction('read')
    expect(await count(held)).toBe(2)
    await expect(count()).rejects.toThrow(/no such table/)
    await held.commit()
    expect(await count()).toBe(2)
    client.close()
  })
})

describe('bound', () => {
  test('a statement prepared once goes into batches with its values: its SQL is built once, each value encoded by its column, its rows mapped as its own', async () => {
    const db = await database()
    const p = sql.placeholder
    const insert = db
      .insert(items)
      .values({ id: p('id'), name: p('name'), tags: p('tags'), done: p('done'), count: 1, at: p('at') })
      .prepare()
    const select = db.select().from(items).where(eq(items.id, p('id'))).prepare()
    const raise = db.run(sql`UPDATE items SET count = count + ${p('by')} WHERE id = ${p('id')}`)
    const built = [spyOn(insert, 'getQuery'), spyOn(select, 'getQuery'), spyOn(raise, 'getQuery')]

    const [, , rows] = await db.batch([
      bound(insert, { id: 'c', name: 'Third', tags: ['z'], done: true, at: new Date(1_700_000_000_999) }),
      bound(raise, { id: 'c', by: 4 }),
      bound(select, { id: 'c' }),
    ])
    expect(rows).toEqual([{ id: 'c', name: 'Third', note: null, tags: ['z'], done: true, count: 5, at: new Date(1_700_000_000_999), seen: null, data: null }])
    const [, again] = await db.batch([bound(insert, { id: 'd', name: 'Fourth', tags: [], done: false, at: new Date(5) }), bound(select, { id: 'd' })])
    expect(again).toEqual([{ id: 'd', name: 'Fourth', note: null, tags: [], done: false, count: 1, at: new Date(5), seen: null, data: null }])
    await db.batch([bound(raise, { id: 'd', by: 1 })])
    expect(built.map((spy) => spy.mock.calls.length)).toEqual([1, 1, 1])
    expect((await db.select({ count: items.count }).from(items).where(eq(items.id, 'd')))[0]!.count).toBe(2)
  })

  test('a statement of a batch that fails rolls the batch back, and the same statement runs with other values afterwards', async () => {
    const db = await database()
    const insert = db.insert(items).values({ id: sql.placeholder('id'), name: 'x', tags: [], done: false, count: 0, at: new Date(0) }).prepare()
    await expect(db.batch([bound(insert, { id: 'e' }), bound(insert, { id: 'a' })])).rejects.toThrow()
    expect(await db.select({ id: items.id }).from(items).where(eq(items.id, 'e'))).toEqual([])
    await db.batch([bound(insert, { id: 'e' })])
    expect(await db.select({ id: items.id }).from(items).where(eq(items.id, 'e'))).toEqual([{ id: 'e' }])
  })
})

describe('a write that meets another connection’s lock', () => {
  const lockedDir = mkdtempSync(join(tmpdir(), 'kontor-locked-'))
  afterAll(() => rmSync(lockedDir, { recursive: true, force: true }))

  // The driver leaves a statement that met a locked database running; the client closes that
  // connection instead of reusing it (patches/@libsql%2Fclient), so that the next COMMIT on it
  // does not fail with "SQL statements in progress" until the statement is collected.
  test('leaves the client able to write and commit as soon as the lock is gone', async () => {
    const url = `file:${join(lockedDir, 'locked.db')}`
    const holder = createClient({ url })
    const writer = createClient({ url })
    await prepareDatabaseFile(holder)
    await holder.execute('CREATE TABLE t (x INTEGER)')
    const held = await holder.transaction('write')
    // Each way a write begins meets the lock: a transaction, a batch, a statement on its own.
    await expect(writer.transaction('write')).rejects.toMatchObject({ code: 'SQLITE_BUSY' })
    await expect(writer.batch(['INSERT INTO t VALUES (1)'], 'write')).rejects.toMatchObject({ code: 'SQLITE_BUSY' })
    await expect(writer.execute('INSERT INTO t VALUES (1)')).rejects.toMatchObject({ code: 'SQLITE_BUSY' })
    await held.commit()

    await writer.batch(['INSERT INTO t VALUES (2)'], 'write')
    const tx = await writer.transaction('write')
    await tx.execute('INSERT INTO t VALUES (3)')
    await tx.commit()
    await writer.migrate([{ sql: 'INSERT INTO t VALUES (4)', args: [] }])
    expect((await holder.execute('SELECT x FROM t ORDER BY x')).rows.map((r) => Number(r.x))).toEqual([2, 3, 4])
    holder.close()
    writer.close()
  })
  test('calls made together while the lock is held: each write meets it on a connection that is then closed, and the calls after them run on a new one', async () => {
    const url = `file:${join(lockedDir, 'waiting.db')}`
    const holder = createClient({ url })
    await prepareDatabaseFile(holder)
    await holder.execute('CREATE TABLE t (x INTEGER)')
    // Two connections at most. A temporary table lives in the connection that made it.
    const writer = createClient({ url, concurrency: 2 })
    await writer.execute('CREATE TEMP TABLE mine (x INTEGER)')
    const held = await holder.transaction('write')
    const writes = [writer.execute('INSERT INTO t VALUES (1)'), writer.execute('INSERT INTO t VALUES (1)')]
    const after = writer.execute('SELECT count(*) AS n FROM t')
    for (const result of await Promise.allSettled(writes)) expect(result).toMatchObject({ status: 'rejected', reason: { code: 'SQLITE_BUSY' } })
    expect(Number((await after).rows[0]!.n)).toBe(0)
    // The connection that made the table met the lock and was closed.
    await expect(writer.execute('SELECT count(*) FROM mine')).rejects.toThrow(/no such table/)
    await held.commit()
    await writer.execute('INSERT INTO t VALUES (2)')
    expect((await holder.execute('SELECT x FROM t')).rows.map((r) => Number(r.x))).toEqual([2])
    holder.close()
    writer.close()
  })
})
