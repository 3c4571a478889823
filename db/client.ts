import type { Client } from '@libsql/client'
import { drizzle } from 'drizzle-orm/libsql'
import * as schema from './schema'

export type Database = ReturnType<typeof createDatabase>

/** Wraps a libSQL client (file, sqld or Turso; created by the entry file) in Drizzle. */
export function createDatabase(client: Client) {
  return drizzle(client, { schema })
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
