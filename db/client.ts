import type { Client } from '@libsql/client'
import { fillPlaceholders } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import { drizzle } from 'drizzle-orm/libsql'
import * as schema from './schema'

export type Database = ReturnType<typeof createDatabase>

/** Wraps a libSQL client (file, sqld or Turso; created by the entry file) in Drizzle. */
export function createDatabase(client: Client) {
  return drizzle(client, { schema })
}

/**
 * Settings of a database file (not of a libSQL server). The journal mode and the cache size are
 * kept in the file itself, so that every connection has them, also the fresh one the client opens
 * after handing its connection to a transaction; `synchronous` is per connection (see below). Write-ahead log: a commit appends to one log instead of rewriting a rollback
 * journal with several syncs, which every sent message and streamed reply waits for. A page cache
 * of up to 64 MB (16,384 pages of 4 KB) instead of SQLite's 2 MB: a search reads a chat's vectors
 * and passages again and again, and from the cache an exact scan of 1,000 vectors takes a third
 * of the time (bench/sources.ts, decision 0075).
 */
export async function prepareDatabaseFile(client: Client) {
  await client.execute('PRAGMA journal_mode = WAL')
  // Written ahead, a commit need not wait for the disk (decision 0090). Each connection the client
  // opens on a WAL file says so itself (patches/); this one was opened before the file was WAL.
  await client.execute('PRAGMA synchronous = NORMAL')
  await client.execute('PRAGMA default_cache_size = 16384')
}

/**
 * One statement per database, built on first use. Building a Drizzle query costs more CPU than
 * running a small indexed one, so statements on every request's path (the session, lists) are
 * prepared once with `sql.placeholder` for their values.
 */
export function preparedFor<T>(build: (db: Database) => T): (db: Database) => T {
  const built = new WeakMap<Database, T>()
  return (db) => {
    let statement = built.get(db)
    if (statement === undefined) built.set(db, (statement = build(db)))
    return statement
  }
}

/**
 * A statement prepared once (`preparedFor`, with `sql.placeholder` for its values: a query
 * builder's `.prepare()` or a `db.run(sql…)`) and its values, as an item of a batch (`db.batch`,
 * commitTogether): its SQL is built once, and its result is mapped as the statement's own. A batch
 * of Drizzle's query builders builds each statement's SQL anew every time, which for the
 * statements that begin a reply cost more than running them. Drizzle's batch asks each item for
 * its query (`_prepare`), so the item answers with the SQL built and the values filled in as
 * `execute` fills them (each column's encoder). A column's encoder gets a null too (a date's
 * fails on it, where the query builder would write NULL): a value that may be null goes in
 * through `sql`.
 */
export function bound(statement: BindableStatement, values: Record<string, unknown>): BatchItem<'sqlite'> {
  let query = builtQueries.get(statement)
  if (!query) builtQueries.set(statement, (query = statement.getQuery()))
  const built = { sql: query.sql, params: fillPlaceholders(query.params, values) }
  const item = { getQuery: () => built, mapResult: (result: unknown, fromBatch?: boolean) => statement.mapResult(result, fromBatch) }
  return { _prepare: () => item } as unknown as BatchItem<'sqlite'>
}

type BindableStatement = { getQuery(): { sql: string; params: unknown[] }; mapResult(result: unknown, isFromBatch?: boolean): unknown }
const builtQueries = new WeakMap<BindableStatement, { sql: string; params: unknown[] }>()

type FlatSelect<R> = {
  values(placeholders?: Record<string, unknown>): Promise<unknown[]>
  all(placeholders?: Record<string, unknown>): Promise<R[]>
}
type Decoder = { mapFromDriverValue(value: unknown): unknown }

/**
 * The rows of a prepared select whose fields are flat (`{ id: t.id, name: sql<string>… }`, no
 * nested objects), as its `all()` answers them: each column's decoder (dates, booleans, JSON) is
 * looked up once, and each row read by position (`values()`). Drizzle's own mapping works that
 * out again for every column of every row, which on the lists asked on every page cost more than
 * running the query. A select with nested fields is refused when first read.
 */
export function flatRows<R>(select: FlatSelect<R>): (placeholders?: Record<string, unknown>) => Promise<R[]> {
  let read: ((row: ArrayLike<unknown>) => R) | undefined
  return async (placeholders) => {
    const rows = (await select.values(placeholders)) as ArrayLike<unknown>[]
    read ??= rowReader<R>(select)
    return rows.map(read)
  }
}

function rowReader<R>(select: unknown): (row: ArrayLike<unknown>) => R {
  // Drizzle keeps a prepared select's fields, in the order of its columns, on the query.
  const fields = (select as { fields?: Array<{ path: string[]; field: Record<string, any> }> }).fields
  if (!fields?.every((f) => f.path.length === 1)) throw new Error('flatRows: the select must name flat fields')
  const keys = fields.map((f) => f.path[0]!)
  // As Drizzle finds it: a column decodes itself; sql`…` (aliased or not) has its own decoder.
  const decoders = fields.map(({ field }) => (typeof field.mapFromDriverValue === 'function' ? field : (field.decoder ?? field.sql?.decoder)) as Decoder)
  return (row) => {
    const out: Record<string, unknown> = {}
    for (let i = 0; i < keys.length; i++) {
      const value = row[i]
      // A blob arrives as an ArrayBuffer; Drizzle hands it on as a Buffer.
      out[keys[i]!] = value === null || value === undefined ? null : decoders[i]!.mapFromDriverValue(value instanceof ArrayBuffer ? Buffer.from(value) : value)
    }
    return out as R
  }
}
