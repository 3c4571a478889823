import { createClient, type Client } from '@libsql/client'
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrationsCopy } from '../tests/support/test-db'
import { MIGRATIONS_FOLDER } from './baseline'
import { prepareDatabaseFile } from './client'
import { migrateDatabase } from './migrate'

const dir = mkdtempSync(join(tmpdir(), 'kontor-migrate-test-'))
const clients: Client[] = []
afterAll(() => {
  for (const client of clients) client.close()
  rmSync(dir, { recursive: true, force: true })
})

async function migratedUpTo(tag: string) {
  const client = createClient({ url: `file:${join(dir, `${tag}.db`)}` })
  clients.push(client)
  await prepareDatabaseFile(client)
  const folder = migrationsCopy(join(dir, `drizzle-${tag}`), (entries) => entries.slice(0, entries.findIndex((e) => e.tag === tag) + 1))
  expect(await migrateDatabase(client, folder)).toBe('migrations')
  return client
}

/** A streaming reply's text: its row's, followed by its appended parts in order (as src/api/threads/access.ts reads it). */
const textOf = async (client: Client, id: string) =>
  (
    await client.execute({
      sql: `SELECT content || coalesce((SELECT group_concat(part, '') FROM (SELECT c.content AS part FROM streaming_replies s JOIN reply_chunks c ON c.reply_n = s.n WHERE s.message_id = m.id AND s.ended = 0 ORDER BY c.seq)), '') AS text FROM messages m WHERE id = ?`,
      args: [id],
    })
  ).rows[0]?.text

test('replies streaming while the database is migrated to numbered reply parts (0032) keep their appended text; ended, they read it no more', async () => {
  const client = await migratedUpTo('0031_replies_indexed_together')
  // Two replies a stopped server left streaming, with parts appended out of order, and one that ended.
  await client.executeMultiple(`
    PRAGMA foreign_keys = OFF;
    INSERT INTO messages (id, thread_id, seq, role, content, status, created_at, updated_at) VALUES
      ('r1', 't1', 2, 'assistant', 'Once', 'streaming', 1, 1),
      ('r2', 't2', 2, 'assistant', '', 'streaming', 2, 2),
      ('r3', 't3', 2, 'assistant', 'Done.', 'complete', 3, 3);
    INSERT INTO reply_chunks (message_id, seq, content) VALUES ('r1', 2, ' a time'), ('r2', 1, 'Tapirs'), ('r1', 1, ' upon');
    PRAGMA foreign_keys = ON;
  `)
  expect(await migrateDatabase(client, MIGRATIONS_FOLDER)).toBe('migrations')

  expect(await textOf(client, 'r1')).toBe('Once upon a time')
  expect(await textOf(client, 'r2')).toBe('Tapirs')
  expect((await client.execute(`SELECT message_id FROM streaming_replies ORDER BY n`)).rows.map((r) => r.message_id)).toEqual(['r1', 'r2'])
  // Ended, a reply's number is marked ended and its parts are read no more; they go later, with
  // those of the other replies ended meanwhile (0035, decision 0137). The other's stay as they are.
  await client.execute(`UPDATE messages SET status = 'interrupted' WHERE id = 'r1'`)
  expect((await client.execute(`SELECT message_id, ended FROM streaming_replies ORDER BY n`)).rows.map((r) => [r.message_id, r.ended])).toEqual([['r1', 1], ['r2', 0]])
  expect(await textOf(client, 'r1')).toBe('Once')
  expect(await textOf(client, 'r2')).toBe('Tapirs')
  // What gives and takes the numbers: a migration that rebuilds `messages` must create these again.
  expect((await client.execute(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'messages' AND name LIKE 'streaming_replies_%' ORDER BY name`)).rows.map((r) => r.name)).toEqual([
    'streaming_replies_again',
    'streaming_replies_begin',
    'streaming_replies_end',
  ])
  expect(await client.execute(`PRAGMA foreign_key_check`).then((r) => r.rows.filter((row) => row.table === 'reply_chunks' || row.table === 'streaming_replies'))).toEqual([])
}, 30_000)
