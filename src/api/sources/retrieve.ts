import type { InValue } from '@libsql/client'
import { eq } from 'drizzle-orm'
import { threads } from '../../../db/schema'
import type { Database } from '../../../db/client'
import type { AppDeps } from '../../lib/context'
import { embeddingModelOf, providerClient, usablePermittedModels } from '../models/access'
import { RERANK_CANDIDATES, rerank } from './rerank'
import { ids, nearestChunks, type ScopeSql } from './vectors'

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
  /**
   * Embeddings of the query by further models: while the organisation's files are embedded again
   * with a new model, files still embedded with the old one are found through its vectors.
   */
  more?: Array<{ vector: Float32Array; embeddingModel: string }>
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

/** The query's words worth searching for: lower case, without stop words, at most 24. */
function queryWords(text: string) {
  return [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].filter((w) => !STOPWORDS.has(w)).slice(0, 24)
}

/**
 * What the query names exactly, as FTS5 phrases (its words in order, folded): quoted text of two
 * to eight words, and words joined by `_ . : / -` as in identifiers, paths and addresses
 * (asn1_read_value, user.mime_type). Abbreviations are no names: a phrase needs a word of three
 * letters or more that is no stop word (not "e.g.", "z.B.", "and/or"). At most four.
 */
export function queryPhrases(text: string): string[] {
  const quoted = [...text.matchAll(/["“„«»”]([^"“„«»”]+)["“”«»]/gu)].map((m) => m[1]!)
  const joined = text.match(/(?<![\p{L}\p{N}])[\p{L}\p{N}]+(?:[._:/-][\p{L}\p{N}]+)+/gu) ?? []
  const phrases = [...quoted, ...joined]
    .map((p) => (p.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(folded))
    .filter((words) => words.length >= 2 && words.length <= 8 && words.some((w) => w.length >= 3 && !STOPWORDS.has(w)))
    .map((words) => words.join(' '))
  return [...new Set(phrases)].slice(0, 4)
}

/**
 * Whose files a search covers: a chat's own files and the knowledge collections it may search
 * (a bare string is a chat alone). Access to each has been checked by the caller.
 */
export type SearchScope = string | { threadId: string | null; collectionIds: string[] }

/** The scope as a condition on `sources s`, with its arguments. */
function scopeWhere(scope: SearchScope): ScopeSql {
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

/**
 * The scope's ready chunks embedded with the query's model, nearest first: through the vector
 * index for a large scope, by an exact scan for a small one (src/api/sources/vectors.ts).
 */
export async function vectorSearch(db: Database, scope: SearchScope, vector: Float32Array, embeddingModel: string, limit = CANDIDATES, options: { path?: 'exact' | 'index' } = {}) {
  return nearestChunks(db, scopeWhere(scope), vector, embeddingModel, limit, options)
}

/** A term in more than this share of all chunks is left out of the keyword search (BM25 gives it little weight anyway). */
const COMMON_SHARE = 0.2
/** Rows the OR query of a large scope may match: its rarest terms are taken until their chunks add up to this. */
const OR_BUDGET = 3_000
/** Up to this many chunks in the database, keyword search looks up no term frequencies. */
const SMALL_DATABASE = 20_000
/** Below this share of all chunks, a scope's keyword matches are joined to it before ranking. */
const MIN_SHARE = 0.05
/** Most matches taken from the whole index to find a scope's best. */
const MAX_FTS_CANDIDATES = 1_000
const counted = new WeakMap<Database, { n: number; at: number }>()

/** Chunks in the database (to tell common terms and a scope's share), counted at most once a minute. */
async function chunkTotal(db: Database) {
  const hit = counted.get(db)
  if (hit && Date.now() - hit.at < 60_000) return hit.n
  const r = await db.$client.execute('SELECT count(*) AS n FROM source_chunks')
  const n = Number(r.rows[0]!.n)
  counted.set(db, { n, at: Date.now() })
  return n
}

/** The FTS5 form of a word (the table's tokenizer folds case and removes diacritics). */
const folded = (w: string) => w.normalize('NFD').replace(/\p{M}/gu, '')

/**
 * BM25 keyword search (FTS5) over the scope's ready chunks; headings weigh half as much as text.
 * In a large database, terms no chunk has and terms in most chunks are left out (the rarest term
 * is always kept); the chunks that have all the terms come first, then, if too few, those with
 * any of the rarest terms, taken until their chunks add up to a budget of rows, so a query of
 * common words never ranks the whole table. Only the scope's chunks are returned, best first
 * (`scopeRanked`); those with a phrase the query names exactly (`queryPhrases`) lead.
 */
export async function keywordSearch(db: Database, scope: SearchScope, text: string, limit = CANDIDATES) {
  const words = [...new Set(queryWords(text).map(folded))]
  if (!words.length) return []
  const where = scopeWhere(scope)
  const [total, scoped] = await Promise.all([chunkTotal(db), readyChunks(db, where)])
  if (!scoped) return []
  const ranked: Ranked = (ws, op) => scopeRanked(db, where, ws.map((w) => `"${w}"`).join(` ${op} `), limit, scoped / Math.max(total, scoped))
  const phrases = queryPhrases(text)
  const loose = wordSearch(db, words, total, ranked, limit)
  if (!phrases.length) return loose
  // A name the query spells exactly (asn1_read_value, "opening hours"): the chunks that have it, its words in order, come first.
  const [exact, rest] = await Promise.all([ranked(phrases, 'OR'), loose])
  const seen = new Set(exact)
  return [...exact, ...rest.filter((id) => !seen.has(id))].slice(0, limit)
}

type Ranked = (terms: string[], op: 'AND' | 'OR') => Promise<number[]>

/** The keyword search of the query's words (see `keywordSearch`). */
async function wordSearch(db: Database, words: string[], total: number, ranked: Ranked, limit: number) {
  // In a small database every word is searched for: ranking all matches costs less than looking up how common each is.
  if (total <= SMALL_DATABASE) return ranked(words, 'OR')
  // One `term = ?` per word: the vocabulary table seeks a term, but scans for IN.
  const frequencies = await db.$client.execute({ sql: words.map(() => 'SELECT term, doc FROM source_chunks_fts_vocab WHERE term = ?').join(' UNION ALL '), args: words })
  const df = new Map(frequencies.rows.map((r) => [String(r.term), Number(r.doc)]))
  const terms = words.filter((w) => df.get(w)).sort((a, b) => df.get(a)! - df.get(b)!)
  if (!terms.length) return []
  const kept = terms.filter((w, i) => i === 0 || df.get(w)! <= total * COMMON_SHARE)
  const all = kept.length > 1 ? await ranked(kept, 'AND') : []
  if (all.length >= limit) return all
  let rows = 0
  const any = await ranked(kept.filter((w, i) => i === 0 || (rows += df.get(w)!) <= OR_BUDGET), 'OR')
  const seen = new Set(all)
  return [...all, ...any.filter((id) => !seen.has(id))].slice(0, limit)
}

/**
 * The scope's n best chunks by BM25 for an FTS5 query. A scope that is a good share of all chunks
 * takes the best matches of the whole index, as many as its share needs, and keeps the scope's;
 * when fewer than n of them are (and there were more matches), or the scope is a small share,
 * the matches are joined to the scope and ranked. Either way the result is the scope's n best.
 */
async function scopeRanked(db: Database, where: ScopeSql, match: string, n: number, share: number) {
  const take = Math.ceil((n * 2) / share)
  if (share >= MIN_SHARE && take <= MAX_FTS_CANDIDATES) {
    const top = await ids(db, 'SELECT rowid AS id FROM source_chunks_fts WHERE source_chunks_fts MATCH ? ORDER BY bm25(source_chunks_fts, 1.0, 0.5) LIMIT ?', [match, take])
    if (!top.length) return []
    const mine = new Set(
      // CROSS JOIN keeps the chunks first: from the scope's files, the planner would walk all their chunks.
      await ids(db, `SELECT c.id FROM source_chunks c CROSS JOIN sources s ON s.id = c.source_id WHERE c.id IN (${top.map(() => '?').join(',')}) AND ${where.sql} AND s.status = 'ready'`, [...top, ...where.args]),
    )
    const found = top.filter((id) => mine.has(id))
    if (found.length >= n || top.length < take) return found.slice(0, n)
  }
  return ids(db, `SELECT c.id FROM source_chunks_fts f JOIN source_chunks c ON c.id = f.rowid JOIN sources s ON s.id = c.source_id
           WHERE source_chunks_fts MATCH ? AND ${where.sql} AND s.status = 'ready'
           ORDER BY bm25(source_chunks_fts, 1.0, 0.5) LIMIT ?`, [match, ...where.args, n])
}

/** Chunks of the scope's ready files. */
async function readyChunks(db: Database, where: ScopeSql) {
  const r = await db.$client.execute({ sql: `SELECT coalesce(sum(s.chunk_count), 0) AS n FROM sources s WHERE ${where.sql} AND s.status = 'ready'`, args: where.args })
  return Number(r.rows[0]!.n)
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
  const embedded = [...(query.vector && query.embeddingModel ? [{ vector: query.vector, embeddingModel: query.embeddingModel }] : []), ...(query.more ?? [])]
  const lists = await Promise.all([...embedded.map((e) => vectorSearch(db, scope, e.vector, e.embeddingModel)), keywordSearch(db, scope, query.text)])
  const scores = reciprocalRankFusion(lists)
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
  // While the files are embedded again with a new model, those not yet done are compared through
  // the query embedded with their model (when it is still usable).
  const where = scopeWhere(scope)
  const older = await deps.db.$client.execute({
    sql: `SELECT DISTINCT s.embedding_model FROM sources s WHERE ${where.sql} AND s.status = 'ready' AND s.embedding_model IS NOT ? LIMIT 2`,
    args: [...where.args, model?.modelId ?? null],
  })
  const usable = older.rows.length ? await usablePermittedModels(deps, thread.organizationId) : []
  const models = [model, ...older.rows.map((r) => usable.find((m) => m.embedding && m.modelId === r.embedding_model))].filter((m) => !!m)
  const embedded = await Promise.all(
    models.map(async (m) => {
      try {
        const client = await providerClient(deps, thread.organizationId, m.providerId, { userId: thread.userId, threadId })
        const { vectors } = await client.embed({ model: m.model, input: [query], signal: options.signal })
        return vectors[0]?.length ? { vector: Float32Array.from(vectors[0]), embeddingModel: m.modelId } : null
      } catch (error) {
        // Keyword search still answers when the embedding provider does not.
        deps.logger.warn('query embedding failed; keyword search only', { threadId, model: m.modelId, error })
        return null
      }
    }),
  )
  const [first, ...more] = embedded.filter((e) => !!e)
  if (first) Object.assign(search, first, { more })
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
