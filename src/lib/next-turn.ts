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
