import { describe, expect, test } from 'bun:test'
import { FIRST_BATCH, MAX_BATCH, type SseMessage, sseBatches, type TakeMessage } from './sse'

/** A body that arrives in exactly these pieces (strings or raw bytes). */
function body(...pieces: Array<string | Uint8Array>) {
  const encoder = new TextEncoder()
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece)
      controller.close()
    },
  })
}

/** `n` frames whose data counts up from `from`. */
const frames = (from: number, n: number) => Array.from({ length: n }, (_, i) => `data: ${from + i}\n\n`).join('')

async function read(stream: ReadableStream<Uint8Array>, take?: TakeMessage) {
  const batches: SseMessage[][] = []
  for await (const batch of sseBatches(stream, take)) batches.push(batch)
  return batches
}

/** A `take` that takes data starting with `t` and notes, in order, what it took and each batch that followed. */
function taker() {
  const seen: string[] = []
  const take: TakeMessage = (event, text, start, end) => {
    const data = text.slice(start, end)
    if (!data.startsWith('t')) return false
    seen.push(`${event ?? ''}:${data}`)
    return true
  }
  return { seen, take }
}

describe('sseBatches', () => {
  test('yields the messages of each chunk together, with event names and joined data lines', async () => {
    const batches = await read(body('data: a\n\ndata: b\n\nevent: x\ndata: c1\ndata: c2\n\n', 'data: d\n\ndata:\n\ndata: e1\ndata:e2\ndata: e3\n\n'))
    expect(batches).toEqual([
      [
        { event: null, data: 'a' },
        { event: null, data: 'b' },
        { event: 'x', data: 'c1\nc2' },
      ],
      [
        { event: null, data: 'd' },
        { event: null, data: '' },
        { event: null, data: 'e1\ne2\ne3' },
      ],
    ])
  })

  test('a chunk of many messages is yielded in batches: FIRST_BATCH first, then at most MAX_BATCH, in order', async () => {
    // A fast provider's answer that piled up while it was not read: thousands of frames in one chunk.
    const count = FIRST_BATCH + 2 * MAX_BATCH + 5
    const batches = await read(body(frames(0, count), frames(count, 3)))
    expect(batches.map((b) => b.length)).toEqual([FIRST_BATCH, MAX_BATCH, MAX_BATCH, 5, 3])
    expect(batches.flat().map((m) => m.data)).toEqual(Array.from({ length: count + 3 }, (_, i) => String(i)))
  })

  test('small chunks before it leave the first batch small; after the first cut, batches are large', async () => {
    // A provider's role or preamble chunk often comes alone; the piled-up text after it still starts small.
    const batches = await read(body(frames(0, 2), frames(2, FIRST_BATCH + MAX_BATCH + 1), frames(0, FIRST_BATCH + 1)))
    expect(batches.map((b) => b.length)).toEqual([2, FIRST_BATCH, MAX_BATCH, 1, FIRST_BATCH + 1])
  })

  test('frames, lines and characters split across chunks are put back together', async () => {
    const euro = new TextEncoder().encode('data: 1€\n\n')
    const batches = await read(body('da', 'ta: hel', 'lo\n', '\ndata: x\r', '\n\r\n', euro.slice(0, 8), euro.slice(8), 'data: a1\n', 'data: a2\n', 'data: a3\n\n'))
    expect(batches.flat()).toEqual([
      { event: null, data: 'hello' },
      { event: null, data: 'x' },
      { event: null, data: '1€' },
      // Data lines of one message in different chunks.
      { event: null, data: 'a1\na2\na3' },
    ])
  })

  test('CR, CRLF and LF line ends; comments, ids, retries and messages without data are skipped', async () => {
    const batches = await read(body(': keep-alive\r\nid: 7\rretry: 10\r\nevent: ping\n\ndata:tight\r\rdata: two\r\n\r\n'))
    expect(batches.flat()).toEqual([
      { event: null, data: 'tight' },
      { event: null, data: 'two' },
    ])
  })

  test("a field's name alone is that field with an empty value; an empty event name leaves the message unnamed", async () => {
    const batches = await read(body('data\n\ndata: a\ndata\ndata: b\n\nevent:\ndata: c\n\nevent: x\nevent\ndata: d\n\n', 'event: y\nevent: \ndata\r\n\r\ndataX: 1\nevents: z\ndata: e\n\ndatum\n\n'))
    expect(batches.flat()).toEqual([
      { event: null, data: '' },
      { event: null, data: 'a\n\nb' },
      { event: null, data: 'c' },
      { event: null, data: 'd' },
      { event: null, data: '' },
      // Other fields that start like these are unknown fields: ignored.
      { event: null, data: 'e' },
    ])
    // Offered to an adapter, too: a bare data line in place, an empty event name as none.
    const offered: string[] = []
    await read(body('event: \ndata: t1\n\nevent: n\ndata\n\nevent\ndata: t2\n\n'), (event, text, start, end) => (offered.push(`${event === null ? '(none)' : event}:${text.slice(start, end) || '(empty)'}`), true))
    expect(offered).toEqual(['(none):t1', 'n:(empty)', '(none):t2'])
  })

  test('a field name alone split across chunks reads as it does in one', async () => {
    const batches = await read(body('data', '\n\n', 'data\n', '\n', 'event\n', 'data: x\n\n', 'data\r', '\n\r\n', 'event:', '\ndata: y\n', '\n'))
    expect(batches.flat()).toEqual([
      { event: null, data: '' },
      { event: null, data: '' },
      { event: null, data: 'x' },
      { event: null, data: '' },
      { event: null, data: 'y' },
    ])
  })

  test('with take: messages are offered in order while the batch is empty; the rest of the chunk then goes into the batch', async () => {
    const { seen, take } = taker()
    const batches: string[][] = []
    const stream = body('data: t1\n\nevent: x\ndata: t2\n\ndata: u3\n\ndata: t4\n\n', 'data: t5\r\n\r\ndata: m1\ndata: m2\n\n', 'data: t6\r\r')
    for await (const batch of sseBatches(stream, take)) batches.push([...seen.splice(0), ...batch.map((m) => `batch ${m.event ?? ''}:${m.data}`)])
    expect(batches).toEqual([
      [':t1', 'x:t2', 'batch :u3', 'batch :t4'],
      // A message of several data lines is never offered; it still goes in order. CR and CRLF end lines as LF does.
      [':t5', 'batch :m1\nm2'],
      [':t6'],
    ])
  })

  test('with take: taken messages count towards the batch size, and a batch of only taken messages is yielded empty', async () => {
    const { seen, take } = taker()
    const sizes: Array<[number, number]> = []
    const count = FIRST_BATCH + MAX_BATCH + 3
    const stream = body(Array.from({ length: count }, (_, i) => `data: t${i}\n\n`).join(''))
    for await (const batch of sseBatches(stream, take)) sizes.push([seen.splice(0).length, batch.length])
    expect(sizes).toEqual([[FIRST_BATCH, 0], [MAX_BATCH, 0], [3, 0]])
  })

  test('with take: a message whose data line came in an earlier chunk is offered as its own text', async () => {
    const offered: Array<[string, number, number]> = []
    const take: TakeMessage = (_event, text, start, end) => (offered.push([text, start, end]), true)
    const batches = await read(body('data: t1\n\ndata: t2\n', '\ndata: t3\n\n'), take)
    // Each chunk's messages were all taken: two empty batches, one per chunk.
    expect(batches).toEqual([[], []])
    expect(offered.map(([text, start, end]) => text.slice(start, end))).toEqual(['t1', 't2', 't3'])
    // The split one is its own string, not the first chunk's text.
    expect(offered[1]).toEqual(['t2', 0, 2])
  })

  test('an unfinished last message is dropped', async () => {
    expect((await read(body('data: whole\n\ndata: {"half'))).flat()).toEqual([{ event: null, data: 'whole' }])
  })

  test('stopping early cancels the body', async () => {
    let cancelled = false
    const stream = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new TextEncoder().encode('data: more\n\n')),
      cancel: () => void (cancelled = true),
    })
    for await (const _ of sseBatches(stream)) break
    expect(cancelled).toBe(true)
  })

  test('a body that breaks is a lost connection, which may be retried', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: a\n\n'))
        controller.error(new TypeError('socket closed'))
      },
    })
    const error = await read(stream).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', retryable: true })
  })
})
