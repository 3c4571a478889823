import type { ThreadSummary } from '../api'

export type ThreadGroup = { key: 'pinned' | 'today' | 'previous7Days' | 'older'; threads: ThreadSummary[] }

const DAY = 24 * 60 * 60 * 1000

/**
 * Pinned chats first (last pinned on top), then Today / Previous 7 days / Older by last activity,
 * in the viewer's time zone; empty groups left out.
 */
export function groupByActivity(threads: ThreadSummary[], now: Date): ThreadGroup[] {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime()
  const groups: ThreadGroup[] = [
    { key: 'pinned', threads: [] },
    { key: 'today', threads: [] },
    { key: 'previous7Days', threads: [] },
    { key: 'older', threads: [] },
  ]
  for (const thread of threads) {
    const at = new Date(thread.lastMessageAt).getTime()
    const group = thread.pinnedAt !== null ? groups[0] : at >= startOfToday ? groups[1] : at >= startOfToday - 7 * DAY ? groups[2] : groups[3]
    group!.threads.push(thread)
  }
  // The cached list is not always in order: a chat with new activity moves to its top, an unpinned
  // one stays where the pins were. Pins keep their own order, the others their activity's.
  groups[0]!.threads.sort((a, b) => b.pinnedAt!.localeCompare(a.pinnedAt!))
  for (const group of groups.slice(1)) group.threads.sort((a, b) => b.lastMessageAt.localeCompare(a.lastMessageAt))
  return groups.filter((g) => g.threads.length > 0)
}
