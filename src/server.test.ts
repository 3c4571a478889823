import { createClient } from '@libsql/client'
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { prepareDatabaseFile } from '../db/client'
import { journalTags, migrateDatabase } from '../db/migrate'
import { migrationsCopy } from '../tests/support/test-db'
import { retryingWhenBusy } from './lib/database-errors'
import { migrateAtStart, startsReply } from './server'

const dir = mkdtempSync(join(tmpdir(), 'kontor-server-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('only the requests that start a model reply pass the gate', () => {
  const request = (method: string, path: string) => new Request(`http://localhost:3000${path}`, { method })
  for (const path of ['/api/threads/abc/messages', '/api/threads/abc/regenerate', '/v1/chat/completions', '/v1/chat/completions?x=1'])
    expect(startsReply(request('POST', path))).toBe(true)
  for (const [method, path] of [
    ['GET', '/api/threads/abc/messages'],
    ['POST', '/api/threads/abc/messages/m1/stop'],
    ['GET', '/api/threads/abc/messages/m1/stream'],
    ['POST', '/api/threads'],
    ['GET', '/api/health'],
    ['GET', '/build/app.js'],
    ['POST', '/v1/embeddings'],
    ['POST', '/api/threads/abc/messages-x'],
  ] as const)
    expect(startsReply(request(method, path))).toBe(false)
})

test('the start applies a pending migration although another process writes just then', async () => {
  // A database an older version migrated: all but the last migration.
  const migrations = resolve(import.meta.dir, '../drizzle')
  const older = migrationsCopy(join(dir, 'drizzle-older'), (entries) => entries.slice(0, -1))
  const url = `file:${join(dir, 'pending.db')}`
  const running = createClient({ url })
  await prepareDatabaseFile(running)
  expect(await migrateDatabase(running, older)).toBe('migrations')

  // The running server writes at the moment the new one applies the pending migration.
  const starting = createClient({ url })
  const apply = starting.migrate.bind(starting)
  let metTheLock = 0
  starting.migrate = async (statements) => {
    if (metTheLock > 0) return apply(statements)
    const writing = await running.transaction('write')
    try {
      return await apply(statements)
    } catch (error) {
      metTheLock++
      throw error
    } finally {
      await writing.commit()
    }
  }
  expect(await migrateAtStart(retryingWhenBusy(starting), migrations)).toBe('migrations')
  expect(metTheLock).toBe(1)
  const applied = await running.execute('SELECT count(*) AS n FROM __drizzle_migrations')
  expect(Number(applied.rows[0]!.n)).toBe(journalTags(migrations).length)
  running.close()
  starting.close()
})
