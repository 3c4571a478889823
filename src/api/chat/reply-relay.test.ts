import { describe, expect, test } from 'bun:test'
import type { AppDeps } from '../../lib/context'
import { readSse } from '../../../tests/support/sse'
import { manualInterval } from '../../../tests/support/timers'
import { until, waitFor } from '../../../tests/support/wait-for'
import { KEEP_ALIVE_MS, MAX_UNREAD_BYTES, replySubscriber } from './reply-relay'
import { MAX_FRAME_CHARS, REPLY_START } from './sse'

/** What the subscriber takes from the app: a logger (its lines kept) and no turn shared with other replies. */
function fakeDeps() {
  const lines: string[] = []
  const log = (message: string) => void lines.push(message)
  const logger = { debug: log, info: log, warn: log, error: log, child: () => logger }
  return { deps: { logger, writesTogether: false } as unknown as AppDeps, lines }
}

/** The text of a stream's events, joined. */
const textOf = (events: { event: string; data: any }[]) => events.filter((e) => e.event === 'text').map((e) => e.data.delta as string).join('')

/** Pushes text until the subscriber has stopped the stream (or far past the cap, which fails the test). */
function fillPastTheCap(subscriber: ReturnType<typeof replySubscriber>['subscriber']) {
  const delta = 'x'.repeat(64 * 1024)
  for (let i = 0; i < 64 && !subscriber.closed; i++) {
    subscriber.push({ event: 'text', data: { delta } })
    subscriber.flush()
  }
  expect(subscriber.closed).toBe(true)
}

describe('a client that leaves its reply unread', () => {
  test('has its stream stopped past the cap: what waited, then stream_stopped, then the end; the reply is left', async () => {
    const { deps } = fakeDeps()
    let left = 0
    const { stream, subscriber } = replySubscriber(deps, REPLY_START, () => left++)
    subscriber.push({ event: 'message_start', data: { threadId: 't', userMessageId: 'u', assistantMessageId: 'a', model: 'm' } })
    fillPastTheCap(subscriber)
    expect(left).toBe(1)
    // Pushed after the stop: not in this stream (the client gets it by attaching again).
    subscriber.push({ event: 'text', data: { delta: 'later' } })
    subscriber.push({ event: 'message_end', data: { status: 'complete' } })
    subscriber.close()

    const events = await readSse(new Response(stream))
    expect(events[0]!.event).toBe('message_start')
    expect(events.at(-1)).toEqual({ event: 'stream_stopped', data: { reason: 'unread' } })
    const text = textOf(events)
    expect(text.length).toBeGreaterThan(MAX_UNREAD_BYTES - 64 * 1024)
    expect(text).not.toContain('later')
    expect(left).toBe(1)
  })

  test('a replay of more than the cap in one push (attaching to a long reply) is stopped a write past the cap, not after all of it', async () => {
    const { deps } = fakeDeps()
    const { stream, subscriber } = replySubscriber(deps, REPLY_START, () => {})
    const whole = 'y'.repeat(2 * MAX_UNREAD_BYTES)
    subscriber.push({ event: 'text', data: { delta: whole } })
    subscriber.flush()
    expect(subscriber.closed).toBe(true)
    const events = await readSse(new Response(stream), { ids: true })
    expect(events.at(-1)!.event).toBe('stream_stopped')
    const text = textOf(events)
    expect(text.length).toBeGreaterThan(MAX_UNREAD_BYTES - 64 * 1024)
    expect(text.length).toBeLessThan(MAX_UNREAD_BYTES + 5 * MAX_FRAME_CHARS)
    // The last frame names where the client is: it attaches again from there.
    expect(events.findLast((e) => e.id !== undefined)!.id).toBe(`${text.length}.0.0`)
  })

  test('that is not read to its end within the grace period is dropped, letting go of what waited', async () => {
    const { deps, lines } = fakeDeps()
    const { stream, subscriber } = replySubscriber(deps, REPLY_START, () => {}, { graceMs: 20 })
    fillPastTheCap(subscriber)
    await waitFor(async () => lines.includes('client did not read its stopped stream, dropping it'), 10_000)
    await expect(readSse(new Response(stream))).rejects.toThrow('The client does not read the reply')
  })

  test('read within the grace period, is not dropped after it', async () => {
    const { deps, lines } = fakeDeps()
    const { stream, subscriber } = replySubscriber(deps, REPLY_START, () => {}, { graceMs: 3000 })
    fillPastTheCap(subscriber)
    const events = await readSse(new Response(stream))
    expect(events.at(-1)!.event).toBe('stream_stopped')
    // Had the read not ended the grace, it would run out now (on a closed stream: nothing to see but the log line).
    await Bun.sleep(3500)
    expect(lines).not.toContain('client did not read its stopped stream, dropping it')
  }, 30_000)

  test('through Bun\'s server to a client that stops reading: stopped once the socket is full and a megabyte waits, and the stream ends after stream_stopped when the client reads again', async () => {
    const { deps } = fakeDeps()
    let gone = false
    const { stream, subscriber } = replySubscriber(deps, REPLY_START, () => (gone = true))
    const asked = Promise.withResolvers<void>()
    // As the app's server runs: a stream may stay open for minutes.
    const server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      idleTimeout: 0,
      fetch: () => {
        asked.resolve()
        return new Response(stream, { headers: { 'content-type': 'text/event-stream' } })
      },
    })
    const received: Uint8Array[] = []
    const ended = Promise.withResolvers<void>()
    const client = await Bun.connect({
      hostname: '127.0.0.1',
      port: server.port!,
      socket: { data: (_s, chunk) => void received.push(new Uint8Array(chunk)), close: () => ended.resolve(), end: () => ended.resolve() },
    })
    try {
      client.write(`GET / HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`)
      client.pause()
      await asked.promise
      // Text as a fast model gives it, a turn of the event loop between chunks, until the stream is stopped.
      const delta = 'z'.repeat(16 * 1024)
      let pushed = 0
      while (!gone) {
        // The sockets' buffers on loopback hold a few megabytes; past that the stream must have been stopped.
        expect(pushed).toBeLessThan(32 * MAX_UNREAD_BYTES)
        subscriber.push({ event: 'text', data: { delta } })
        pushed += delta.length
        await (subscriber.flush(), new Promise((resolve) => setImmediate(resolve)))
      }
      // Some of it went into the sockets before a megabyte waited in the stream.
      expect(pushed).toBeGreaterThan(MAX_UNREAD_BYTES + 64 * 1024)
      client.resume()
      await ended.promise
      const answer = Buffer.concat(received).toString('latin1')
      // What the client got: all the text pushed, then stream_stopped, then the chunked body's end.
      expect(answer).toContain('event: stream_stopped\ndata: {"reason":"unread"}\n\n')
      expect(answer.endsWith('\r\n0\r\n\r\n')).toBe(true)
      expect(answer.lastIndexOf('event: text')).toBeLessThan(answer.indexOf('event: stream_stopped'))
      expect(answer.split('z').length - 1).toBe(pushed)
    } finally {
      client.end()
      server.stop(true)
    }
  }, 60_000)
})

describe('a stream that is silent', () => {
  /** A subscriber whose keep-alive runs when the test calls `tick`; `cleared`: whether it was stopped; `restore` puts the timers back. */
  function withManualKeepAlive(graceMs?: number) {
    const interval = manualInterval(KEEP_ALIVE_MS)
    try {
      return { ...replySubscriber(fakeDeps().deps, REPLY_START, () => {}, { graceMs }), ...interval }
    } catch (error) {
      interval.restore()
      throw error
    }
  }

  test('gets a keep-alive comment after a period without a write, none in a period with one, and its keep-alive ends with it', async () => {
    const s = withManualKeepAlive()
    try {
      s.tick() // nothing written: a comment
      s.subscriber.push({ event: 'text', data: { delta: 'Hello' } })
      s.subscriber.flush()
      s.tick() // written meanwhile: none
      s.tick() // silent since: a comment
      s.subscriber.push({ event: 'message_end', data: { status: 'complete' } })
      s.subscriber.close()
      expect(s.cleared()).toBe(true)
      const raw = await new Response(s.stream).text()
      expect(raw.split('\n\n').filter(Boolean).map((frame) => frame.split('\n').at(-1))).toEqual([': keep-alive', 'data: {"delta":"Hello"}', ': keep-alive', 'data: {"status":"complete"}'])
      // Readers of SSE skip comments: the client sees the reply's events only.
      expect((await readSse(new Response(raw))).map((e) => e.event)).toEqual(['text', 'message_end'])
    } finally {
      s.restore()
    }
  })

  test('stops its keep-alive when the client leaves or its stream is stopped', async () => {
    const left = withManualKeepAlive()
    try {
      await left.stream.cancel()
      expect(left.cleared()).toBe(true)
    } finally {
      left.restore()
    }
    const stopped = withManualKeepAlive(20)
    try {
      fillPastTheCap(stopped.subscriber)
      expect(stopped.cleared()).toBe(true)
      await stopped.stream.cancel() // lets go of what waited
    } finally {
      stopped.restore()
    }
  })

  test('gets its keep-alive on its own timer', async () => {
    const { stream } = replySubscriber(fakeDeps().deps, REPLY_START, () => {}, { keepAliveMs: 20 })
    const reader = stream.getReader()
    const decoder = new TextDecoder()
    let received = ''
    try {
      await until('a keep-alive comment', async () => {
        const { done, value } = await reader.read()
        if (done) throw new Error('the stream ended without a keep-alive')
        received += decoder.decode(value)
        return received.includes(': keep-alive\n\n')
      }, 10_000, 0)
    } finally {
      await reader.cancel()
    }
  }, 30_000)
})
