/**
 * Writes drizzle/baseline.sql: the schema the migrations build, for a fresh database to begin
 * from in one step (db/migrate.ts, decision 0108). Run it after adding a migration:
 *
 *   npx bun db/baseline.ts
 *
 * It applies every migration to a new database file and writes that database's tables, virtual
 * tables, views, indexes and triggers as they stand, in an order that creates each after what it
 * names. `db/baseline.test.ts` checks that the file covers the last migration and that a database
 * begun from it is the one the migrations build.
 */
import { createClient, type Client } from '@libsql/client'
import { drizzle } from 'drizzle-orm/libsql'
import { migrate } from 'drizzle-orm/libsql/migrator'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { BASELINE_FILE } from './migrate'

export const MIGRATIONS_FOLDER = resolve(import.meta.dir, '../drizzle')

/** The migrations' tags in the order they apply (drizzle's journal). */
export function journalTags(folder: string): string[] {
  const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] }
  return journal.entries.map((entry) => entry.tag)
}

type SchemaObject = { type: string; name: string; sql: string }

/**
 * What the schema holds besides SQLite's own objects, drizzle's record of migrations and the
 * tables a virtual table keeps for itself (a full-text index's, created with it).
 */
async function ownObjects(client: Client): Promise<SchemaObject[]> {
  const shadow = new Set((await client.execute(`SELECT name FROM pragma_table_list WHERE type = 'shadow'`)).rows.map((r) => String(r.name)))
  const { rows } = await client.execute(`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid`)
  return rows
    .map((r) => ({ type: String(r.type), name: String(r.name), sql: String(r.sql) }))
    .filter((o) => !o.name.startsWith('sqlite_') && o.name !== '__drizzle_migrations' && !shadow.has(o.name))
}

/** Tables (virtual ones included) first, then views, indexes and triggers, each kind in the order it was created. */
const KIND_ORDER = ['table', 'view', 'index', 'trigger']

/** The statements that create a database's schema, one per object, in an order that creates each after what it names. */
export async function schemaStatements(client: Client): Promise<string[]> {
  const objects = await ownObjects(client)
  return KIND_ORDER.flatMap((kind) => objects.filter((o) => o.type === kind)).map((o) => `${o.sql};`)
}

/**
 * Everything a database holds that its schema and its migrations decide, to compare two: every
 * object of its schema (SQLite's own and the virtual tables' too), the number of rows of every
 * table, and the migrations recorded as applied.
 */
export async function databaseContents(client: Client) {
  const { rows } = await client.execute(`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`)
  const schema = rows.map((r) => [r.type, r.name, r.tbl_name, r.sql].map((v) => (v === null ? null : String(v))))
  const tables = (await client.execute(`SELECT name FROM pragma_table_list WHERE type IN ('table', 'shadow') AND schema = 'main' ORDER BY name`)).rows.map((r) => String(r.name))
  const counts: Record<string, number> = {}
  for (const table of tables) counts[table] = Number((await client.execute(`SELECT count(*) AS n FROM "${table.replaceAll('"', '""')}"`)).rows[0]!.n)
  const applied = (await client.execute(`SELECT hash, created_at FROM __drizzle_migrations ORDER BY created_at`)).rows.map((r) => [String(r.hash), Number(r.created_at)])
  return { schema, counts, applied }
}

/** The text of drizzle/baseline.sql for the migrations in `folder`. */
export async function buildBaseline(folder: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'kontor-baseline-'))
  const client = createClient({ url: `file:${join(dir, 'baseline.db')}` })
  try {
    await migrate(drizzle(client), { migrationsFolder: folder })
    const statements = await schemaStatements(client)
    const tags = journalTags(folder)
    return [
      '-- The schema the migrations build, for a fresh database to begin from in one step (db/migrate.ts).',
      '-- Written by `npx bun db/baseline.ts`; do not edit. A database begun from it is recorded as migrated up to:',
      `-- covers: ${tags.at(-1)}`,
      '',
      ...statements,
      '',
    ].join('\n')
  } finally {
    client.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const file = join(MIGRATIONS_FOLDER, BASELINE_FILE)
  writeFileSync(file, await buildBaseline(MIGRATIONS_FOLDER))
  console.log(`wrote ${file}`)
}
