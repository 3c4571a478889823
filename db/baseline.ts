/**
 * Writes drizzle/baseline.sql: the schema the migrations build, for a fresh database to begin
 * from in one step (db/migrate.ts, decision 0108). `npm run db:generate` runs it after
 * drizzle-kit has written a migration; after a migration written by hand:
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
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { BASELINE_FILE, journalTags } from './migrate'

export const MIGRATIONS_FOLDER = resolve(import.meta.dir, '../drizzle')

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
 * object of its schema (SQLite's own and the virtual tables' too), the rows of every table (of the
 * tables a full-text index keeps for itself, their number: its internal records may be written
 * differently for the same index), the migrations recorded as applied, and the header's values.
 */
export async function databaseContents(client: Client) {
  const { rows } = await client.execute(`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`)
  const schema = rows.map((r) => [r.type, r.name, r.tbl_name, r.sql].map((v) => (v === null ? null : String(v))))
  const tables = (await client.execute(`SELECT name, type FROM pragma_table_list WHERE type IN ('table', 'shadow') AND schema = 'main' AND name NOT IN ('__drizzle_migrations', 'sqlite_schema', 'sqlite_temp_schema') ORDER BY name`)).rows
  const contents: Record<string, unknown> = {}
  for (const { name, type } of tables) {
    const table = `"${String(name).replaceAll('"', '""')}"`
    contents[String(name)] =
      type === 'shadow'
        ? Number((await client.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n)
        : (await client.execute(`SELECT * FROM ${table} ORDER BY rowid`)).rows.map((row) => Array.from({ length: row.length }, (_, i) => shown(row[i])))
  }
  const applied = (await client.execute(`SELECT hash, created_at FROM __drizzle_migrations ORDER BY created_at`)).rows.map((r) => [String(r.hash), Number(r.created_at)])
  const header: Record<string, string> = {}
  for (const pragma of ['user_version', 'application_id', 'page_size', 'auto_vacuum', 'journal_mode']) header[pragma] = shown((await client.execute(`PRAGMA ${pragma}`)).rows[0]![0])
  return { schema, contents, applied, header }
}

/** A value as text to compare: a blob by its bytes. */
const shown = (value: unknown) => (value instanceof ArrayBuffer ? Buffer.from(value).toString('hex') : String(value))

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
  // `npm run db:generate` runs this with --generate: drizzle-kit writes the migration first, with
  // the options given after `--` (`npm run db:generate -- --name=x`).
  const [first, ...options] = process.argv.slice(2)
  if (first === '--generate') {
    const root = resolve(import.meta.dir, '..')
    const kit = Bun.spawnSync([join(root, 'node_modules/.bin/drizzle-kit'), 'generate', '--config', 'db/drizzle.config.ts', ...options], { cwd: root, stdio: ['inherit', 'inherit', 'inherit'] })
    if (kit.exitCode !== 0) process.exit(kit.exitCode ?? 1)
  }
  const file = join(MIGRATIONS_FOLDER, BASELINE_FILE)
  writeFileSync(file, await buildBaseline(MIGRATIONS_FOLDER))
  console.log(`wrote ${file}`)
}
