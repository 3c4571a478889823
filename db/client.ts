import type { Client } from '@libsql/client'
import { drizzle } from 'drizzle-orm/libsql'
import * as schema from './schema'

export type Database = ReturnType<typeof createDatabase>

/** Wraps a libSQL client (file, sqld or Turso; created by the entry file) in Drizzle. */
export function createDatabase(client: Client) {
  return drizzle(client, { schema })
}

/**
 * Settings of a database file (not of a libSQL server), kept in the file itself so that every
 * connection has them, also the fresh one the client opens after handing its connection to a
 * transaction. Write-ahead log: a commit appends to one log instead of rewriting a rollback
 * journal with several syncs, which every sent message and streamed reply waits for. A page cache
 * of up to 64 MB (16,384 pages of 4 KB) instead of SQLite's 2 MB: a search reads a chat's vectors
 * and passages again and again, and from the cache an exact scan of 1,000 vectors takes a third
 * of the time (bench/sources.ts, decision 0075).
 */
export async function prepareDatabaseFile(client: Client) {
  await client.execute('PRAGMA journal_mode = WAL')
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
