import type { BatchItem } from 'drizzle-orm/batch'
import type { Database } from '../../db/client'
import type { AppDeps } from './context'
import { isConstraintViolation } from './database-errors'
import { nextTurn } from './next-turn'

type Statements = readonly [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]
type Waiting = { statements: Statements; done: ReturnType<typeof Promise.withResolvers<readonly unknown[]>> }

const waiting = new WeakMap<Database, Waiting[]>()

/**
 * Writes that need not wait for one another, committed together: the batches asked for during
 * one turn of the event loop are written as one batch at its end, with one commit. On a database
 * file a commit is most of the cost of a small write (the search index adds its new entries at
 * commit), and it runs on the event loop: a thousand replies ending within a few seconds held up
 * the tokens of those still streaming. Each caller's statements stay all or nothing, and each
 * caller gets its own results. When the shared batch breaks a constraint (a second reply in one
 * chat, say), each caller's statements are written alone, so that only the caller at fault fails;
 * any other failure (the database busy or gone) is every caller's. A caller that has to see its
 * write before another of its own awaits it, as for any write.
 *
 * On a database file a batch holds at most MAX_STATEMENTS_TOGETHER statements (a caller with more
 * goes alone): the callers past them are written in the turn after this batch's callers went on,
 * before whoever asks in the meantime. Written in one piece, the ends of 1,000 replies within two
 * seconds made batches of up to 144 statements that held the event loop for 30–70 ms each, and
 * every reply still streaming waited (decision 0106). A libSQL server's batch does not hold the
 * loop: there the turn's callers go in one batch, one round trip.
 *
 * Not on Workers (`writesTogether` off): a timer there belongs to the request that set it, and the
 * other requests' writes would wait for it. There each batch is written at once, alone.
 */
export function commitTogether(deps: Pick<AppDeps, 'db' | 'writesTogether'>, statements: Statements): Promise<readonly unknown[]> {
  const { db } = deps
  if (!deps.writesTogether) return db.batch(statements)
  let queue = waiting.get(db)
  if (!queue) {
    waiting.set(db, (queue = []))
    void nextTurn().then(() => write(db))
  }
  const done = Promise.withResolvers<readonly unknown[]>()
  queue.push({ statements, done })
  return done.promise
}

/** How many statements one batch holds at most on a database file: a reply's end writes about five, a send's beginning five or six. */
export const MAX_STATEMENTS_TOGETHER = 32

async function write(db: Database) {
  const all = waiting.get(db) ?? []
  const onFile = (db.$client as { protocol?: string }).protocol === 'file'
  let count = 0
  let taken = 0
  while (taken < all.length && (taken === 0 || !onFile || count + all[taken]!.statements.length <= MAX_STATEMENTS_TOGETHER)) count += all[taken++]!.statements.length
  const queue = all.slice(0, taken)
  // The rest stay first in line: whoever asks meanwhile comes after them.
  if (taken < all.length) waiting.set(db, all.slice(taken))
  else waiting.delete(db)
  try {
    await writeBatch(db, queue)
  } finally {
    // Once this batch's callers are on their way (each in its task, `apart`), the rest are written.
    if (taken < all.length) void nextTurn().then(() => write(db))
  }
}

async function writeBatch(db: Database, queue: Waiting[]) {
  let failure: unknown
  const results = await db.batch(queue.flatMap((w) => w.statements) as unknown as Statements).catch((error: unknown) => void (failure = error))
  if (results) {
    let at = 0
    for (const [i, w] of queue.entries()) {
      const mine = results.slice(at, (at += w.statements.length))
      apart(i, () => w.done.resolve(mine))
    }
  } else if (queue.length === 1 || !isConstraintViolation(failure)) {
    for (const [i, w] of queue.entries()) apart(i, () => w.done.reject(failure))
  } else {
    // Nothing of the shared batch was written: each caller's statements on their own.
    for (const w of queue) {
      const settle = await db.batch(w.statements).then(
        (mine) => () => w.done.resolve(mine),
        (error: unknown) => () => w.done.reject(error),
      )
      apart(1, settle)
    }
  }
}

/**
 * The first caller goes on at once; each other one in a task of its own, as it would after a write
 * of its own. Resumed in one task, their next steps would interleave at every await: two
 * interactive transactions on a database file would then both be open, and the second could not
 * begin (SQLITE_BUSY).
 */
const apart = (i: number, settle: () => void) => (i === 0 ? settle() : void setImmediate(settle))
