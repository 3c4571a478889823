import type { ThreadSummary } from '../api'

export type ThreadGroup = { key: 'today' | 'previous7Days' | 'older'; threads: ThreadSummary[] }

const DAY = 24 * 60 * 60 * 1000

/** Today / Previous 7 days / Older by last activity, in the viewer's time zone; empty groups left out. */
export function groupByActivity(threads: ThreadSummary[], now: Date): ThreadGroup[] {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime()
  const groups: ThreadGroup[] = [
    { key: 'today', threads: [] },
    { key: 'previous7Days', threads: [] },
    { key: 'older', threads: [] },
  ]
  for (const thread of threads) {
    const at = new Date(thread.lastMessageAt).getTime()
    const group = at >= startOfToday ? groups[0] : at >= startOfToday - 7 * DAY ? groups[1] : groups[2]
    group!.threads.push(thread)
  }
  return groups.filter((g) => g.threads.length > 0)
}
