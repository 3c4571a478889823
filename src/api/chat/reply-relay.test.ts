import { describe, expect, test } from 'bun:test'
import type { AppDeps } from '../../lib/context'
import { readSse } from '../../../tests/support/sse'
import { waitFor } from '../../../tests/support/wait-for'
import { MAX_UNREAD_BYTES, replySubscriber } from './reply-relay'
import { REPLY_START } from './sse'

/** What the subscriber takes from the app: a logger (its lines kept) and no turn shared with other replies. */
function fakeDeps() {
  const lines: string[] = []
  const log = (message: string) => void lines.push(message)
  const logger = { debug: log, info: log, warn: log, error: log, child: () => logger }
  return { deps: { logger, writesTogether: false } as unknown as AppDeps, lines }
}

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
    const text = events.filter((e) => e.event === 'text').map((e) => e.data.delta as string).join('')
    expect(text.length).toBeGreaterThan(MAX_UNREAD_BYTES)
    expect(text).not.toContain('later')
    expect(left).toBe(1)
  })

  test('that is not read to its end within the grace period is dropped, letting go of what waited', async () => {
    const { deps, lines } = fakeDeps()
    const { stream, subscriber } = replySubscriber(deps, REPLY_START, () => {}, 20)
    fillPastTheCap(subscriber)
    await waitFor(async () => lines.includes('client did not read its stopped stream, dropping it'), 10_000)
    await expect(readSse(new Response(stream))).rejects.toThrow('The client does not read the reply')
  })

  test('read within the grace period, is not dropped after it', async () => {
    const { deps, lines } = fakeDeps()
    const { stream, subscriber } = replySubscriber(deps, REPLY_START, () => {}, 3000)
    fillPastTheCap(subscriber)
    const events = await readSse(new Response(stream))
    expect(events.at(-1)!.event).toBe('stream_stopped')
    // Had the read not ended the grace, it would run out now (on a closed stream: nothing to see but the log line).
    await Bun.sleep(3500)
    expect(lines).not.toContain('client did not read its stopped stream, dropping it')
  })
})
