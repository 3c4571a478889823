/**
 * Settles in the next turn of the event loop, once the loop has done its I/O (the writes made so
 * far leave): `setImmediate`, or a timer where there is none (Workers). `then` runs first.
 */
export const nextTurn = (then?: () => void) =>
  new Promise<void>((resolve) =>
    (globalThis.setImmediate ?? setTimeout)(() => {
      then?.()
      resolve()
    }),
  )

/**
 * Settles once what was written to a response so far has left the process. Bun's server hands a
 * response's bytes to the socket in the loop's I/O phase that follows the turn in which they were
 * written, after that turn's immediates: a caller that resumed after one turn and then kept the
 * loop busy (parsing a provider's answer that is already buffered) held the bytes back until it
 * yielded. Two turns let the I/O phase in between. `then` runs first.
 */
export const writesLeft = (then?: () => void) => nextTurn().then(() => nextTurn(then))

/** The `writesLeftTogether` of the current turn, until its first immediate has run. */
let thisTurn: Promise<void> | undefined

/**
 * `writesLeft` for every caller of this turn at once: one promise and one pair of immediates per
 * turn, however many replies wrote in it. Bun's immediates and timers are objects whose native part
 * lives until the collector frees them; a pair for each stream and network chunk raised the peak of
 * a bare relay of 1,000 streams by 20–30 MB (decision 0105). A caller in the next turn gets a pair
 * of its own. Only where a timer outlives the request that set it (the Bun server, `writesTogether`): on
 * Workers it belongs to its request, and the others would wait for one that may never run.
 */
export const writesLeftTogether = (): Promise<void> =>
  (thisTurn ??= new Promise<void>((resolve) =>
    setImmediate(() => {
      thisTurn = undefined
      setImmediate(resolve)
    }),
  ))

/** What `afterThisTurn` runs when the turn's timer fires. */
const dueThisTurn = new Set<() => unknown>()
let turnTimer: ReturnType<typeof setTimeout> | undefined

/**
 * Runs `task` in a timer of this turn, unless `dropFromThisTurn` takes it back first: one timer for
 * all the tasks of a turn (see `writesLeftTogether`, also for where it may be used). A task that
 * throws does not keep the others from running; its error is thrown again on its own.
 */
export function afterThisTurn(task: () => unknown) {
  dueThisTurn.add(task)
  turnTimer ??= setTimeout(() => {
    turnTimer = undefined
    const tasks = [...dueThisTurn]
    dueThisTurn.clear()
    for (const t of tasks) {
      try {
        t()
      } catch (error) {
        queueMicrotask(() => {
          throw error
        })
      }
    }
  }, 0)
}

export const dropFromThisTurn = (task: () => unknown) => void dueThisTurn.delete(task)
