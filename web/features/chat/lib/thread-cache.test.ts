import { expect, test } from 'bun:test'
import type { Message } from '../api'
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
