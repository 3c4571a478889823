import type { Client } from '@libsql/client'
import { drizzle } from 'drizzle-orm/libsql'
import * as schema from './schema'

export type Database = ReturnType<typeof createDatabase>

/** Wraps a libSQL client (file, sqld or Turso; created by the entry file) in Drizzle. */
export function createDatabase(client: Client) {
  return drizzle(client, { schema })
}
