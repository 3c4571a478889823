import { describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { countTimers } from '../../../tests/support/timers'
import type { AppDeps } from '../../lib/context'
import { LiveReply } from './reply-relay'
import { frameQueue, MAX_FRAME_CHARS, parsePositionId, positionId, REPLY_START, type ReplyEvent } from './sse'

/** The queue's writes as text, one entry per write. */
function recorder() {
  const writes: string[] = []
  const decoder = new TextDecoder()
  const queue = frameQueue((bytes) => void writes.push(decoder.decode(bytes)))
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
      'id: 0.8.0\nevent: reasoning\ndata: {"delta":"Thinking"}',
      'id: 11.8.0\nevent: text\ndata: {"delta":"Hello world"}',
    ])
    queue.flush()
    expect(writes).toHaveLength(1)
  })

  test('a long delta (a replay) leaves in frames of at most MAX_FRAME_CHARS, a few per write, each named by its position; no surrogate pair is cut', () => {
    const { writes, queue } = recorder()
    // 100,000 characters, a pair (🙂) in every seven: the cuts every MAX_FRAME_CHARS fall on each place of it, one of them inside it.
    const long = 'a🙂bcde'.repeat(15_000).slice(0, 100_000)
    queue.push(text('Hi '))
    queue.push(text(long))
    queue.push({ event: 'message_end', data: { status: 'complete' } })
    const all = writes.flatMap(frames)
    const deltas = all.filter((f) => f.includes('event: text')).map((f) => JSON.parse(f.split('data: ')[1]!).delta as string)
    expect(deltas.join('')).toBe(`Hi ${long}`)
    expect(deltas.length).toBeGreaterThan(6)
    for (const d of deltas) {
      expect(d.length).toBeLessThanOrEqual(MAX_FRAME_CHARS)
      // Neither half of a pair alone at a frame's edge.
      expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(d)).toBe(false)
    }
    // Each frame's id is the position after it.
    let at = 0
    for (const f of all.filter((x) => x.includes('event: text'))) {
      at += (JSON.parse(f.split('data: ')[1]!).delta as string).length
      expect(f.startsWith(`id: ${at}.0.0\n`)).toBe(true)
    }
    // Several writes, none much more than a few frames.
    expect(writes.length).toBeGreaterThan(1)
    for (const w of writes) expect(w.length).toBeLessThan(5 * MAX_FRAME_CHARS)
    expect(all.at(-1)).toBe(`id: ${at}.0.0\nevent: message_end\ndata: {"status":"complete"}`)
  })

  test('a flush whose long delta was written as it was framed says it wrote; a stream that takes no more gets nothing framed after', () => {
    const writes: number[] = []
    const queue = frameQueue((bytes) => void writes.push(bytes.length))
    // Four frames' worth: written inside the framing, nothing left for the flush itself.
    queue.push(text('w'.repeat(4 * MAX_FRAME_CHARS)))
    expect(queue.flush()).toBe(true)
    expect(writes).toHaveLength(1)

    let calls = 0
    const stops = frameQueue(() => ++calls < 2)
    stops.push(text('s'.repeat(40 * MAX_FRAME_CHARS)))
    stops.flush()
    expect(calls).toBe(2)
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
      `id: 5.0.0\nevent: text\ndata: ${JSON.stringify({ delta: 'a"b"\n' })}`,
      'id: 5.0.1\nevent: tool_call\ndata: {"id":"c1","name":"internet_search","arguments":"{}"}',
    ])
  })

  test('each frame is named by the position after it, counted from where the client already is', () => {
    const decoder = new TextDecoder()
    const writes: string[] = []
    const queue = frameQueue((bytes) => void writes.push(decoder.decode(bytes)), { content: 10, reasoning: 4, parts: 2 })
    queue.push({ event: 'usage', data: { inputTokens: 1, outputTokens: 2 } })
    queue.push(text('abc'))
    queue.push({ event: 'tool_result', data: { id: 'c1', name: 'internet_search', result: 'r', isError: false } })
    queue.push(reasoning('hm'))
    queue.flush()
    expect(writes.flatMap(frames).map((f) => f.split('\n')[0])).toEqual(['id: 10.4.2', 'id: 13.4.2', 'id: 13.4.3', 'id: 13.6.3'])
  })

  test('a position id reads back; anything else reads as the start', () => {
    expect(parsePositionId(positionId({ content: 12, reasoning: 3, parts: 1 }))).toEqual({ content: 12, reasoning: 3, parts: 1 })
    for (const garbage of [undefined, '', 'abc', '1.2', '-1.0.0', '1.2.3.4', '9'.repeat(20) + '.0.0', "1.0.0'; DROP TABLE"]) expect(parsePositionId(garbage)).toEqual(REPLY_START)
  })

  test('a caller that never flushes still gets its deltas out within the turn', async () => {
    const { writes, queue } = recorder()
    queue.push(text('x'))
    queue.push(text('y'))
    // Timers run in the order they were set: the queue's backstop comes first.
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(writes).toEqual(['id: 2.0.0\nevent: text\ndata: {"delta":"xy"}\n\n'])
  })

  test('together, the queues of a turn share one backstop: a queue that never flushes still gets its deltas out, one that flushed writes once', async () => {
    const decoder = new TextDecoder()
    const writes: string[][] = [[], []]
    const [idle, busy] = writes.map((w) => frameQueue((bytes) => void w.push(decoder.decode(bytes)), REPLY_START, true))
    const timers = countTimers(() => {
      idle!.push(text('x'))
      busy!.push(text('a'))
      idle!.push(text('y'))
    })
    expect(timers).toBe(1)
    busy!.flush()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(writes).toEqual([['id: 2.0.0\nevent: text\ndata: {"delta":"xy"}\n\n'], ['id: 1.0.0\nevent: text\ndata: {"delta":"a"}\n\n']])
  })
})

describe('LiveReply', () => {
  test('a flush that wrote lets the event loop turn before its caller reads on; one with nothing to write does not wait', async () => {
    const deps = { logger: { warn() {}, error() {} } } as unknown as AppDeps
    const start = { threadId: 't', userMessageId: null, assistantMessageId: 'a', model: 'm' }
    const live = new LiveReply(start, { content: '', reasoning: '', parts: [], inputTokens: null, outputTokens: null }, new AbortController())
    const reader = live.follow(deps, REPLY_START).getReader()
    live.send(text('Hel'))
    live.send(text('lo'))
    const turn = live.flush()
    expect(turn).toBeInstanceOf(Promise)
    // The write is in the client's stream already; the promise settles only after a turn of the loop.
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('id: 5.0.0\nevent: text\ndata: {"delta":"Hello"}\n\n')
    let settled = false
    void turn!.then(() => (settled = true))
    for (let i = 0; i < 10; i++) await Promise.resolve()
    expect(settled).toBe(false)
    // A second write in the same turn waits for the same turn.
    live.send(text('!'))
    expect(live.flush()).toBe(turn)
    await reader.read()
    await turn
    expect(live.flush()).toBeUndefined()
    live.end()
  })

  test('replies that may share a turn (the Bun server) wait for one turn together; on Workers each waits for its own', async () => {
    const deps = { logger: { warn() {}, error() {} } } as unknown as AppDeps
    const reply = (together: boolean) => {
      const live = new LiveReply({ threadId: 't', userMessageId: null, assistantMessageId: crypto.randomUUID(), model: 'm' }, { content: '', reasoning: '', parts: [], inputTokens: null, outputTokens: null }, new AbortController(), together)
      void live.follow(deps, REPLY_START).getReader().read()
      live.send(text('x'))
      return live
    }
    const [a, b] = [reply(true), reply(true)]
    const [c, d] = [reply(false), reply(false)]
    const shared = a.flush()
    expect(shared).toBeInstanceOf(Promise)
    expect(b.flush()).toBe(shared!)
    const own = c.flush()
    expect(own).toBeInstanceOf(Promise)
    expect(d.flush()).not.toBe(own!)
    await Promise.all([shared, own])
    for (const live of [a, b, c, d]) live.end()
  })

  test.each([
    ['each reply waiting for its own turn (Workers)', false],
    ['the replies of a turn waiting together (the Bun server)', true],
  ])('a flush that wrote settles once the write has left the process: a client in another process has it while the relay is still busy, %s', async (_, together) => {
    const deps = { logger: { warn() {}, error() {} }, writesTogether: together } as unknown as AppDeps
    const start = { threadId: 't', userMessageId: null, assistantMessageId: 'a', model: 'm' }
    const live = new LiveReply(start, { content: '', reasoning: '', parts: [], inputTokens: null, outputTokens: null }, new AbortController(), together)
    const dir = mkdtempSync(join(tmpdir(), 'kontor-relay-'))
    const seen = join(dir, 'seen')
    const connected = Promise.withResolvers<void>()
    const server = Bun.serve({
      port: 0,
      fetch: () => {
        connected.resolve()
        return new Response(live.follow(deps, REPLY_START), { headers: { 'content-type': 'text/event-stream' } })
      },
    })
    // The client, in a process of its own, notes in a file when the frame has reached it.
    const client = Bun.spawn(
      [process.execPath, '-e', `
        const reader = (await fetch('http://127.0.0.1:${server.port}/')).body.getReader()
        let text = ''
        while (!text.includes('Hello')) text += new TextDecoder().decode((await reader.read()).value)
        require('node:fs').writeFileSync(${JSON.stringify(seen)}, text)
        await reader.cancel()`],
      { stdout: 'ignore', stderr: 'inherit' },
    )
    try {
      await connected.promise
      // The server starts reading the reply's stream once its handler has returned.
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve))
      // The reply's first write (its start) went out; the next one is the one that counts.
      live.send(text('Hi. '))
      await live.flush()
      // As a provider's chunk comes: from the loop's I/O, here a timer's.
      await Bun.sleep(1)
      live.send(text('Hello'))
      await live.flush()
      // Busy as the relay is while a provider's next chunk is already buffered: the loop does no
      // I/O until the client has the frame (or for 20 s, which fails the test).
      const until = Date.now() + 20_000
      while (!existsSync(seen) && Date.now() < until) Bun.sleepSync(1)
      expect(existsSync(seen)).toBe(true)
    } finally {
      live.end()
      client.kill()
      await client.exited
      server.stop(true)
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
