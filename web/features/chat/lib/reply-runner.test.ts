import { describe, expect, test } from 'bun:test'
import { QueryClient } from '@tanstack/react-query'
import { threadDetailKey, type ThreadDetail } from '../api'
import { followReply, runReply, stopReply } from './reply-runner'

const encoder = new TextEncoder()
const frame = (id: string, event: string, data: unknown) => encoder.encode(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
const start = frame('0.0.0', 'message_start', { threadId: 't1', userMessageId: 'u1', assistantMessageId: 'a1', model: 'm' })

/** A body that sends `chunks` and then either ends or breaks off like a dropped connection. */
function body(chunks: Uint8Array[], breaks = false) {
  const left = [...chunks]
  return new ReadableStream<Uint8Array>({
    // One chunk a read, so that a break comes after what was read (an error drops what waits).
    pull(controller) {
      const next = left.shift()
      if (next) controller.enqueue(next)
      else if (breaks) controller.error(new TypeError('network error'))
      else controller.close()
    },
  })
}

function cacheWith(messages: ThreadDetail['messages'] = []) {
  const queryClient = new QueryClient()
  queryClient.setQueryData(threadDetailKey('t1'), { id: 't1', title: 'T', messages, model: null } as unknown as ThreadDetail)
  const reply = () => queryClient.getQueryData<ThreadDetail>(threadDetailKey('t1'))!.messages.at(-1)!
  return { queryClient, reply }
}

type Call = { url: string; method: string; lastEventId: string | null }
function server(answers: ((call: Call) => Response)[]) {
  const calls: Call[] = []
  const fetcher = (async (url: string, init: RequestInit = {}) => {
    const call = { url, method: init.method ?? 'GET', lastEventId: new Headers(init.headers).get('last-event-id') }
    calls.push(call)
    return answers.shift()!(call)
  }) as unknown as typeof fetch
  return { calls, fetcher }
}

describe('the reply runner', () => {
  test('a stream that breaks off is attached again from its last event id: the text has no gap and no repeat', async () => {
    const { queryClient, reply } = cacheWith()
    const { calls, fetcher } = server([
      () => new Response(body([start, frame('3.0.0', 'text', { delta: 'Hel' })], true)),
      () => new Response(body([start, frame('5.0.0', 'text', { delta: 'lo' }), frame('5.0.0', 'message_end', { status: 'complete' })])),
    ])
    const outcome = await runReply({ queryClient, request: { kind: 'send', threadId: 't1', content: 'hi' }, fetcher })
    expect(outcome).toEqual({ ok: true })
    expect(reply()).toMatchObject({ id: 'a1', content: 'Hello', status: 'complete' })
    expect(calls.map((c) => [c.method, c.url, c.lastEventId])).toEqual([
      ['POST', '/api/threads/t1/messages', null],
      ['GET', '/api/threads/t1/messages/a1/stream', '3.0.0'],
    ])
  })

  const stopped = encoder.encode(`event: stream_stopped\ndata: ${JSON.stringify({ reason: 'unread' })}\n\n`)
  // Attached at a position, the server's message_start names it.
  const startAt = (id: string) => frame(id, 'message_start', { threadId: 't1', userMessageId: null, assistantMessageId: 'a1', model: 'm' })

  test('a stream the server stopped (left unread) is attached again from its last event id, however often, while each stop brought more', async () => {
    const { queryClient, reply } = cacheWith()
    // Five stops in a row, each after a new frame: each attached again at once (a retry's pause would be 300 ms or more).
    const { calls, fetcher } = server([
      () => new Response(body([start, frame('1.0.0', 'text', { delta: 'H' }), stopped])),
      ...[2, 3, 4, 5].map((n) => () => new Response(body([startAt(`${n - 1}.0.0`), frame(`${n}.0.0`, 'text', { delta: 'Hello'[n - 1]! }), stopped]))),
      () => new Response(body([startAt('5.0.0'), frame('5.0.0', 'message_end', { status: 'complete' })])),
    ])
    const pauses: number[] = []
    const { setTimeout: realSetTimeout } = globalThis
    globalThis.setTimeout = Object.assign((fn: () => void, ms?: number) => {
      pauses.push(ms ?? 0)
      return realSetTimeout(fn, ms)
    }, realSetTimeout) as typeof setTimeout
    let outcome
    try {
      outcome = await runReply({ queryClient, request: { kind: 'send', threadId: 't1', content: 'hi' }, fetcher })
    } finally {
      globalThis.setTimeout = realSetTimeout
    }
    expect(outcome).toEqual({ ok: true })
    expect(reply()).toMatchObject({ id: 'a1', content: 'Hello', status: 'complete' })
    expect(calls.map((c) => c.lastEventId)).toEqual([null, '1.0.0', '2.0.0', '3.0.0', '4.0.0', '5.0.0'])
    expect(pauses.filter((ms) => ms >= 300)).toEqual([])
  })

  test('stops that bring nothing new count as failures: after the last retry the reply is given up, shown interrupted', async () => {
    const { queryClient, reply } = cacheWith()
    const { calls, fetcher } = server([
      () => new Response(body([start, frame('3.0.0', 'text', { delta: 'Hel' }), stopped])),
      ...Array.from({ length: 4 }, () => () => new Response(body([startAt('3.0.0'), stopped]))),
    ])
    await runReply({ queryClient, request: { kind: 'send', threadId: 't1', content: 'hi' }, fetcher })
    expect(reply()).toMatchObject({ content: 'Hel', status: 'interrupted' })
    // At once after the stop that brought text, then once per retry.
    expect(calls.map((c) => c.lastEventId)).toEqual([null, '3.0.0', '3.0.0', '3.0.0', '3.0.0'])
  }, 30_000)

  test('a reply the server no longer has is given up, shown interrupted', async () => {
    const { queryClient, reply } = cacheWith()
    const gone = () => Response.json({ code: 'MESSAGE_NOT_FOUND', message: 'Message not found', status: 404 }, { status: 404 })
    const { calls, fetcher } = server([() => new Response(body([start, frame('3.0.0', 'text', { delta: 'Hel' })], true)), gone])
    await runReply({ queryClient, request: { kind: 'send', threadId: 't1', content: 'hi' }, fetcher })
    expect(reply()).toMatchObject({ content: 'Hel', status: 'interrupted' })
    expect(calls).toHaveLength(2)
  })

  test('a reply this tab did not start is followed from what the page shows, and Stop asks the server', async () => {
    const shown = { id: 'a1', role: 'assistant', content: 'Hel', reasoning: '', parts: [], status: 'streaming', errorCode: null, model: 'm', usage: null, createdAt: '', parentId: null, siblingIds: [] }
    const { queryClient, reply } = cacheWith([shown] as unknown as ThreadDetail['messages'])
    let release!: () => void
    const { calls, fetcher } = server([
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(frame('3.0.0', 'message_start', { threadId: 't1', userMessageId: null, assistantMessageId: 'a1', model: 'm' }))
              controller.enqueue(frame('4.0.0', 'text', { delta: 'l' }))
              release = () => {
                controller.enqueue(frame('4.0.0', 'message_end', { status: 'stopped' }))
                controller.close()
              }
            },
          }),
        ),
      () => {
        release()
        return new Response(null, { status: 204 })
      },
    ])
    const following = followReply({ queryClient, threadId: 't1', messageId: 'a1', fetcher })
    while (calls.length === 0) await Bun.sleep(1)
    stopReply('t1')
    await following
    expect(reply()).toMatchObject({ content: 'Hell', status: 'stopped' })
    expect(calls.map((c) => [c.method, c.url, c.lastEventId])).toEqual([
      ['GET', '/api/threads/t1/messages/a1/stream', '3.0.0'],
      ['POST', '/api/threads/t1/messages/a1/stop', null],
    ])
  })
})
