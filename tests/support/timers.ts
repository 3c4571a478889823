/** How many timers and immediates `run` sets (synchronously). */
export function countTimers(run: () => void) {
  const { setTimeout: timeout, setImmediate: immediate } = globalThis
  let set = 0
  globalThis.setTimeout = ((...args: Parameters<typeof timeout>) => (set++, timeout(...args))) as typeof timeout
  globalThis.setImmediate = ((...args: Parameters<typeof immediate>) => (set++, immediate(...args))) as typeof immediate
  try {
    run()
  } finally {
    globalThis.setTimeout = timeout
    globalThis.setImmediate = immediate
  }
  return set
}
