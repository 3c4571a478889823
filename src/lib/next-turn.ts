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
