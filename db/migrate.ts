import type { Client } from '@libsql/client'
import { drizzle } from 'drizzle-orm/libsql'
import { migrate } from 'drizzle-orm/libsql/migrator'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The schema the migrations build, beside them in their folder (written by db/baseline.ts). */
export const BASELINE_FILE = 'baseline.sql'

/** Drizzle's record of the migrations applied, created as its migrator creates it. */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (
\t\t\tid SERIAL PRIMARY KEY,
\t\t\thash text NOT NULL,
\t\t\tcreated_at numeric
\t\t)`

/**
 * Applies the SQL migrations in drizzle/ (reads the folder: Bun/Node entry and tests only). A
 * database without any table begins from the baseline instead (decision 0108): the schema in one
 * step, recorded as migrated up to the migration it covers; the migrations after that one, if
 * any, follow as usual. Says which way the database began.
 */
export async function migrateDatabase(client: Client, migrationsFolder: string): Promise<'baseline' | 'migrations'> {
  const began = await beginFromBaseline(client, migrationsFolder)
  await migrate(drizzle(client), { migrationsFolder })
  return began ? 'baseline' : 'migrations'
}

/**
 * Creates the baseline's schema in a database that has no table yet, and records the migrations
 * it covers as drizzle's migrator records them (their hash and time), all in one transaction.
 * False where there is no baseline, it names no migration of the journal, or the database is not
 * empty (checked first without a lock, then again inside the transaction: of two processes
 * starting on one new file, the second finds the first's tables and migrates as usual).
 */
async function beginFromBaseline(client: Client, folder: string): Promise<boolean> {
  const file = join(folder, BASELINE_FILE)
  // A restart (the database has tables) reads no file and takes no lock here.
  if (!existsSync(file) || !(await isEmpty(client))) return false
  const baseline = readFileSync(file, 'utf8')
  const covers = /^-- covers: (\S+)$/m.exec(baseline)?.[1]
  const count = journalTags(folder).findIndex((tag) => tag === covers) + 1
  if (count === 0) return false
  const covered = readMigrationFiles({ migrationsFolder: folder }).slice(0, count)
  const tx = await client.transaction('write')
  try {
    if (!(await isEmpty(tx))) {
      await tx.rollback()
      return false
    }
    await tx.executeMultiple(baseline)
    await tx.execute(MIGRATIONS_TABLE)
    for (const migration of covered) {
      await tx.execute({ sql: `INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)`, args: [migration.hash, migration.folderMillis] })
    }
    await tx.commit()
    return true
  } finally {
    tx.close()
  }
}

/** The migrations' tags in the order they apply (drizzle's journal). */
export function journalTags(folder: string): string[] {
  const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] }
  return journal.entries.map((entry) => entry.tag)
}

/** True when the database has no table, index, view or trigger. */
async function isEmpty(db: Pick<Client, 'execute'>): Promise<boolean> {
  const { rows } = await db.execute(`SELECT 1 FROM sqlite_master LIMIT 1`)
  return rows.length === 0
}
