import { createClient, type Client } from '@libsql/client'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { migrateDatabase } from '../../db/migrate'

let template: Promise<Uint8Array> | undefined

/**
 * Migrates a template database once per process, kept in memory (its folder goes at once); each
 * call gets a fresh copy of it in a folder of its own, which the test app removes when it closes.
 */
export async function createTestDatabase(): Promise<{ url: string; client: Client; dir: string }> {
  template ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kontor-template-'))
    const file = join(dir, 'template.db')
    const client = createClient({ url: `file:${file}` })
    try {
      await migrateDatabase(client, resolve(import.meta.dir, '../../drizzle'))
    } finally {
      client.close()
    }
    // Closed, the database is all in its file (its log checkpointed and removed).
    const bytes = readFileSync(file)
    rmSync(dir, { recursive: true, force: true })
    return bytes
  })()
  const bytes = await template
  const dir = mkdtempSync(join(tmpdir(), 'kontor-test-'))
  const file = join(dir, 'kontor.db')
  writeFileSync(file, bytes)
  const url = `file:${file}`
  return { url, client: createClient({ url }), dir }
}

export type JournalEntry = { idx: number; version: string; when: number; tag: string; breakpoints: boolean }

/**
 * A copy of drizzle/ at `folder` whose journal lists the entries `edit` leaves: the migrations an
 * older version had (some left out) or a later one will have (one added, its file written by the caller).
 */
export function migrationsCopy(folder: string, edit: (entries: JournalEntry[]) => JournalEntry[]): string {
  cpSync(resolve(import.meta.dir, '../../drizzle'), folder, { recursive: true })
  const file = join(folder, 'meta/_journal.json')
  const journal = JSON.parse(readFileSync(file, 'utf8')) as { entries: JournalEntry[] }
  writeFileSync(file, JSON.stringify({ ...journal, entries: edit(journal.entries) }))
  return folder
}
