import { expect, test } from 'bun:test'
import { keepOlderMessages, type Message, type ThreadDetail } from '../api'
import { isStreaming, localMessage, withoutLastReply, withoutLastUserTurn } from './thread-cache'

const m = (role: Message['role'], content: string, status: Message['status'] = 'complete') => ({ ...localMessage(role, content, status), id: content })

test('edit and resend drops the last user message and what followed it; regenerate only the last reply', () => {
  const messages = [m('user', 'q1'), m('assistant', 'a1'), m('user', 'q2'), m('assistant', 'a2', 'failed')]
  expect(withoutLastUserTurn(messages).map((x) => x.id)).toEqual(['q1', 'a1'])
  expect(withoutLastReply(messages).map((x) => x.id)).toEqual(['q1', 'a1', 'q2'])
  expect(withoutLastReply(messages.slice(0, 3)).map((x) => x.id)).toEqual(['q1', 'a1', 'q2'])
})

test('a thread streams while its last message does', () => {
  const thread = (messages: Message[]) => ({ messages }) as Parameters<typeof isStreaming>[0]
  expect(isStreaming(thread([m('user', 'q'), m('assistant', 'a', 'streaming')]))).toBe(true)
  expect(isStreaming(thread([m('user', 'q'), m('assistant', 'a', 'stopped')]))).toBe(false)
  expect(isStreaming(undefined)).toBe(false)
})

test('a re-read of the newest page keeps the older messages loaded in front of it, and their cursor', () => {
  const detail = (ids: string[], olderCursor: number | null) => ({ messages: ids.map((id) => m('user', id)), olderCursor }) as ThreadDetail
  const loaded = detail(['m1', 'm2', 'm3', 'm4', 'm5'], null)
  // The server's newest page after a reply: m3 onwards, with a cursor before m3.
  const reread = detail(['m3', 'm4', 'm5', 'm6'], 3)
  expect(keepOlderMessages(loaded, reread)).toMatchObject({ olderCursor: null })
  expect(keepOlderMessages(loaded, reread).messages.map((x) => x.id)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6'])
  // Nothing older was loaded, the page moved on past what was shown, or the whole chat came: the answer as it is.
  expect(keepOlderMessages(detail(['m3', 'm4'], 3), reread)).toBe(reread)
  expect(keepOlderMessages(detail(['m1', 'm2'], null), reread)).toBe(reread)
  const whole = detail(['m1', 'm2', 'm3'], null)
  expect(keepOlderMessages(loaded, whole)).toBe(whole)
  expect(keepOlderMessages(undefined, reread)).toBe(reread)
})
