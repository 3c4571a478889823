import type { InValue } from '@libsql/client'
import { eq } from 'drizzle-orm'
import { threads } from '../../../db/schema'
import type { Database } from '../../../db/client'
import type { AppDeps } from '../../lib/context'
import { embeddingModelOf, providerClient } from '../models/access'
import { RERANK_CANDIDATES, rerank } from './rerank'

export type RetrievedChunk = {
  id: number
  sourceId: string
  sourceName: string
  /** The knowledge collection the file belongs to; null for a file of the chat itself. */
  collectionName: string | null
  seq: number
  content: string
  headingPath: string
  page: number | null
  pageEnd: number | null
  /** Read by OCR from a scan or picture (its words may be misread). */
  recognised: boolean
  /** Reciprocal-rank-fusion score: higher is better. */
  score: number
}

export type SearchQuery = {
  text: string
  /** The query's embedding and the model that made it: only chunks of that model are compared. */
  vector?: Float32Array
  embeddingModel?: string
}

/** Passages returned to the model, and candidates taken from each of the two searches. */
export const TOP_K = 6
const CANDIDATES = 30
/** The usual RRF constant: damps the weight of the very first ranks. */
const RRF_K = 60

const STOPWORDS = new Set(
  ('a an and are as at be but by for from has have how i in is it its of on or that the this to was were what when where which who why will with ' +
    'aber als am an auch auf aus bei bin bis das dass dem den der des die ein eine einem einen einer es für hat ich im in ist mit nach nicht oder sind so und von vor war was wie wir zu zum zur')
    .split(' '),
)

/** An FTS5 query matching any of the query's words (quoted, so no word is read as an operator). */
export function ftsQuery(text: string): string | null {
  const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].filter((w) => !STOPWORDS.has(w)).slice(0, 24)
  return words.length ? words.map((w) => `"${w}"`).join(' OR ') : null
}

const vectorBytes = (v: Float32Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength)

/**
 * Whose files a search covers: a chat's own files and the knowledge collections it may search
 * (a bare string is a chat alone). Access to each has been checked by the caller.
 */
export type SearchScope = string | { threadId: string | null; collectionIds: string[] }

/** The scope as a condition on `sources s`, with its arguments. */
function scopeWhere(scope: SearchScope): { sql: string; args: InValue[] } {
  const { threadId, collectionIds } = typeof scope === 'string' ? { threadId: scope, collectionIds: [] } : scope
  const parts: string[] = []
  const args: InValue[] = []
  if (threadId) {
    parts.push('s.thread_id = ?')
    args.push(threadId)
  }
  if (collectionIds.length) {
    parts.push(`s.collection_id IN (${collectionIds.map(() => '?').join(',')})`)
    args.push(...collectionIds)
  }
  return { sql: parts.length ? `(${parts.join(' OR ')})` : '0', args }
}

/** Exact cosine search over the scope's ready chunks embedded with the query's model. */
export async function vectorSearch(db: Database, scope: SearchScope, vector: Float32Array, embeddingModel: string, limit = CANDIDATES) {
  const where = scopeWhere(scope)
  return ids(db, `
    SELECT c.id FROM sources s JOIN source_chunks c ON c.source_id = s.id
    WHERE ${where.sql} AND s.status = 'ready' AND s.embedding_model = ? AND s.dimensions = ?
    ORDER BY vector_distance_cos(c.embedding, ?) LIMIT ?`, [...where.args, embeddingModel, vector.length, vectorBytes(vector), limit])
}

/** BM25 keyword search (FTS5) over the scope's ready chunks; headings weigh half as much as text. */
export async function keywordSearch(db: Database, scope: SearchScope, text: string, limit = CANDIDATES) {
  const match = ftsQuery(text)
  if (!match) return []
  const where = scopeWhere(scope)
  return ids(db, `
    SELECT c.id FROM source_chunks_fts f JOIN source_chunks c ON c.id = f.rowid JOIN sources s ON s.id = c.source_id
    WHERE source_chunks_fts MATCH ? AND ${where.sql} AND s.status = 'ready'
    ORDER BY bm25(source_chunks_fts, 1.0, 0.5) LIMIT ?`, [match, ...where.args, limit])
}

async function ids(db: Database, query: string, args: InValue[]) {
  const result = await db.$client.execute({ sql: query, args })
  return result.rows.map((r) => Number(r.id))
}

/** Merges ranked lists: each id scores the sum of 1 / (60 + rank) over the lists it appears in. */
export function reciprocalRankFusion(lists: number[][]): Map<number, number> {
  const scores = new Map<number, number>()
  for (const list of lists) list.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + i + 1)))
  return scores
}

/**
 * Hybrid retrieval over the scope's ready sources: vector similarity (when the query has an
 * embedding) and BM25, merged by reciprocal rank fusion. Best first.
 */
export async function searchChunks(db: Database, scope: SearchScope, query: SearchQuery, k = TOP_K): Promise<RetrievedChunk[]> {
  const [byVector, byKeyword] = await Promise.all([
    query.vector && query.embeddingModel ? vectorSearch(db, scope, query.vector, query.embeddingModel) : Promise.resolve([]),
    keywordSearch(db, scope, query.text),
  ])
  const scores = reciprocalRankFusion([byVector, byKeyword])
  const top = [...scores].sort((a, b) => b[1] - a[1]).slice(0, k)
  if (!top.length) return []
  const result = await db.$client.execute({
    sql: `SELECT ${CHUNK_COLUMNS}
          FROM source_chunks c JOIN sources s ON s.id = c.source_id LEFT JOIN collections k ON k.id = s.collection_id WHERE c.id IN (${top.map(() => '?').join(',')})`,
    args: top.map(([id]) => id),
  })
  const byId = new Map(result.rows.map((r) => [Number(r.id), r]))
  return top.flatMap(([id, score]) => {
    const r = byId.get(id)
    return r ? [chunkOf(r, score)] : []
  })
}

const CHUNK_COLUMNS = 'c.id, c.source_id, c.seq, c.content, c.heading_path, c.page, c.page_end, c.recognised, s.name, k.name AS collection_name'

function chunkOf(r: Record<string, unknown>, score: number): RetrievedChunk {
  return {
    id: Number(r.id),
    sourceId: String(r.source_id),
    sourceName: String(r.name),
    collectionName: r.collection_name === null ? null : String(r.collection_name),
    seq: Number(r.seq),
    content: String(r.content),
    headingPath: String(r.heading_path ?? ''),
    page: r.page === null ? null : Number(r.page),
    pageEnd: r.page_end === null ? null : Number(r.page_end),
    recognised: Boolean(Number(r.recognised)),
    score,
  }
}

/** A passage's id as the model sees it: its file's id and its number in the file. */
export const passageId = (chunk: Pick<RetrievedChunk, 'sourceId' | 'seq'>) => `${chunk.sourceId}:${chunk.seq + 1}`

/**
 * The passage with `id` and the `around` passages before and after it in its file, in the order of
 * the file; nothing when the id is malformed or its file is not a ready file of the scope.
 */
export async function passageWithNeighbours(db: Database, scope: SearchScope, id: string, around = 1): Promise<RetrievedChunk[]> {
  const match = /^([\w-]{1,64}):(\d{1,7})$/.exec(id.trim())
  if (!match) return []
  const seq = Number(match[2]) - 1
  const where = scopeWhere(scope)
  const result = await db.$client.execute({
    sql: `SELECT ${CHUNK_COLUMNS} FROM source_chunks c JOIN sources s ON s.id = c.source_id LEFT JOIN collections k ON k.id = s.collection_id
          WHERE c.source_id = ? AND c.seq BETWEEN ? AND ? AND s.status = 'ready' AND ${where.sql} ORDER BY c.seq`,
    args: [match[1]!, seq - around, seq + around, ...where.args],
  })
  return result.rows.map((r) => chunkOf(r as unknown as Record<string, unknown>, 0))
}

/** How a passage's file is named in its citation: "file" or, from a collection, "collection › file". */
export const citedName = (chunk: { sourceName: string; collectionName?: string | null }) =>
  chunk.collectionName ? `${chunk.collectionName} › ${chunk.sourceName}` : chunk.sourceName

/**
 * How the model is asked to cite a passage: (name, p. N), (name, pp. N–M) or, without pages,
 * (name, chunk N); the name of a collection's file starts with the collection's name.
 */
export function citationOf(chunk: Pick<RetrievedChunk, 'sourceName' | 'page' | 'pageEnd' | 'seq'> & { collectionName?: string | null }) {
  const name = citedName(chunk)
  if (chunk.page === null) return `(${name}, chunk ${chunk.seq + 1})`
  if (chunk.pageEnd !== null && chunk.pageEnd !== chunk.page) return `(${name}, pp. ${chunk.page}–${chunk.pageEnd})`
  return `(${name}, p. ${chunk.page})`
}

/** Tells the model that a passage was read by OCR, so that a misread word is not taken for a fact. */
const recognisedNote = (c: Pick<RetrievedChunk, 'recognised'>) => (c.recognised ? 'Recognised text (OCR of a scan or picture): words may be misread.\n' : '')

/** Longest tool answer; the chat cuts tool output at 20,000 characters. */
const MAX_OUTPUT_CHARS = 19_000

/** Whether the scope has a file ready to be searched. */
export async function hasReadyIn(db: Database, scope: SearchScope) {
  const where = scopeWhere(scope)
  const result = await db.$client.execute({ sql: `SELECT 1 FROM sources s WHERE ${where.sql} AND s.status = 'ready' LIMIT 1`, args: where.args })
  return result.rows.length > 0
}

/**
 * The `source_query` tool: the passages of the thread's ready sources (and of the collections it
 * may search) that best match the query, as text for the model with the citation to use for each.
 * The thread and the collections must already be authorised (the chat passes its own thread and
 * the collections its user may read).
 */
export async function sourceQuery(
  deps: AppDeps,
  threadId: string,
  query: string,
  options: { k?: number; signal?: AbortSignal; collectionIds?: string[] } = {},
) {
  const scope = { threadId, collectionIds: options.collectionIds ?? [] }
  const thread = await deps.db.query.threads.findFirst({ where: eq(threads.id, threadId), columns: { organizationId: true, userId: true } })
  if (!thread || !(await hasReadyIn(deps.db, scope))) return { content: 'This chat has no processed files to search.', chunks: [] as RetrievedChunk[] }

  const search: SearchQuery = { text: query }
  const model = await embeddingModelOf(deps, thread.organizationId)
  if (model) {
    try {
      const client = await providerClient(deps, thread.organizationId, model.providerId, { userId: thread.userId, threadId })
      const { vectors } = await client.embed({ model: model.model, input: [query], signal: options.signal })
      if (vectors[0]?.length) Object.assign(search, { vector: Float32Array.from(vectors[0]), embeddingModel: model.modelId })
    } catch (error) {
      // Keyword search still answers when the embedding provider does not.
      deps.logger.warn('query embedding failed; keyword search only', { threadId, error })
    }
  }
  const k = options.k ?? TOP_K
  let chunks = await searchChunks(deps.db, scope, search, deps.config.rerank ? Math.max(k, RERANK_CANDIDATES) : k)
  // With a reranker, it orders the fused candidates and the best k are kept; without one (or when it fails), the fused order.
  const order = await rerank(deps, query, chunks.map((c) => (c.headingPath ? `${c.headingPath}\n${c.content}` : c.content)), k, options.signal)
  if (order) chunks = order.map((i) => chunks[i]!)
  chunks = chunks.slice(0, k)
  return { content: formatPassages(chunks), chunks }
}

export function formatPassages(chunks: RetrievedChunk[]) {
  if (!chunks.length) return 'No passage of the files in this chat matches the query.'
  let text =
    'Passages from the files attached to this chat and its knowledge collections, best match first. Answer from them and cite every statement ' +
    'taken from a passage right after it, exactly as given in "Cite as", e.g. (report.pdf, p. 3). ' +
    'If the passages do not answer the question, say so. To read what stands right before and after a passage, call the tool again with its passage id.\n'
  for (const [i, c] of chunks.entries()) {
    const head = `\n[${i + 1}] ${citedName(c)}${c.headingPath ? ` — ${c.headingPath}` : ''}\nCite as: ${citationOf(c)}\nPassage id: ${passageId(c)}\n${recognisedNote(c)}`
    const room = MAX_OUTPUT_CHARS - text.length - head.length
    if (room < 200) break
    text += head + (c.content.length > room ? `${c.content.slice(0, room - 1)}…` : c.content) + '\n'
  }
  return text
}

/**
 * `source_query` with a passage id: that passage and its neighbours in the file (one before, one
 * after), when the file is one the chat may search; otherwise a short answer saying so.
 */
export async function sourceNeighbours(deps: AppDeps, threadId: string, id: string, options: { collectionIds?: string[] } = {}) {
  const chunks = await passageWithNeighbours(deps.db, { threadId, collectionIds: options.collectionIds ?? [] }, id)
  if (!chunks.length) return { content: `No passage with the id ${JSON.stringify(id.slice(0, 80))} in the files of this chat. Use an id from an earlier result.`, chunks }
  let text = `Passage ${id.trim()} with the passages before and after it, in the order of the file. Cite each as given.\n`
  for (const c of chunks) {
    const head = `\n${citedName(c)}${c.headingPath ? ` — ${c.headingPath}` : ''}\nCite as: ${citationOf(c)}\nPassage id: ${passageId(c)}\n${recognisedNote(c)}`
    const room = MAX_OUTPUT_CHARS - text.length - head.length
    if (room < 200) break
    text += head + (c.content.length > room ? `${c.content.slice(0, room - 1)}…` : c.content) + '\n'
  }
  return { content: text, chunks }
}
