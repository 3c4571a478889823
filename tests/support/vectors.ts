import type { Database } from '../../db/client'

/** The per-dimension vector tables (src/api/sources/vectors.ts). */
async function vectorTables(db: Database) {
  const rows = (await db.$client.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'source_vectors_%'")).rows
  return rows.map((r) => String(r.name)).filter((name) => /^source_vectors_\d+$/.test(name))
}

/** Vectors whose chunk is gone: after any deletion there must be none. */
export async function orphanVectors(db: Database) {
  let n = 0
  for (const table of await vectorTables(db)) {
    const r = await db.$client.execute(`SELECT count(*) AS n FROM ${table} WHERE chunk_id NOT IN (SELECT id FROM source_chunks)`)
    n += Number(r.rows[0]!.n)
  }
  return n
}

/** How many of the chunks have a vector in any table. */
export async function vectorsOf(db: Database, chunkIds: number[]) {
  let n = 0
  for (const table of await vectorTables(db)) {
    const r = await db.$client.execute({ sql: `SELECT count(*) AS n FROM ${table} WHERE chunk_id IN (${chunkIds.map(() => '?').join(',') || 'NULL'})`, args: chunkIds })
    n += Number(r.rows[0]!.n)
  }
  return n
}
