/**
 * `load` run once, on first use, its promise shared by every caller. A load that fails fails the
 * callers waiting for it, and the next call runs `load` again: a failure of the moment passes (a
 * module whose own code throws fails again, as Bun keeps that failure).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw error
    }))
}
