import type { BatchItem } from 'drizzle-orm/batch'
import type { Database } from '../../db/client'
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
 * caller gets its own results: when the shared batch fails, each caller's statements are written
 * alone. A caller that has to see its write before another of its own awaits it, as for any write.
 *
 * Where there is no `setImmediate` (Workers: a timer belongs to the request that set it), each
 * batch is written at once.
 */
export function commitTogether(db: Database, statements: Statements): Promise<readonly unknown[]> {
  if (!globalThis.setImmediate) return db.batch(statements)
  let queue = waiting.get(db)
  if (!queue) {
    waiting.set(db, (queue = []))
    void nextTurn().then(() => write(db))
  }
  const done = Promise.withResolvers<readonly unknown[]>()
  queue.push({ statements, done })
  return done.promise
}

async function write(db: Database) {
  const queue = waiting.get(db) ?? []
  waiting.delete(db)
  if (queue.length > 1) {
    const all = queue.flatMap((w) => w.statements) as unknown as Statements
    const results = await db.batch(all).catch(() => undefined)
    if (results) {
      let at = 0
      for (const w of queue) {
        const mine = results.slice(at, (at += w.statements.length))
        apart(() => w.done.resolve(mine))
      }
      return
    }
  }
  // One alone, or the shared batch failed (nothing of it was written): each on its own.
  for (const w of queue) {
    const outcome = await db.batch(w.statements).then(
      (results) => () => w.done.resolve(results),
      (error: unknown) => () => w.done.reject(error),
    )
    apart(outcome)
  }
}

/**
 * Each caller goes on in a task of its own, as it would after a write of its own. Resumed together,
 * their next steps would interleave at every await: two interactive transactions on a database
 * file would then both be open, and the second could not begin (SQLITE_BUSY).
 */
const apart = (settle: () => void) => void setImmediate(settle)
