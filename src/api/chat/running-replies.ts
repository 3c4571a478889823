/** Replies streaming in this process, so that a shutdown can stop them cleanly (src/entry.ts, stopOnSignals). */
const running = new Set<{ abort: AbortController; done: Promise<void> }>()

/** Counts a reply as running until `done` settles; `abort` stops it. */
export async function trackReply(abort: AbortController, done: Promise<void>) {
  const entry = { abort, done }
  running.add(entry)
  try {
    await done
  } finally {
    running.delete(entry)
  }
}

/** Stops every reply still streaming in this process (kept as `stopped`) and waits until they are written. */
export async function stopRunningReplies(reason = 'The server is shutting down') {
  const replies = [...running]
  for (const r of replies) r.abort.abort(new DOMException(reason, 'AbortError'))
  await Promise.allSettled(replies.map((r) => r.done))
}

/** Resolves when no reply streams any more, or after `ms`. */
export async function repliesFinished(ms: number) {
  const deadline = Date.now() + ms
  while (running.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
  return running.size === 0
}
