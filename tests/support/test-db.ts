import { createClient, type Client } from '@libsql/client'
import { copyFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { migrateDatabase } from '../../db/migrate'

let template: Promise<string> | undefined

/** Migrates a template database once per process; each call gets a fresh copy of it in its own file. */
export async function createTestDatabase(): Promise<{ url: string; client: Client; dir: string }> {
  template ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kontor-template-'))
    const file = join(dir, 'template.db')
    const client = createClient({ url: `file:${file}` })
    await migrateDatabase(client, resolve(import.meta.dir, '../../drizzle'))
    client.close()
    return file
  })()
  const source = await template
  const dir = mkdtempSync(join(tmpdir(), 'kontor-test-'))
  const file = join(dir, 'kontor.db')
  copyFileSync(source, file)
  const url = `file:${file}`
  return { url, client: createClient({ url }), dir }
}
