import type { Client } from '@libsql/client'
import type { AppDeps } from '../../lib/context'

/**
 * What a reply's end leaves for later is done for many replies together, shortly after.
 *
 * Replies are put in the chat search index together, not each by the statement that ends it
 * (docs/decisions/0107-replies-indexed-together.md). A reply's end only notes it in
 * `chat_search_waiting` (a trigger, migration 0031); the waiting replies are indexed in one
 * transaction of up to INDEX_TOGETHER replies: shortly after (INDEX_AFTER_MS, in the Bun server),
 * right after the end on Workers, and always before a search, so a search finds every reply that
 * has ended. FTS5 writes a new segment of its index at every commit: indexing documents of 300
 * words one commit for 6 of them cost about 490 µs a document, 50 together about 290, 200 about
 * 110–140 (a script; the decision has the figures).
 *
 * The parts a reply appended while it streamed (reply_chunks) go in the same transactions: its end
 * only marks its number ended (a trigger, migration 0035), and up to PARTS_TOGETHER ended replies'
 * parts and numbers are deleted at a time. The parts of one tick of many replies share the table's
 * pages: deleted together, each page is rewritten once rather than once per reply (decision 0137).
 */
export const INDEX_AFTER_MS = 1000
/** How many waiting replies one transaction indexes at most: it holds the event loop meanwhile on a database file. */
export const INDEX_TOGETHER = 64

/** The waiting replies this transaction indexes: the first INDEX_TOGETHER, in the order they ended. */
const TAKEN = `SELECT message_id FROM chat_search_waiting ORDER BY rowid LIMIT ${INDEX_TOGETHER}`
/**
 * How many ended replies' appended parts one transaction deletes at most: more than it indexes, as
 * deleting them costs less a reply (256 replies of about 35 parts each, a reply of 10 s, took about
 * 10 ms in a script, decision 0137), so that a burst of ends takes fewer transactions.
 */
export const PARTS_TOGETHER = 4 * INDEX_TOGETHER
/** The ended replies whose appended parts this transaction deletes: the first PARTS_TOGETHER by number. */
const ENDED = `SELECT n FROM streaming_replies WHERE ended = 1 ORDER BY n LIMIT ${PARTS_TOGETHER}`

const statements = [
  // Those that need nothing leave the queue first, all of them, so that the first INDEX_TOGETHER
  // stay the same through the statements below: deleted, off the branch (a version no longer
  // shown), or indexed meanwhile (changed in place, or shown again).
  `DELETE FROM chat_search_waiting WHERE
     NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = chat_search_waiting.message_id AND m.status <> 'streaming' AND m.on_branch = 1)
     OR EXISTS (SELECT 1 FROM chat_search_docs d WHERE d.message_id = chat_search_waiting.message_id)`,
  `INSERT OR IGNORE INTO chat_search_owners (user_id)
     SELECT DISTINCT t.user_id FROM messages m JOIN threads t ON t.id = m.thread_id WHERE m.id IN (${TAKEN})`,
  // Each owner's next rowids, in the order the replies ended (newer rows higher, migration 0014).
  `INSERT INTO chat_search_docs (id, thread_id, message_id)
     SELECT x.id + row_number() OVER (PARTITION BY t.user_id ORDER BY w.rowid) - 1, t.id, m.id
     FROM chat_search_waiting w JOIN messages m ON m.id = w.message_id JOIN threads t ON t.id = m.thread_id JOIN chat_search_next_ids x ON x.user_id = t.user_id
     WHERE w.message_id IN (${TAKEN})`,
  `INSERT INTO chat_search (rowid, title, body)
     SELECT d.id, '', m.content FROM chat_search_docs d JOIN messages m ON m.id = d.message_id WHERE d.message_id IN (${TAKEN}) ORDER BY d.id`,
  `DELETE FROM chat_search_waiting WHERE message_id IN (${TAKEN})`,
  // The parts first, then the numbers (the same first PARTS_TOGETHER: the parts' deletion leaves them).
  `DELETE FROM reply_chunks WHERE reply_n IN (${ENDED})`,
  `DELETE FROM streaming_replies WHERE n IN (${ENDED})`,
]

/** Whether a reply waits to be indexed or an ended reply's parts wait to go. */
const anyWaiting = async (client: Client) =>
  (await client.execute('SELECT 1 FROM chat_search_waiting UNION ALL SELECT 1 FROM streaming_replies WHERE ended = 1 LIMIT 1')).rows.length > 0

/** One transaction of up to INDEX_TOGETHER waiting replies on this database; whether more wait. */
export async function indexWaiting(client: Client): Promise<boolean> {
  // Usually nothing waits (a search, a quiet server): one small read.
  if (!(await anyWaiting(client))) return false
  await client.batch(statements, 'write')
  return anyWaiting(client)
}

const running = new WeakMap<AppDeps, Promise<boolean>>()

/**
 * indexWaiting on the app's database, one run at a time per process: a caller meanwhile waits for
 * the run in progress and then runs its own.
 */
function indexWaitingReplies(deps: AppDeps): Promise<boolean> {
  const before = running.get(deps)
  const run = (before ?? Promise.resolve(false)).catch(() => false).then(() => indexWaiting(deps.db.$client))
  running.set(deps, run)
  void run.finally(() => running.get(deps) === run && running.delete(deps)).catch(() => {})
  return run
}

/** Indexes every waiting reply, INDEX_TOGETHER at a time: before a search reads the index. */
export async function indexAllWaiting(deps: AppDeps) {
  while (await indexWaitingReplies(deps));
}

/** In the Bun server: a timer set (`timer`), or its transactions running (`draining`). */
const scheduled = new WeakMap<AppDeps, 'timer' | 'draining'>()
/** A reply ended while the transactions ran: the queue is looked at again after the next wait. */
const endedMeanwhile = new WeakSet<AppDeps>()

/**
 * After a reply ended: the waiting replies are indexed INDEX_AFTER_MS later in the Bun server
 * (with those that end meanwhile; then INDEX_TOGETHER at a time, a turn of the event loop between
 * transactions). On Workers, where a timer belongs to its request, one transaction at once,
 * without looking first: a reply is known to wait.
 */
export async function indexLater(deps: AppDeps) {
  if (!deps.writesTogether) {
    await deps.db.$client.batch(statements, 'write')
    return
  }
  const state = scheduled.get(deps)
  if (state === 'draining') endedMeanwhile.add(deps)
  if (state) return
  scheduled.set(deps, 'timer')
  const drain = async () => {
    scheduled.set(deps, 'draining')
    try {
      if (await indexWaitingReplies(deps)) return void setImmediate(drain)
    } catch (error) {
      deps.logger.warn('could not index ended replies for search', { error })
    }
    scheduled.delete(deps)
    if (endedMeanwhile.delete(deps)) void indexLater(deps)
  }
  setTimeout(drain, INDEX_AFTER_MS).unref?.()
}

/** Whether indexing is set to run later in this process (a timer, or transactions running). */
export const indexingScheduled = (deps: AppDeps) => scheduled.has(deps)
