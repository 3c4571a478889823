import { expect, test } from 'bun:test'
import type { ThreadSummary } from '../api'
import { groupByActivity } from './group-threads'

const thread = (id: string, lastMessageAt: Date): ThreadSummary => ({
  pinnedAt: null,
  id,
  title: null,
  modelId: null,
  agentId: null,
  createdAt: lastMessageAt.toISOString(),
  lastMessageAt: lastMessageAt.toISOString(),
})

test('chats fall into Today, Previous 7 days and Older by their last activity, keeping their order', () => {
  const now = new Date(2026, 10, 20, 9, 30)
  const groups = groupByActivity(
    [
      thread('a', new Date(2026, 10, 20, 9, 0)),
      thread('b', new Date(2026, 10, 20, 0, 5)),
      thread('c', new Date(2026, 10, 19, 23, 59)),
      thread('d', new Date(2026, 10, 13, 0, 0)),
      thread('e', new Date(2026, 10, 12, 23, 59)),
    ],
    now,
  )
  expect(groups.map((g) => [g.key, g.threads.map((t) => t.id)])).toEqual([
    ['today', ['a', 'b']],
    ['previous7Days', ['c', 'd']],
    ['older', ['e']],
  ])
  expect(groupByActivity([thread('x', new Date(2020, 0, 1))], now).map((g) => g.key)).toEqual(['older'])
})

test('pinned chats lead, last pinned first, whatever their activity', () => {
  const now = new Date(2026, 10, 20, 9, 30)
  const pinned = (id: string, lastMessageAt: Date, pinnedAt: Date) => ({ ...thread(id, lastMessageAt), pinnedAt: pinnedAt.toISOString() })
  const groups = groupByActivity(
    [
      pinned('p1', new Date(2026, 10, 20, 9, 0), new Date(2026, 10, 1)),
      thread('a', new Date(2026, 10, 20, 8, 0)),
      pinned('p2', new Date(2020, 0, 1), new Date(2026, 10, 2)),
    ],
    now,
  )
  expect(groups.map((g) => [g.key, g.threads.map((t) => t.id)])).toEqual([
    ['pinned', ['p2', 'p1']],
    ['today', ['a']],
  ])
})

test('a chat just unpinned goes back to its place by activity', () => {
  const now = new Date(2026, 10, 20, 9, 30)
  const groups = groupByActivity([thread('old', new Date(2026, 10, 20, 7, 0)), thread('new', new Date(2026, 10, 20, 9, 0))], now)
  expect(groups.map((g) => g.threads.map((t) => t.id))).toEqual([['new', 'old']])
})
