import { expect } from 'bun:test'

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

/**
 * The next interval set (of `ms`, checked) runs only when the test calls `tick`; `cleared` says
 * whether it was stopped; `restore` puts setInterval and clearInterval back.
 */
export function manualInterval(ms: number) {
  const { setInterval: set, clearInterval: clear } = globalThis
  let tick: (() => void) | undefined
  let handle: ReturnType<typeof setInterval> | undefined
  let cleared = false
  globalThis.setInterval = ((fn: () => void, every: number) => {
    expect(every).toBe(ms)
    tick = fn
    return (handle = set(() => {}, 2 ** 31 - 1))
  }) as typeof setInterval
  globalThis.clearInterval = ((h: ReturnType<typeof setInterval>) => {
    if (h !== undefined && h === handle) cleared = true
    clear(h)
  }) as typeof clearInterval
  return {
    tick: () => tick!(),
    cleared: () => cleared,
    restore: () => {
      globalThis.setInterval = set
      globalThis.clearInterval = clear
    },
  }
}
