import type { InValue } from '@libsql/client'
import { sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { AppError } from '../../lib/errors'

/**
 * Chunk vectors live in one table per dimension (`source_vectors_<n>`, an `F32_BLOB(n)` column
 * with libSQL's DiskANN index), created on first use: an index needs a fixed dimension, and the
 * organisation's embedding model decides it. A trigger on `source_chunks` removes a chunk's
 * vector with the chunk, however it is deleted (file, thread, collection, user, organisation,
 * retention). See docs/decisions/0075-vector-index.md.
 */
export const vectorTable = (dims: number) => `source_vectors_${dims}`

/**
 * The index's settings: neighbours stored as 1-bit signs, 20 of them a node, keep inserts cheap
 * (about 1 ms a row at 384 dimensions); the compressed graph only guides the walk, every
 * candidate is ranked again by its exact distance. A search list of 200 keeps recall@10 at 0.99
 * and above when 100 or more candidates are taken (bench/sources.ts).
 */
export const INDEX_OPTIONS = ["'metric=cosine'", "'compress_neighbors=float1bit'", "'max_neighbors=20'", "'insert_l=32'", "'search_l=200'"].join(', ')

/** Up to this many chunks in a search's scope, an exact scan is as fast as the index and exact. */
export const EXACT_MAX = 3_000
/** Candidates taken from the index for each passage wanted, before the scope filter and exact re-ranking. */
const OVERFETCH = 4
/** Most candidates taken from the index; a scope smaller than that share of the index is scanned exactly. */
const MAX_INDEX_K = 1_000

const MAX_DIMS = 65_536
const ensured = new WeakMap<Database, Set<number>>()

/** Creates the table, index and delete trigger for vectors of `dims` dimensions if they are not there. */
export async function ensureVectorTable(db: Database, dims: number) {
  if (!Number.isInteger(dims) || dims < 1 || dims > MAX_DIMS) throw new AppError('PROVIDER_BAD_RESPONSE')
  let done = ensured.get(db)
  if (done?.has(dims)) return
  const t = vectorTable(dims)
  await db.$client.batch(
    [
      `CREATE TABLE IF NOT EXISTS ${t} (chunk_id INTEGER PRIMARY KEY, embedding F32_BLOB(${dims}) NOT NULL)`,
      `CREATE INDEX IF NOT EXISTS ${t}_idx ON ${t} (libsql_vector_idx(embedding, ${INDEX_OPTIONS}))`,
      `CREATE TRIGGER IF NOT EXISTS ${t}_delete AFTER DELETE ON source_chunks BEGIN DELETE FROM ${t} WHERE chunk_id = old.id; END`,
    ],
    'write',
  )
  if (!done) ensured.set(db, (done = new Set()))
  done.add(dims)
}

/** What `source_chunks.embedding` holds once the vector is in its table. */
export const NO_VECTOR = new Float32Array(0)

export const vectorBytes = (v: Float32Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength)

type Runner = Pick<Database, 'run' | 'all'>

/** Stores the vectors of chunks (all of one dimension, its table ensured), replacing any they had. */
export async function storeVectors(db: Runner, rows: Array<{ chunkId: number; vector: Float32Array }>) {
  if (!rows.length) return
  const t = sql.identifier(vectorTable(rows[0]!.vector.length))
  for (let i = 0; i < rows.length; i += 100) {
    const values = rows.slice(i, i + 100).map((r) => sql`(${r.chunkId}, ${vectorBytes(r.vector)})`)
    await db.run(sql`INSERT OR REPLACE INTO ${t} (chunk_id, embedding) VALUES ${sql.join(values, sql`, `)}`)
  }
}

/** Removes the vectors of a source's chunks from the table of `dims` dimensions. */
export async function deleteVectors(db: Runner, sourceId: string, dims: number) {
  const exists = await db.all(sql`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ${vectorTable(dims)}`)
  if (!exists.length) return
  await db.run(sql`DELETE FROM ${sql.identifier(vectorTable(dims))} WHERE chunk_id IN (SELECT id FROM source_chunks WHERE source_id = ${sourceId})`)
}

async function hasVectorTable(db: Database, dims: number) {
  if (ensured.get(db)?.has(dims)) return true
  const r = await db.$client.execute({ sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", args: [vectorTable(dims)] })
  if (!r.rows.length) return false
  if (!ensured.has(db)) ensured.set(db, new Set())
  ensured.get(db)!.add(dims)
  return true
}

/** A search's scope as a condition on `sources s`, with its arguments. */
export type ScopeSql = { sql: string; args: InValue[] }

/**
 * The scope's chunks nearest to `vector` among ready files embedded with `model`, best first.
 * A small scope (or one that is a small share of the index) is scanned exactly; a large one asks
 * the DiskANN index for enough candidates to survive the scope filter, ranks them by exact
 * distance, and falls back to the exact scan when too few were the scope's.
 */
export async function nearestChunks(db: Database, scope: ScopeSql, vector: Float32Array, model: string, limit: number, options: { path?: 'exact' | 'index' } = {}) {
  const dims = vector.length
  if (!(await hasVectorTable(db, dims))) return []
  const t = vectorTable(dims)
  const bytes = vectorBytes(vector)
  const exact = () =>
    ids(db, `SELECT c.id FROM sources s JOIN source_chunks c ON c.source_id = s.id JOIN ${t} v ON v.chunk_id = c.id
             WHERE ${scope.sql} AND s.status = 'ready' AND s.embedding_model = ? AND s.dimensions = ?
             ORDER BY vector_distance_cos(v.embedding, ?) LIMIT ?`, [...scope.args, model, dims, bytes, limit])
  if (options.path === 'exact') return exact()
  const count = async (where: string, args: InValue[]) =>
    Number((await db.$client.execute({ sql: `SELECT coalesce(sum(s.chunk_count), 0) AS n FROM sources s WHERE ${where}`, args })).rows[0]!.n)
  // The scope's size first (through its own index); the whole table's only when the scope is large.
  const scoped = await count(`${scope.sql} AND s.status = 'ready' AND s.embedding_model = ? AND s.dimensions = ?`, [...scope.args, model, dims])
  if (!scoped) return []
  if (options.path !== 'index' && scoped <= EXACT_MAX) return exact()
  const total = Math.max(scoped, await count(`s.status = 'ready' AND s.dimensions = ?`, [dims]))
  const k = Math.ceil((Math.max(limit, 25) * OVERFETCH * total) / scoped)
  if (options.path !== 'index' && k > MAX_INDEX_K) return exact()
  const found = await ids(db, `SELECT c.id FROM vector_top_k('${t}_idx', ?, ?) n JOIN ${t} v ON v.rowid = n.id JOIN source_chunks c ON c.id = v.chunk_id JOIN sources s ON s.id = c.source_id
             WHERE ${scope.sql} AND s.status = 'ready' AND s.embedding_model = ?
             ORDER BY vector_distance_cos(v.embedding, ?) LIMIT ?`, [bytes, k, ...scope.args, model, bytes, limit])
  return found.length < Math.min(limit, scoped) && options.path !== 'index' ? exact() : found
}

export async function ids(db: Database, query: string, args: InValue[]) {
  const result = await db.$client.execute({ sql: query, args })
  return result.rows.map((r) => Number(r.id))
}
