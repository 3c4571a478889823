import { createClient, type Client } from '@libsql/client'
import { afterAll, describe, expect, test } from 'bun:test'
import { drizzle } from 'drizzle-orm/libsql'
import { migrate } from 'drizzle-orm/libsql/migrator'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrationsCopy } from '../tests/support/test-db'
import { buildBaseline, databaseContents, MIGRATIONS_FOLDER } from './baseline'
import { prepareDatabaseFile } from './client'
import { BASELINE_FILE, journalTags, migrateDatabase } from './migrate'

const dirs: string[] = []
const clients: Client[] = []
afterAll(() => {
  for (const client of clients) client.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'kontor-baseline-test-'))
  dirs.push(dir)
  return dir
}

async function newDatabase(file = join(tempDir(), 'kontor.db')) {
  const client = createClient({ url: `file:${file}` })
  clients.push(client)
  await prepareDatabaseFile(client)
  return client
}

/** The migrations applied one by one, as drizzle's migrator applies them: what the baseline must equal. */
async function migratedOneByOne(folder = MIGRATIONS_FOLDER) {
  const client = await newDatabase()
  await migrate(drizzle(client), { migrationsFolder: folder })
  return client
}

describe('a fresh database begins from the baseline', () => {
  test('the baseline covers the last migration (after adding one, run `npx bun db/baseline.ts`)', async () => {
    const baseline = readFileSync(join(MIGRATIONS_FOLDER, BASELINE_FILE), 'utf8')
    expect(baseline).toContain(`-- covers: ${journalTags(MIGRATIONS_FOLDER).at(-1)}\n`)
    // Written from the migrations as they are now: the same text again.
    expect(baseline).toBe(await buildBaseline(MIGRATIONS_FOLDER))
  }, 30_000)

  test('begun from the baseline, a database has the schema, the contents and the record of migrations the migrations give', async () => {
    const begun = await newDatabase()
    expect(await migrateDatabase(begun, MIGRATIONS_FOLDER)).toBe('baseline')
    const migrated = await migratedOneByOne()
    const [a, b] = [await databaseContents(begun), await databaseContents(migrated)]
    expect(a.applied).toHaveLength(journalTags(MIGRATIONS_FOLDER).length)
    expect(a).toEqual(b)
    // The triggers and the full-text index work as the migrated ones do: a chat and its message are found by their words.
    const statements = [
      `INSERT INTO organizations (id, name, created_at) VALUES ('o1', 'Org', 0)`,
      `INSERT INTO users (id, name, email, email_verified, organization_id, role, created_at, updated_at) VALUES ('u1', 'Ada', 'ada@example.com', 1, 'o1', 'admin', 0, 0)`,
      `INSERT INTO threads (id, organization_id, user_id, title, created_at, last_message_at) VALUES ('t1', 'o1', 'u1', 'Quarterly plan', 0, 0)`,
      `INSERT INTO messages (id, thread_id, seq, role, content, status, created_at, updated_at) VALUES ('m1', 't1', 1, 'user', 'Draft the budget review', 'complete', 0, 0)`,
    ]
    const found = `SELECT d.thread_id, d.message_id FROM chat_search s JOIN chat_search_docs d ON d.id = s.rowid WHERE chat_search MATCH ? ORDER BY d.id`
    for (const client of [begun, migrated]) {
      for (const sql of statements) await client.execute(sql)
      expect((await client.execute({ sql: found, args: ['budget'] })).rows.map((r) => [r.thread_id, r.message_id])).toEqual([['t1', 'm1']])
      expect((await client.execute({ sql: found, args: ['quarterly'] })).rows.map((r) => [r.thread_id, r.message_id])).toEqual([['t1', null]])
    }
    expect(await databaseContents(begun)).toEqual(await databaseContents(migrated))
  }, 30_000)

  test('a database begun from it takes the migrations written after it', async () => {
    const folder = migrationsCopy(join(tempDir(), 'drizzle'), (entries) => {
      const last = entries.at(-1)!
      return [...entries, { ...last, idx: last.idx + 1, when: last.when + 1000, tag: '9999_after_the_baseline' }]
    })
    writeFileSync(join(folder, '9999_after_the_baseline.sql'), 'CREATE TABLE `after_the_baseline` (`id` text PRIMARY KEY NOT NULL);')

    const begun = await newDatabase()
    expect(await migrateDatabase(begun, folder)).toBe('baseline')
    const tables = (await begun.execute(`SELECT name FROM sqlite_master WHERE name = 'after_the_baseline'`)).rows
    expect(tables).toHaveLength(1)
    expect(await databaseContents(begun)).toEqual(await databaseContents(await migratedOneByOne(folder)))
  }, 30_000)

  test('a database that has tables is migrated as before, and a migrated one is left as it is', async () => {
    const client = await newDatabase()
    expect(await migrateDatabase(client, MIGRATIONS_FOLDER)).toBe('baseline')
    const before = await databaseContents(client)
    expect(await migrateDatabase(client, MIGRATIONS_FOLDER)).toBe('migrations')
    expect(await databaseContents(client)).toEqual(before)

    // A database from before the baseline, migrated part of the way: the rest is applied one by one.
    const folder = migrationsCopy(join(tempDir(), 'drizzle'), (entries) => entries.slice(0, 10))
    const partly = await newDatabase()
    expect(await migrateDatabase(partly, folder)).toBe('migrations')
    expect(await migrateDatabase(partly, MIGRATIONS_FOLDER)).toBe('migrations')
    expect(await databaseContents(partly)).toEqual(await databaseContents(await migratedOneByOne()))
  }, 30_000)

  test('two processes starting on one new file: one begins it from the baseline, the other finds it begun', async () => {
    const dir = tempDir()
    const url = `file:${join(dir, 'kontor.db')}`
    // Each as the server starts: its own client, waiting out the other's write lock (src/server.ts).
    const script = `
      import { createClient } from ${JSON.stringify(import.meta.resolve('@libsql/client'))}
      import { prepareDatabaseFile } from ${JSON.stringify(join(import.meta.dir, 'client'))}
      import { migrateDatabase } from ${JSON.stringify(join(import.meta.dir, 'migrate'))}
      import { retryingWhenBusy } from ${JSON.stringify(join(import.meta.dir, '../src/lib/database-errors'))}
      const client = retryingWhenBusy(createClient({ url: ${JSON.stringify(url)} }))
      await prepareDatabaseFile(client)
      console.log(await migrateDatabase(client, ${JSON.stringify(MIGRATIONS_FOLDER)}))`
    writeFileSync(join(dir, 'start.ts'), script)
    const starts = [0, 1].map(() => Bun.spawn([process.execPath, join(dir, 'start.ts')], { stdout: 'pipe', stderr: 'pipe' }))
    const ways = await Promise.all(
      starts.map(async (start) => {
        const [out, err, code] = await Promise.all([new Response(start.stdout).text(), new Response(start.stderr).text(), start.exited])
        expect({ code, err }).toEqual({ code: 0, err: '' })
        return out.trim()
      }),
    )
    expect(ways.toSorted()).toEqual(['baseline', 'migrations'])
    expect(await databaseContents(await newDatabase(join(dir, 'kontor.db')))).toEqual(await databaseContents(await migratedOneByOne()))
  }, 30_000)
})
