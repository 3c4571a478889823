import type { Client } from '@libsql/client'
import { drizzle } from 'drizzle-orm/libsql'
import { migrate } from 'drizzle-orm/libsql/migrator'

/** Applies the SQL migrations in drizzle/ (reads the folder: Bun/Node entry and tests only). */
export async function migrateDatabase(client: Client, migrationsFolder: string) {
  await migrate(drizzle(client), { migrationsFolder })
}
