import { recordAudit, type AuditFrom } from '../audit/access'
import { and, asc, eq } from 'drizzle-orm'
import { Zip, ZipDeflate, ZipPassThrough, type ZipInputFile } from 'fflate'
import { agents, messages, prompts, sources, threads } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { findOwnThread } from '../sources/access'
import { appendedText, toMessageView, withAppendedText } from '../threads/access'
import { chatMarkdown } from './markdown'
import { JSON_TYPE, MARKDOWN_TYPE, ZIP_TYPE, type ChatExport } from './schema'

type ThreadRow = typeof threads.$inferSelect

/** A chat with its messages, agent and file list, as the exports write it (the caller owns it). */
async function chatExportOf(deps: AppDeps, caller: SessionUser, thread: ThreadRow, exportedAt: string): Promise<ChatExport> {
  const [rows, parts, files, agent] = await deps.db.batch([
    deps.db.select().from(messages).where(and(eq(messages.threadId, thread.id), eq(messages.onBranch, true))).orderBy(asc(messages.seq)),
    appendedText(deps, thread.id),
    deps.db.select().from(sources).where(eq(sources.threadId, thread.id)).orderBy(asc(sources.createdAt), asc(sources.id)),
    deps.db.select({ id: agents.id, name: agents.name }).from(agents).where(and(eq(agents.id, thread.agentId ?? ''), eq(agents.userId, caller.id))),
  ])
  return {
    format: 'kontor-chat',
    version: 1,
    exportedAt,
    chat: {
      id: thread.id,
      title: thread.title,
      createdAt: thread.createdAt.toISOString(),
      lastMessageAt: thread.lastMessageAt.toISOString(),
      pinned: thread.pinnedAt !== null,
      agent: agent[0] ?? null,
    },
    files: files.map((f) => ({ id: f.id, name: f.name, description: f.description, fileName: f.fileName, mimeType: f.mimeType, size: f.size, createdAt: f.createdAt.toISOString() })),
    messages: withAppendedText(rows, parts).map(toMessageView),
  }
}

/** A name for files: the title's letters and digits joined by dashes (at most 60), else `chat`. */
export function slugOf(title: string | null) {
  const slug = (title ?? '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
  return slug || 'chat'
}

/** `attachment` with an ASCII name for old clients and the real one (RFC 6266). */
export function attachment(fileName: string) {
  const ascii = fileName.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, '') || 'download'
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

/** Files that are compressed already (PDFs, and Office documents are zips): stored in the export as they are. */
const STORED_KINDS = new Set<string>(['pdf', 'docx', 'pptx', 'xlsx'])

const download = (body: BodyInit, type: string, fileName: string) =>
  new Response(body, { headers: { 'Content-Type': type, 'Content-Disposition': attachment(fileName), 'Cache-Control': 'no-store' } })

/** One of the caller's chats as a Markdown or JSON download; anyone else's chat is not found. */
export async function exportThread(deps: AppDeps, caller: SessionUser, id: string, format: 'markdown' | 'json', from: AuditFrom) {
  const thread = await findOwnThread(deps, caller, id)
  const chat = await chatExportOf(deps, caller, thread, new Date().toISOString())
  await recordAudit(deps, caller, from, { action: 'chat.exported', target: { type: 'thread', id: thread.id, label: thread.title }, details: { format } })
  const name = slugOf(thread.title)
  return format === 'json'
    ? download(JSON.stringify(chat, null, 2), JSON_TYPE, `${name}.json`)
    : download(chatMarkdown(chat, caller.locale), MARKDOWN_TYPE, `${name}.md`)
}

type Entry = { name: string; data: Uint8Array | string; mtime?: Date; stored?: boolean }

const encoder = new TextEncoder()
const json = (value: unknown) => JSON.stringify(value, null, 2)

/** A file name made safe for a ZIP path: no folders, no dots in front, no control characters. */
const safeFileName = (name: string) => name.replace(/[\x00-\x1f\x7f/\\:*?"<>|]+/g, '_').replace(/^\.+/, '_').slice(0, 150) || 'file'

/** A name not yet in `taken` (`a.txt`, `a (2).txt`, …), added to it. */
function unique(taken: Set<string>, name: string) {
  const dot = name.lastIndexOf('.')
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, '']
  let candidate = name
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`
  taken.add(candidate.toLowerCase())
  return candidate
}

/**
 * Everything of the caller's as ZIP entries, one chat or file at a time (docs/decisions/0054):
 * `index.json`, `chats/<date>-<title>.json` and `.md`, `files/<date>-<title>/<file name>`,
 * `prompts.json` and `agents.json`. Only the caller's own rows are read.
 */
async function* entriesOf(deps: AppDeps, caller: SessionUser): AsyncGenerator<Entry> {
  const exportedAt = new Date().toISOString()
  const own = await deps.db.select().from(threads).where(eq(threads.userId, caller.id)).orderBy(asc(threads.createdAt), asc(threads.id))
  const taken = new Set<string>()
  const index: { id: string; title: string | null; json: string; markdown: string; files: string[] }[] = []
  for (const thread of own) {
    const chat = await chatExportOf(deps, caller, thread, exportedAt)
    const base = unique(taken, `${thread.createdAt.toISOString().slice(0, 10)}-${slugOf(thread.title)}`)
    const entry = { id: thread.id, title: thread.title, json: `chats/${base}.json`, markdown: `chats/${base}.md`, files: [] as string[] }
    yield { name: entry.json, data: json(chat), mtime: thread.lastMessageAt }
    yield { name: entry.markdown, data: chatMarkdown(chat, caller.locale), mtime: thread.lastMessageAt }
    const fileNames = new Set<string>()
    const files = await deps.db.select().from(sources).where(and(eq(sources.threadId, thread.id), eq(sources.userId, caller.id))).orderBy(asc(sources.createdAt))
    for (const file of files) {
      const bytes = await deps.files.get(file.fileKey)
      // A file whose bytes are gone (a store that lost it) is listed in the chat's JSON but not packed.
      if (!bytes) continue
      const name = `files/${base}/${unique(fileNames, safeFileName(file.fileName))}`
      entry.files.push(name)
      yield { name, data: bytes, mtime: file.createdAt, stored: STORED_KINDS.has(file.kind) }
    }
    index.push(entry)
  }
  const ownPrompts = await deps.db.select().from(prompts).where(eq(prompts.userId, caller.id)).orderBy(asc(prompts.createdAt))
  yield {
    name: 'prompts.json',
    data: json(ownPrompts.map((p) => ({ id: p.id, title: p.title, content: p.content, createdAt: p.createdAt.toISOString(), updatedAt: p.updatedAt.toISOString() }))),
  }
  const ownAgents = await deps.db.select().from(agents).where(eq(agents.userId, caller.id)).orderBy(asc(agents.createdAt))
  yield {
    name: 'agents.json',
    data: json(
      ownAgents.map((a) => ({ id: a.id, name: a.name, instructions: a.instructions, modelId: a.modelId, createdAt: a.createdAt.toISOString(), updatedAt: a.updatedAt.toISOString() })),
    ),
  }
  yield {
    name: 'index.json',
    data: json({ format: 'kontor-export', version: 1, exportedAt, user: { name: caller.name, email: caller.email }, chats: index, prompts: ownPrompts.length, agents: ownAgents.length }),
  }
}

/**
 * Streams entries as a ZIP: each is read and packed when the reader asks for more, so the archive
 * is never held whole (fflate: pure JavaScript, the same on Bun and Workers).
 */
export function zipStream(entries: AsyncIterator<Entry>, onError: (error: unknown) => void) {
  let zip: Zip
  let sent = 0
  return new ReadableStream<Uint8Array>({
    start(controller) {
      zip = new Zip((error, chunk, final) => {
        if (error) return controller.error(error)
        sent++
        controller.enqueue(chunk)
        if (final) controller.close()
      })
    },
    async pull(controller) {
      try {
        // A pull that enqueued nothing would not be called again: pack until something went out.
        for (const before = sent; sent === before; ) {
          const next = await entries.next()
          if (next.done) return zip.end()
          const { name, data, mtime, stored } = next.value
          const file: ZipInputFile & { push(chunk: Uint8Array, final?: boolean): void } = stored ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 })
          if (mtime) file.mtime = mtime
          zip.add(file)
          file.push(typeof data === 'string' ? encoder.encode(data) : data, true)
        }
      } catch (error) {
        onError(error)
        controller.error(error)
      }
    },
    cancel() {
      void entries.return?.(undefined)
    },
  })
}

/** All of the caller's data as a streamed ZIP download. */
export async function exportAll(deps: AppDeps, caller: SessionUser, from: AuditFrom) {
  await recordAudit(deps, caller, from, { action: 'data.exported', target: { type: 'user', id: caller.id, label: caller.email } })
  const stream = zipStream(entriesOf(deps, caller), (error) => deps.logger.error('the data export broke off', { error, userId: caller.id }))
  return download(stream, ZIP_TYPE, `kontor-export-${new Date().toISOString().slice(0, 10)}.zip`)
}
