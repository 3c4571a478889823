/**
 * Lets at most `perTurn` requests start in one turn of the event loop; the others start in the
 * turns after, in the order they came. The Bun server passes only the requests that start a
 * model reply through it (`startsReply` in src/server.ts): a burst of them (a thousand members
 * sending at once) otherwise runs its first steps in one stretch: each goes on without waiting
 * (a database file answers synchronously), and the replies already streaming get no turn to pass
 * their tokens on until the whole burst is through, hundreds of milliseconds later. Spread over turns, the burst
 * takes as long, and the tokens go out between its parts. Under ordinary load a request starts at
 * once (no promise, no wait).
 *
 * Turns are counted with `setImmediate`: for the Bun server (src/server.ts), not for Workers,
 * where a timer belongs to the request that set it.
 */
export function startGate(perTurn: number) {
  let left = perTurn
  const waiting: Array<() => void> = []
  let head = 0
  let scheduled = false

  const nextTurn = () => {
    scheduled = false
    left = perTurn
    while (left > 0 && head < waiting.length) {
      left--
      waiting[head++]!()
    }
    // What was let through leaves the queue: all of it when it ran empty, else now and then.
    if (head === waiting.length || (head > 1024 && head * 2 > waiting.length)) {
      waiting.splice(0, head)
      head = 0
    }
    // The requests let through in this turn count against it until the next one begins.
    if (head < waiting.length || left < perTurn) schedule()
  }
  const schedule = () => {
    if (scheduled) return
    scheduled = true
    setImmediate(nextTurn)
  }

  /** Undefined when the request may start now; else a promise that resolves when it may. */
  return (): Promise<void> | undefined => {
    schedule()
    if (left > 0 && head === waiting.length) {
      left--
      return undefined
    }
    return new Promise<void>((resolve) => waiting.push(resolve))
  }
}

