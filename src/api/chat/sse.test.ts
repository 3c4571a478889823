import { describe, expect, test } from 'bun:test'
import { frameQueue, type ReplyEvent } from './sse'

/** The queue's writes as text, one entry per write. */
function recorder() {
  const writes: string[] = []
  const decoder = new TextDecoder()
  const queue = frameQueue((bytes) => writes.push(decoder.decode(bytes)))
  return { writes, queue }
}

const frames = (write: string) => write.split('\n\n').filter(Boolean)
const text = (delta: string): ReplyEvent => ({ event: 'text', data: { delta } })
const reasoning = (delta: string): ReplyEvent => ({ event: 'reasoning', data: { delta } })

describe('frameQueue', () => {
  test('deltas wait for flush and leave merged, one frame per run of the same kind, in one write', () => {
    const { writes, queue } = recorder()
    queue.push(reasoning('Think'))
    queue.push(reasoning('ing'))
    queue.push(text('Hel'))
    queue.push(text('lo'))
    queue.push(text(' world'))
    expect(writes).toEqual([])
    queue.flush()
    expect(writes).toHaveLength(1)
    expect(frames(writes[0]!)).toEqual([
      'event: reasoning\ndata: {"delta":"Thinking"}',
      'event: text\ndata: {"delta":"Hello world"}',
    ])
    queue.flush()
    expect(writes).toHaveLength(1)
  })

  test('any other event leaves at once, after the deltas that came before it', () => {
    const { writes, queue } = recorder()
    queue.push({ event: 'message_start', data: { threadId: 't1', userMessageId: 'u1', assistantMessageId: 'a1', model: 'm' } })
    expect(writes).toHaveLength(1)
    queue.push(text('a'))
    queue.push(text('"b"\n'))
    queue.push({ event: 'tool_call', data: { id: 'c1', name: 'internet_search', arguments: '{}' } })
    expect(writes).toHaveLength(2)
    expect(frames(writes[1]!)).toEqual([
      `event: text\ndata: ${JSON.stringify({ delta: 'a"b"\n' })}`,
      'event: tool_call\ndata: {"id":"c1","name":"internet_search","arguments":"{}"}',
    ])
  })

  test('a caller that never flushes still gets its deltas out within the turn', async () => {
    const { writes, queue } = recorder()
    queue.push(text('x'))
    queue.push(text('y'))
    // Timers run in the order they were set: the queue's backstop comes first.
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(writes).toEqual(['event: text\ndata: {"delta":"xy"}\n\n'])
  })
})
