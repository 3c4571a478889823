import {
  MaxFileSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseMultipartRequest,
} from '@remix-run/multipart-parser'
import { eq, getTableColumns, sql } from 'drizzle-orm'
import { sources } from '../../../db/schema'
import { embeddingModelOf } from '../models/access'
import type { AppDeps, SessionUser } from '../../lib/context'
import { AppError, fail } from '../../lib/errors'
import { detectKind } from './file-type'
import { startProcessing } from './process'
import { MAX_DESCRIPTION_LENGTH, MAX_FILE_BYTES, MAX_NAME_LENGTH, MAX_SOURCES_PER_COLLECTION, MAX_SOURCES_PER_THREAD } from './schema'
import { findOwnThread, toSourceView } from './rows'

/** Room for the multipart framing and the name and description fields around the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024

type Form = { file?: { fileName: string; type: string; bytes: Uint8Array }; name?: string; description?: string }

/**
 * Where an upload goes, checked by the caller: a chat (at most 20 files) or a knowledge collection
 * (at most 200). `stillThere` is asked when the insert fails: it throws the owner's not-found error
 * when the chat or collection was deleted while the file came in.
 */
export type UploadTarget =
  | { threadId: string; collectionId?: undefined }
  | { collectionId: string; threadId?: undefined }

/**
 * Attaches a file to the caller's thread. Cheap refusals come before the body is read (thread,
 * embedding model, 20 files, declared length); the body is then read as a stream and refused
 * the moment the file passes 20 MB. The file is checked against its claimed type, stored, and
 * recorded as `processing`; parsing and embedding run in the background.
 */
export async function uploadSource(
  deps: AppDeps,
  caller: SessionUser,
  threadId: string,
  request: Request,
  background: (job: Promise<unknown>) => void = () => {},
) {
  const thread = await findOwnThread(deps, caller, threadId)
  return uploadFile(deps, caller, { threadId: thread.id }, request, background, () => findOwnThread(deps, caller, thread.id))
}

/**
 * Stores an uploaded file for a chat or a collection whose access the caller has checked, and
 * starts processing it (the same checks, limits and pipeline for both).
 */
export async function uploadFile(
  deps: AppDeps,
  caller: SessionUser,
  target: UploadTarget,
  request: Request,
  background: (job: Promise<unknown>) => void,
  stillThere: () => Promise<unknown>,
) {
  const [column, ownerId, limit, tooMany] = target.threadId
    ? ([sources.threadId, target.threadId, MAX_SOURCES_PER_THREAD, 'TOO_MANY_SOURCES'] as const)
    : ([sources.collectionId, target.collectionId!, MAX_SOURCES_PER_COLLECTION, 'TOO_MANY_COLLECTION_FILES'] as const)
  if (!(await embeddingModelOf(deps, caller.organizationId))) fail('EMBEDDING_MODEL_REQUIRED')
  if ((await deps.db.$count(sources, eq(column, ownerId))) >= limit) fail(tooMany)
  if (!/^multipart\/form-data\b/i.test(request.headers.get('content-type') ?? '')) {
    fail('UNSUPPORTED_MEDIA_TYPE', { message: 'The request body must be multipart/form-data.' })
  }
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (declared > MAX_FILE_BYTES + FORM_OVERHEAD_BYTES) {
    await request.body?.cancel().catch(() => {})
    fail('FILE_TOO_LARGE')
  }

  const form = await readForm(request)
  const fields: Record<string, string> = {}
  if (!form.file) fields.file = 'File is required'
  if ((form.name?.trim().length ?? 0) > MAX_NAME_LENGTH) fields.name = `Name must be at most ${MAX_NAME_LENGTH} characters`
  if ((form.description?.trim().length ?? 0) > MAX_DESCRIPTION_LENGTH) fields.description = `Description must be at most ${MAX_DESCRIPTION_LENGTH} characters`
  if (Object.keys(fields).length) fail('VALIDATION_FAILED', { fields })
  const file = form.file!
  if (file.bytes.byteLength === 0) fail('FILE_EMPTY')
  const { kind, mimeType } = detectKind(file.fileName, file.type, file.bytes)

  const id = crypto.randomUUID()
  const fileKey = target.threadId ? `sources/${caller.organizationId}/${ownerId}/${id}` : `collections/${caller.organizationId}/${ownerId}/${id}`
  await deps.files.put(fileKey, file.bytes, { contentType: mimeType })
  const now = new Date()
  const values = {
    id,
    organizationId: caller.organizationId,
    threadId: target.threadId ?? null,
    collectionId: target.collectionId ?? null,
    userId: caller.id,
    name: form.name?.trim() || file.fileName,
    description: form.description?.trim() || null,
    fileName: file.fileName,
    kind,
    mimeType,
    size: file.bytes.byteLength,
    fileKey,
    status: 'processing' as const,
    createdAt: now,
    updatedAt: now,
  }
  // The limit is checked again in the insert itself: two uploads racing for the last place
  // cannot both win (SQLite runs one write at a time).
  const columns = getTableColumns(sources)
  const entries = Object.entries(values) as [keyof typeof columns, unknown][]
  const insert = sql`
    insert into ${sources} (${sql.join(entries.map(([k]) => sql.identifier(columns[k].name)), sql`, `)})
    select ${sql.join(entries.map(([, v]) => sql`${v instanceof Date ? v.getTime() : v}`), sql`, `)}
    where (select count(*) from ${sources} where ${column} = ${ownerId}) < ${limit}`
  const inserted = await deps.db.run(insert).catch(async (error) => {
    // The thread or collection (or its user) was deleted while the file came in: nothing will point at the file.
    await deps.files.delete(fileKey).catch(() => {})
    await stillThere()
    throw error
  })
  if (inserted.rowsAffected === 0) {
    await deps.files.delete(fileKey).catch(() => {})
    fail(tooMany)
  }
  const row = await deps.db.query.sources.findFirst({ where: eq(sources.id, id) })
  background(startProcessing(deps, row!.id))
  return toSourceView(row!)
}

/** Reads the form while it streams in; the parser stops at the first byte over the limit. */
async function readForm(request: Request): Promise<Form> {
  const form: Form = {}
  try {
    for await (const part of parseMultipartRequest(request, {
      maxFileSize: MAX_FILE_BYTES,
      maxTotalSize: MAX_FILE_BYTES + FORM_OVERHEAD_BYTES,
      maxParts: 10,
      maxHeaderSize: 8 * 1024,
    })) {
      if (part.name === 'file' && part.isFile && !form.file) {
        form.file = { fileName: cleanFileName(part.filename ?? 'file'), type: part.mediaType ?? '', bytes: part.bytes }
      } else if (part.name === 'name' && !part.isFile) form.name = part.text
      else if (part.name === 'description' && !part.isFile) form.description = part.text
    }
  } catch (error) {
    await request.body?.cancel().catch(() => {})
    if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError) throw new AppError('FILE_TOO_LARGE')
    // The body ended before the form's closing boundary: the sender stopped half-way.
    if (error instanceof MultipartParseError && /not finished/.test(error.message)) throw new AppError('UPLOAD_INCOMPLETE')
    if (error instanceof MaxPartsExceededError || error instanceof MultipartParseError) throw new AppError('BAD_REQUEST', { message: 'The upload is not a valid multipart form.' })
    // Reading the body failed: the client went away (a closed tab, a lost connection). Nothing is stored.
    throw new AppError('UPLOAD_INCOMPLETE')
  }
  return form
}

/** The file's own name without any path a browser or client may send, at most 200 characters. */
function cleanFileName(name: string) {
  const base = name.split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim()
  return (base || 'file').slice(-MAX_NAME_LENGTH)
}
