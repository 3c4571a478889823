import { createClient, type Client } from '@libsql/client'
import { afterAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/libsql'
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Database } from '../../db/client'
import { commitTogether, MAX_STATEMENTS_TOGETHER } from './commit-together'

const notes = sqliteTable('notes', { id: text('id').primaryKey(), body: text('body').notNull(), n: integer('n').notNull() })

/**
 * A database file with a table of notes; `batches` counts the batches its client was asked to
 * write. `protocol` is what the client says it speaks ('http' stands in for a libSQL server).
 */
const folders: string[] = []
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

async function database(protocol = 'file') {
  const folder = mkdtempSync(join(tmpdir(), 'kontor-together-'))
  folders.push(folder)
  const client = createClient({ url: `file:${join(folder, 'notes.db')}` })
  await client.execute('CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT NOT NULL, n INTEGER NOT NULL)')
  const counted = { batches: 0 }
  const counting = new Proxy(client, {
    get(target, key) {
      if (key === 'batch') return (...args: Parameters<Client['batch']>) => (counted.batches++, target.batch(...args))
      if (key === 'protocol') return protocol
      const value = Reflect.get(target, key, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  const db = drizzle(counting) as unknown as Database
  return { db, deps: { db, writesTogether: true }, counted, rows: async () => (await client.execute('SELECT id, body, n FROM notes ORDER BY id')).rows.map((r) => [r.id, r.body, r.n]) }
}

const insert = (db: Database, id: string, n = 1) => db.insert(notes).values({ id, body: `note ${id}`, n })
const read = (db: Database, id: string) => db.select({ body: notes.body }).from(notes).where(eq(notes.id, id))

describe('commitTogether', () => {
  test('the batches asked for in one turn are written as one, and each caller gets its own results', async () => {
    const { db, deps, counted, rows } = await database()
    const [a, b, c] = await Promise.all([
      commitTogether(deps, [insert(db, 'a'), read(db, 'a')]),
      commitTogether(deps, [insert(db, 'b', 2)]),
      commitTogether(deps, [insert(db, 'c', 3), db.update(notes).set({ n: sql`${notes.n} + 10` }).where(eq(notes.id, 'b')), read(db, 'c')]),
    ])
    expect(counted.batches).toBe(1)
    expect(a).toHaveLength(2)
    expect(a[1]).toEqual([{ body: 'note a' }])
    expect(b).toHaveLength(1)
    expect(c).toHaveLength(3)
    expect(c[2]).toEqual([{ body: 'note c' }])
    // In order: the update of b came after b was written.
    expect(await rows()).toEqual([['a', 'note a', 1], ['b', 'note b', 12], ['c', 'note c', 3]])
    // A later turn is another batch.
    await commitTogether(deps, [insert(db, 'd')])
    expect(counted.batches).toBe(2)
  })

  test(`on a database file a batch holds at most ${MAX_STATEMENTS_TOGETHER} statements: the callers past them are written once the batch's callers went on, before whoever asked meanwhile; a caller with more goes alone`, async () => {
    const { db, deps, counted, rows } = await database()
    const callers = MAX_STATEMENTS_TOGETHER / 2 + 4
    const sizes: number[] = []
    const order: string[] = []
    const counting = new Proxy(db, {
      get: (target, key) => (key === 'batch' ? (items: unknown[]) => (sizes.push(items.length), order.push(`batch of ${items.length}`), target.batch(items as never)) : Reflect.get(target, key, target)),
    })
    const together = { ...deps, db: counting as Database }
    const first = Array.from({ length: callers }, (_, i) =>
      commitTogether(together, [insert(db, `a${String(i).padStart(2, '0')}`), db.update(notes).set({ n: 2 }).where(eq(notes.id, `a${String(i).padStart(2, '0')}`))]).then((r) => (order.push(`caller ${i}`), r)),
    )
    // Asked in the next turn, while the first turn's last callers wait: written after them.
    await new Promise((resolve) => setImmediate(resolve))
    const next = commitTogether(together, [insert(db, 'b'), db.update(notes).set({ n: sql`(SELECT count(*) FROM notes)` }).where(eq(notes.id, 'b'))])
    await Promise.all([...first, next])
    expect(sizes).toEqual([MAX_STATEMENTS_TOGETHER, 2 * (callers - MAX_STATEMENTS_TOGETHER / 2) + 2])
    // The first batch's callers go on before the next batch is written.
    const firstBatch = Array.from({ length: MAX_STATEMENTS_TOGETHER / 2 }, (_, i) => `caller ${i}`)
    expect(order.slice(0, firstBatch.length + 2)).toEqual([`batch of ${MAX_STATEMENTS_TOGETHER}`, ...firstBatch, `batch of ${sizes[1]}`])
    expect(await rows()).toHaveLength(callers + 1)
    // b saw every note of the first turn.
    expect((await rows()).find((r) => r[0] === 'b')).toEqual(['b', 'note b', callers + 1])
    // One caller with more statements than a batch holds is written whole, in one batch.
    const many = Array.from({ length: MAX_STATEMENTS_TOGETHER + 1 }, (_, i) => insert(db, `c${i}`))
    await Promise.all([
      commitTogether(together, [insert(db, 'd1')]),
      commitTogether(together, many as unknown as Parameters<typeof commitTogether>[1]),
      commitTogether(together, [insert(db, 'd2')]),
    ])
    expect(sizes.slice(2)).toEqual([1, MAX_STATEMENTS_TOGETHER + 1, 1])
    expect(counted.batches).toBe(5)
  })

  test('on a libSQL server, where a batch does not hold the event loop, the callers of a turn go in one batch however many statements they have', async () => {
    const { db, deps, counted, rows } = await database('http')
    await Promise.all(Array.from({ length: MAX_STATEMENTS_TOGETHER }, (_, i) => commitTogether(deps, [insert(db, `a${String(i).padStart(2, '0')}`), insert(db, `b${String(i).padStart(2, '0')}`)])))
    expect(counted.batches).toBe(1)
    expect(await rows()).toHaveLength(2 * MAX_STATEMENTS_TOGETHER)
  })

  test('a caller whose statements fail gets its error; the others are written, and its statements are all or nothing', async () => {
    const { db, deps, rows } = await database()
    await db.insert(notes).values({ id: 'taken', body: 'first', n: 0 })
    const results = await Promise.allSettled([
      commitTogether(deps, [insert(db, 'a')]),
      // Its first statement would succeed, its second fails: neither is kept.
      commitTogether(deps, [insert(db, 'b'), insert(db, 'taken')]),
      commitTogether(deps, [insert(db, 'c')]),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(String((results[1] as PromiseRejectedResult).reason?.cause ?? (results[1] as PromiseRejectedResult).reason)).toContain('UNIQUE')
    expect(await rows()).toEqual([['a', 'note a', 1], ['c', 'note c', 1], ['taken', 'first', 0]])
  })

  test('each caller goes on in a task of its own: its next steps may open a transaction without meeting another caller\'s', async () => {
    const { db, deps, rows } = await database()
    await Promise.all(
      ['a', 'b', 'c'].map(async (id) => {
        await commitTogether(deps, [insert(db, id)])
        await db.transaction(async (tx) => {
          await tx.update(notes).set({ n: sql`${notes.n} + 1` }).where(eq(notes.id, id))
          await tx.select().from(notes)
          await tx.update(notes).set({ body: `done ${id}` }).where(eq(notes.id, id))
        })
      }),
    )
    expect(await rows()).toEqual([['a', 'done a', 2], ['b', 'done b', 2], ['c', 'done c', 2]])
  })

  test('not on Workers (writesTogether off): each batch is written at once, alone', async () => {
    const { db, counted, rows } = await database()
    const alone = { db, writesTogether: false }
    const written = commitTogether(alone, [insert(db, 'a')])
    const also = commitTogether(alone, [insert(db, 'b')])
    await Promise.all([written, also])
    expect(counted.batches).toBe(2)
    expect((await rows()).map((r) => r[0])).toEqual(['a', 'b'])
  })

  test('a failure that is not one caller\'s (the database busy or gone) is every caller\'s, and nothing is written twice', async () => {
    const { db, deps, counted } = await database()
    const client = db.$client
    let failing = true
    const batch = client.batch.bind(client)
    client.batch = ((...args: Parameters<Client['batch']>) => (failing ? Promise.reject(Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'SQLITE_BUSY' })) : batch(...args))) as Client['batch']
    const results = await Promise.allSettled([commitTogether(deps, [insert(db, 'a')]), commitTogether(deps, [insert(db, 'b')])])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(String((results[0] as PromiseRejectedResult).reason)).toContain('SQLITE_BUSY')
    // One shared attempt, not one more for each caller.
    expect(counted.batches).toBe(1)
    failing = false
  })
})
