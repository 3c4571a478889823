import { and, asc, eq, isNull, lt, ne, or, sql } from 'drizzle-orm'
import { sourceChunks, sources } from '../../../db/schema'
import type { AppDeps } from '../../lib/context'
import { AppError, type ErrorCode } from '../../lib/errors'
import { embeddingModelOf, providerClient } from '../models/access'
import { chunkBlocks, type Chunk } from './chunk'
import { sweepDeletedFiles } from './service'
import { ensureVectorTable, NO_VECTOR, storeVectors } from './vectors'

/** How long a claim holds without a heartbeat; after that another process may take the source over. */
export const LOCK_MS = 2 * 60_000
/** A source that failed this often with transient errors (or crashed its process) is given up. */
export const MAX_ATTEMPTS = 3
/** Transient provider failures are tried again after this long. */
export const RETRY_DELAY_MS = 30_000
export const EMBED_BATCH = 64
/** Sources processed at once by one process; parsing a large PDF is CPU- and memory-heavy. */
const CONCURRENCY = 2
const INSERT_BATCH = 100

const incrementAttempts = sql`${sources.attempts} + 1`

const TRANSIENT = new Set<ErrorCode>(['PROVIDER_RATE_LIMITED', 'PROVIDER_UNAVAILABLE', 'PROVIDER_TIMEOUT', 'PROVIDER_STREAM_INTERRUPTED'])

type SourceRow = typeof sources.$inferSelect

/** The source was deleted, taken over or handed back while it was being processed. */
class Gone extends Error {}

/** The processing slots taken in this process (per isolate on Workers), each with when it was taken. */
const slots = new Map<symbol, number>()
/** How often a file waiting for a free slot looks again. */
const SLOT_POLL_MS = 100
const inFlight = new Set<Promise<unknown>>()
/** Claims this process holds (source id → lease), so a shutdown can hand them back. */
const held = new Map<string, { deps: AppDeps; lease: string }>()
/** Apps that are shutting down take no new work. */
const stopping = new WeakSet<AppDeps>()

/**
 * At most CONCURRENCY files are processed at once per process (per isolate on Workers). A waiting
 * file looks again on a timer rather than being woken by the file before it: on Workers each runs
 * in its own request's `waitUntil`, and a promise resolved from another request's context is
 * cancelled there, which left the waiting file hanging. Workers may also cut a `waitUntil` off
 * without running its `finally`: a slot held longer than a claim lasts counts as free, so one
 * cut-off file never blocks the isolate for good (its claim lapses and the upkeep resumes it). On
 * the Bun server a file read for that long (OCR of many pages) then shares the machine with one more.
 */
async function limited<T>(run: () => Promise<T>): Promise<T> {
  for (;;) {
    const now = Date.now()
    for (const [slot, since] of slots) if (now - since > LOCK_MS) slots.delete(slot)
    if (slots.size < CONCURRENCY) break
    await new Promise((resolve) => setTimeout(resolve, SLOT_POLL_MS))
  }
  const slot = Symbol('processing slot')
  slots.set(slot, Date.now())
  try {
    return await run()
  } finally {
    slots.delete(slot)
  }
}

/**
 * Processes a source in the background without holding up the caller. The returned promise
 * (never rejecting) is for runtimes that must be told to keep working (Workers' waitUntil).
 */
export function startProcessing(deps: AppDeps, id: string): Promise<unknown> {
  const job = limited(() => processSource(deps, id)).catch((error) => deps.logger.error('source processing crashed', { sourceId: id, error }))
  inFlight.add(job)
  void job.finally(() => inFlight.delete(job))
  return job
}

/** Resolves when no source is being processed by this process (tests, shutdown). */
export async function processingIdle() {
  while (inFlight.size) await Promise.all([...inFlight])
}

/**
 * The periodic upkeep of sources (the Bun server's timer, the Workers cron trigger): processing
 * that was cut off is resumed, and stored files of deleted sources are removed. Each part logs its
 * own failure and never stops the other.
 */
export async function sourceUpkeep(deps: AppDeps) {
  await Promise.all([
    resumeSources(deps).catch((error) => deps.logger.warn('resuming sources failed', { error })),
    sweepDeletedFiles(deps).catch((error) => deps.logger.warn('removing deleted files failed', { error })),
  ])
}

/**
 * Picks up sources left `processing` without a live claim: uploads whose process died or was
 * stopped, and transient failures waiting for their retry. Run periodically (the Bun server's
 * poller, the Workers cron trigger).
 */
export async function resumeSources(deps: AppDeps, { now = new Date(), limit = 10 } = {}) {
  const due = await deps.db
    .select({ id: sources.id })
    .from(sources)
    .where(and(eq(sources.status, 'processing'), or(isNull(sources.lockedUntil), lt(sources.lockedUntil, now))))
    .orderBy(asc(sources.createdAt))
    .limit(limit)
  let done = 0
  for (const { id } of due) if (await limited(() => processSource(deps, id, now))) done++
  return done
}

/**
 * Hands back the claims of sources this process is working on (a graceful shutdown), so that
 * another process resumes them at once instead of after the claim runs out. The attempt is not
 * counted; the work cut short here notices at its next step that it lost the claim, and stops.
 */
export async function releaseSources(deps: AppDeps) {
  stopping.add(deps)
  for (const [id, claim] of held) {
    if (claim.deps !== deps) continue
    held.delete(id)
    await deps.db
      .update(sources)
      .set({ lease: null, lockedUntil: null, attempts: sql`max(${sources.attempts} - 1, 0)` })
      .where(and(eq(sources.id, id), eq(sources.lease, claim.lease), eq(sources.status, 'processing')))
      .catch((error) => deps.logger.warn('could not hand back a source claim', { sourceId: id, error }))
  }
}

/**
 * Parses, chunks and embeds one source, then stores all its chunks in one transaction and marks
 * it ready; a file that cannot be used is marked failed with an error code. The claim is a
 * conditional UPDATE in the database, so of several processes exactly one gets it; it is renewed
 * while working and every later write requires it to still be this process's lease. Returns false
 * when another process holds the source or it is no longer processing.
 */
export async function processSource(deps: AppDeps, id: string, now = new Date()): Promise<boolean> {
  if (stopping.has(deps)) return false
  const lease = crypto.randomUUID()
  const [source] = await deps.db
    .update(sources)
    .set({ lease, lockedUntil: new Date(now.getTime() + LOCK_MS), attempts: incrementAttempts, updatedAt: now })
    .where(and(eq(sources.id, id), eq(sources.status, 'processing'), or(isNull(sources.lockedUntil), lt(sources.lockedUntil, now))))
    .returning()
  if (!source) return false
  held.set(id, { deps, lease })
  try {
    return await work(deps, source, lease)
  } finally {
    if (held.get(id)?.lease === lease) held.delete(id)
  }
}

async function work(deps: AppDeps, source: SourceRow, lease: string) {
  const id = source.id
  const mine = and(eq(sources.id, id), eq(sources.status, 'processing'), eq(sources.lease, lease))
  if (source.attempts > MAX_ATTEMPTS) {
    deps.logger.warn('source given up after repeated attempts', { sourceId: id, attempts: source.attempts })
    await finish(deps, id, lease, { status: 'failed', error: 'SOURCE_PROCESSING_FAILED' })
    return true
  }
  const heartbeat = async () => {
    const renewed = await deps.db
      .update(sources)
      .set({ lockedUntil: new Date(Date.now() + LOCK_MS) })
      .where(mine)
      .returning({ id: sources.id })
    if (!renewed.length) throw new Gone()
  }
  try {
    await index(deps, source, lease, heartbeat)
  } catch (error) {
    if (error instanceof Gone) return true
    if (error instanceof AppError && TRANSIENT.has(error.code) && source.attempts < MAX_ATTEMPTS) {
      deps.logger.warn('source processing will be retried', { sourceId: id, code: error.code, attempts: source.attempts })
      await deps.db
        .update(sources)
        .set({ lease: null, lockedUntil: new Date(Date.now() + RETRY_DELAY_MS) })
        .where(mine)
      return true
    }
    const code: ErrorCode = error instanceof AppError ? error.code : 'SOURCE_PROCESSING_FAILED'
    if (!(error instanceof AppError)) deps.logger.error('source processing failed', { sourceId: id, error })
    await finish(deps, id, lease, { status: 'failed', error: code })
  }
  return true
}

async function index(deps: AppDeps, source: SourceRow, lease: string, heartbeat: () => Promise<void>) {
  const model = await embeddingModelOf(deps, source.organizationId)
  if (!model) throw new AppError('EMBEDDING_MODEL_REQUIRED')
  const bytes = await deps.files.get(source.fileKey)
  if (!bytes) throw new AppError('SOURCE_UNREADABLE')
  // The document readers (HTML, office formats, PDF) load with the first file to read.
  const { parseDocument } = await import('./parse')
  // Reading a page may take long (OCR of a large scan): the claim is renewed on a timer as well as
  // after each page, so that no other process takes the file over meanwhile.
  const renewing = setInterval(() => void heartbeat().catch(() => {}), LOCK_MS / 4)
  const doc = await parseDocument(source.kind, bytes, { progress: heartbeat, ocr: deps.ocr }).finally(() => clearInterval(renewing))
  const chunks = chunkBlocks(doc.blocks, source.kind === 'csv' || source.kind === 'xlsx' ? { overlap: 0 } : {})
  if (!chunks.length) throw new AppError('SOURCE_NO_TEXT')
  await heartbeat()

  const client = await providerClient(deps, source.organizationId, model.providerId, { userId: source.userId, threadId: source.threadId })
  const vectors: Float32Array[] = []
  for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
    const batch = chunks.slice(i, i + EMBED_BATCH)
    const result = await client.embed({ model: model.model, input: batch.map((c) => embeddingText(source.name, c)) })
    if (result.vectors.length !== batch.length) throw new AppError('PROVIDER_BAD_RESPONSE')
    for (const v of result.vectors) vectors.push(Float32Array.from(v))
    await heartbeat()
  }
  const dimensions = vectors[0]!.length
  if (!dimensions || vectors.some((v) => v.length !== dimensions)) throw new AppError('PROVIDER_BAD_RESPONSE')
  await ensureVectorTable(deps.db, dimensions)

  // The chunks and their vectors are written a batch per transaction, each checking the claim: a
  // vector index insert costs milliseconds a row, and one transaction for a whole file would hold
  // the database's write lock for seconds, longer than other writers wait for it. Until the last
  // transaction marks the file ready, searches skip it (they read ready files only), and a retry
  // after a crash starts by deleting what an earlier attempt left.
  const claimed = (tx: Pick<AppDeps['db'], 'query'>) =>
    tx.query.sources.findFirst({ where: and(eq(sources.id, source.id), eq(sources.status, 'processing'), eq(sources.lease, lease)), columns: { id: true } })
  await deps.db.transaction(async (tx) => {
    if (!(await claimed(tx))) throw new Gone()
    await tx.delete(sourceChunks).where(eq(sourceChunks.sourceId, source.id))
  })
  for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
    await deps.db.transaction(async (tx) => {
      if (!(await claimed(tx))) throw new Gone()
      const batch = chunks.slice(i, i + INSERT_BATCH)
      const stored = await tx
        .insert(sourceChunks)
        .values(
          batch.map((c) => ({
            sourceId: source.id,
            seq: c.seq,
            content: c.content,
            headingPath: c.headingPath,
            page: c.page,
            pageEnd: c.pageEnd,
            recognised: c.recognised,
            // The vector goes to its dimension's table (src/api/sources/vectors.ts).
            embedding: NO_VECTOR,
          })),
        )
        .returning({ id: sourceChunks.id, seq: sourceChunks.seq })
      // Paired by the chunk's number, not by the order RETURNING happens to give.
      const vectorOfSeq = new Map(batch.map((c, j) => [c.seq, vectors[i + j]!]))
      await storeVectors(tx, stored.map((row) => ({ chunkId: row.id, vector: vectorOfSeq.get(row.seq)! })))
    })
  }
  await deps.db.transaction(async (tx) => {
    if (!(await claimed(tx))) throw new Gone()
    // A collection's file uploaded again under its name replaces the older versions (their
    // chunks, vectors and FTS rows go by cascade and trigger, their files through deleted_files).
    if (source.collectionId) {
      await tx
        .delete(sources)
        .where(and(eq(sources.collectionId, source.collectionId), eq(sources.fileName, source.fileName), ne(sources.id, source.id), lt(sources.createdAt, source.createdAt)))
    }
    await tx
      .update(sources)
      .set({ status: 'ready', error: null, pages: doc.pages, chunkCount: chunks.length, embeddingModel: model.modelId, dimensions, lease: null, lockedUntil: null, updatedAt: new Date() })
      .where(eq(sources.id, source.id))
  })
}

/** What is embedded for a chunk: the passage with the source's name and its headings for context. */
export const embeddingText = (sourceName: string, chunk: Pick<Chunk, 'content' | 'headingPath'>) =>
  `${sourceName}${chunk.headingPath ? ` — ${chunk.headingPath}` : ''}\n\n${chunk.content}`

async function finish(deps: AppDeps, id: string, lease: string, values: { status: 'failed'; error: ErrorCode }) {
  await deps.db
    .update(sources)
    .set({ ...values, lease: null, lockedUntil: null, updatedAt: new Date() })
    .where(and(eq(sources.id, id), eq(sources.status, 'processing'), eq(sources.lease, lease)))
}
