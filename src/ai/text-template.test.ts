import { describe, expect, spyOn, test } from 'bun:test'
import { heapStats } from 'bun:jsc'
import { ChunkEvents, TextTemplate } from './text-template'

/** As the OpenAI adapter decides: a chunk whose choice carries only `content`. */
const textOnly = (value: unknown) => {
  const chunk = value as { usage?: unknown; choices?: { delta?: { content?: unknown; tool_calls?: unknown[] }; finish_reason?: unknown }[] } | null
  const choice = chunk?.choices?.[0]
  if (!choice || chunk?.usage || choice.finish_reason || choice.delta?.tool_calls?.length) return undefined
  return typeof choice.delta?.content === 'string' ? choice.delta.content : undefined
}

const event = (content: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1', ...extra, choices: [{ index: 0, delta: { content }, finish_reason: null }] })

/** A template that learned `first`, as an adapter teaches it: after parsing it in full. */
function learned(first = event('Hello')) {
  const template = new TextTemplate('content', textOnly)
  expect(template.read(first)).toBeUndefined()
  template.learn(first, JSON.parse(first))
  return template
}

describe('TextTemplate', () => {
  test('reads the text of an event that differs from the learned one only in its text, whatever the text holds', () => {
    const template = learned()
    for (const text of ['', ' world', 'a "quoted" word', 'back\\slash', 'line\nbreak\ttab', 'ümlaut é 😀', '\u2028', '}]}', '","x":"'])
      expect(template.read(event(text))).toBe(text)
    // Escapes as a provider may write them, not as JSON.stringify does.
    expect(template.read(event('x').replace('"x"', '"\\u00e9\\/"'))).toBe('é/')
  })

  test('anything else is not read, so the caller parses it in full', () => {
    const template = learned()
    // Another field changed, the end, a tool call, usage.
    expect(template.read(event('a', { created: 2 }))).toBeUndefined()
    expect(template.read(event('a').replace('"finish_reason":null', '"finish_reason":"stop"'))).toBeUndefined()
    expect(template.read(JSON.stringify({ id: 'chatcmpl-1', choices: [{ index: 0, delta: { tool_calls: [{ index: 0 }] } }] }))).toBeUndefined()
    expect(template.read(`${event('a').slice(0, -1)},"usage":{"prompt_tokens":1}}`)).toBeUndefined()
    // Between the learned parts, more than one string: a field slipped in, or not a string at all.
    for (const value of ['"a","role":"tool"', '"a"}],"usage":{"x":1},"z":[{"q":"b"', '1', 'null', '{"a":1}', '["a"]', '"unterminated', '"a" "b"'])
      expect(template.read(event('__').replace('"__"', value))).toBeUndefined()
    expect(template.read('[DONE]')).toBeUndefined()
    expect(template.read('')).toBeUndefined()
    // Escaped, a control character is read; raw, it is not JSON, in a token read as it stands as in one parsed.
    expect(template.read(event('__').replace('"__"', '"a\\nb"'))).toBe('a\nb')
    for (const raw of ['"a\nb"', '"a\tb"', '"\u0000"', '"\\u00e9\n"'])
      expect(template.read(event('__').replace('"__"', raw))).toBeUndefined()
  })

  test('learns only an event that is only text, and finds the text where the name appears elsewhere too', () => {
    const template = new TextTemplate('content', textOnly)
    const end = JSON.stringify({ choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }] })
    template.learn(end, JSON.parse(end))
    expect(template.read(end.replace('"x"', '"y"'))).toBeUndefined()

    // "content": inside a string and as another object's key come before the text's own place.
    const tricky = JSON.stringify({ note: '{"content":"no"}', meta: { content: 'no' }, choices: [{ delta: { content: 'yes' } }] })
    template.learn(tricky, JSON.parse(tricky))
    expect(template.read(tricky.replace('"yes"', '"other"'))).toBe('other')
    expect(template.read(tricky.replace('"no"}', '"changed"}'))).toBeUndefined()
  })

  test('an ignored field without escapes is only checked, not parsed: one parse per event, for its text', () => {
    const template = new TextTemplate('content', textOnly, ['obfuscation'])
    const padded = (content: string, obfuscation: string) => `${event(content).slice(0, -1)},"obfuscation":${JSON.stringify(obfuscation)}}`
    template.learn(padded('Hello', 'x1'), JSON.parse(padded('Hello', 'x1')))
    const parse = spyOn(JSON, 'parse')
    try {
      for (const text of [' world', 'ümlaut 😀', '\u007f', '']) expect(template.read(padded(text, 'Zq8'))).toBe(text)
      expect(parse).toHaveBeenCalledTimes(4)
      // An escape in it: the ignored field is parsed too.
      expect(template.read(padded('a', 'Z\n'))).toBe('a')
      expect(parse).toHaveBeenCalledTimes(6)
      // An escape JSON does not know is no string token, here as in a parsed event.
      expect(template.read(padded('x', 'Zq8').replace('"Zq8"', '"Z\\q"'))).toBeUndefined()
    } finally {
      parse.mockRestore()
    }
  })

  test('a chunk\'s tokens without escapes are not parsed one by one: a run of them is joined, a run of one is parsed once, a token with an escape on its own', () => {
    const template = learned()
    const events = new ChunkEvents()
    const parse = spyOn(JSON, 'parse')
    try {
      for (const text of ['a', ' b', ' c']) expect(template.readInto(event(text), events)).toBe(true)
      expect(events.take()).toEqual([{ type: 'text', delta: 'a b c' }])
      expect(parse).toHaveBeenCalledTimes(0)
      expect(template.readInto(event('d'), events)).toBe(true)
      expect(events.take()).toEqual([{ type: 'text', delta: 'd' }])
      expect(parse).toHaveBeenCalledTimes(1)
      for (const text of ['e', 'f\n', 'g', 'h']) expect(template.readInto(event(text), events)).toBe(true)
      expect(events.take()).toEqual([{ type: 'text', delta: 'ef\ngh' }])
      // The escaped token, then the run of one before it; the run after it is joined.
      expect(parse).toHaveBeenCalledTimes(3)
    } finally {
      parse.mockRestore()
    }
  })

  test('a provider whose events differ in more than the text each time: learning stops after a few tries', () => {
    const template = new TextTemplate('content', textOnly)
    for (let i = 0; i < 20; i++) {
      const data = event(`t${i}`, { created: i })
      expect(template.read(data)).toBeUndefined()
      template.learn(data, JSON.parse(data))
    }
    // The fourth event was the last one learned.
    expect(template.read(event('probe', { created: 3 }))).toBe('probe')
    expect(template.read(event('probe', { created: 19 }))).toBeUndefined()
  })

  test('a match in between gives the template its tries again', () => {
    const template = learned()
    for (let i = 0; i < 3; i++) template.learn(event(`t${i}`, { created: 10 + i }), JSON.parse(event(`t${i}`, { created: 10 + i })))
    expect(template.read(event('a', { created: 12 }))).toBe('a')
    for (let i = 0; i < 3; i++) template.learn(event(`u${i}`, { created: 20 + i }), JSON.parse(event(`u${i}`, { created: 20 + i })))
    expect(template.read(event('b', { created: 22 }))).toBe('b')
  })
})

describe('TextTemplate with fields the adapter ignores', () => {
  const padded = (content: string, obfuscation: string) => `${event(content).slice(0, -1)},"obfuscation":${JSON.stringify(obfuscation)}}`

  test('an ignored field may differ in every event (OpenAI pads each with random characters)', () => {
    const template = new TextTemplate('content', textOnly, ['obfuscation'])
    const first = padded('Hello', 'x1')
    template.learn(first, JSON.parse(first))
    expect(template.read(padded(' world', 'abcdefgh'))).toBe(' world')
    expect(template.read(padded('', ''))).toBe('')
    expect(template.read(padded('"}', '\\"'))).toBe('"}')
    // Still one string token each: anything else there is parsed in full.
    expect(template.read(padded('a', 'b').replace('"b"', '1'))).toBeUndefined()
    expect(template.read(padded('a', 'b').replace('"b"', '"b","role":"tool"'))).toBeUndefined()
    expect(template.read(padded('a', 'b').replace('"a"', '"a","x":"y"'))).toBeUndefined()
    expect(template.read(padded('a', 'b').replace('"b"', '"b\\u0001"'))).toBe('a')
    expect(template.read(padded('a', 'b').replace('"b"', '"b\u0001"'))).toBeUndefined()
    expect(template.read(padded('a', 'b').replace('"b"', '"b\\q"'))).toBeUndefined()
    expect(template.read(event('a'))).toBeUndefined()
    // Without being told, the template never matches such a provider.
    const strict = new TextTemplate('content', textOnly)
    strict.learn(first, JSON.parse(first))
    expect(strict.read(padded(' world', 'abcdefgh'))).toBeUndefined()
  })

  test('JSON with white space after colons and commas is learned too', () => {
    const spaced = (content: string) => JSON.stringify(JSON.parse(event(content)), null, 1).replace(/\n/g, '')
    const template = new TextTemplate('content', textOnly)
    template.learn(spaced('Hi'), JSON.parse(spaced('Hi')))
    expect(template.read(spaced('there'))).toBe('there')
  })
})

describe('ChunkEvents', () => {
  test('a text taken from a chunk keeps nothing of the chunk alive: a reply holds its text, not its network chunks', () => {
    const template = learned()
    const [encoder, decoder] = [new TextEncoder(), new TextDecoder()]
    const kept: string[] = []
    const heapBefore = () => (Bun.gc(true), heapStats().heapSize)
    const before = heapBefore()
    for (let i = 0; i < 500; i++) {
      // A network chunk of 20 KB whose last event is a token of text, decoded as the SSE reader decodes it.
      const chunk = decoder.decode(encoder.encode(`${'x'.repeat(20_000)}\n\n${event(`tok${i}`)}\n\n`))
      const events = new ChunkEvents()
      expect(template.readInto(chunk.slice(20_002, -2), events)).toBe(true)
      for (const e of events.take()) kept.push((e as { delta: string }).delta)
    }
    // Held as slices, the 500 texts would keep 10 MB of chunks alive.
    expect(heapBefore() - before).toBeLessThan(2_000_000)
    expect(kept.at(-1)).toBe('tok499')
  })

  test('the texts of a chunk\'s events read by the template become one text of their own, in order with escaped ones and other events; it keeps nothing of the chunk alive', () => {
    const template = learned()
    const [encoder, decoder] = [new TextEncoder(), new TextDecoder()]
    const read = (events: ChunkEvents, data: string) => expect(template.readInto(data, events)).toBe(true)
    // Tokens as they stand between their quotes, a token with escapes parsed, and other events in between.
    const events = new ChunkEvents()
    for (const text of ['Hel', 'lo', ' wörld 😀']) read(events, event(text))
    read(events, event('a "quote"\n'))
    read(events, event('!'))
    events.delta('reasoning', 'hm')
    read(events, event(''))
    read(events, event('x'))
    read(events, event('y'))
    events.push({ type: 'tool_call', id: 'c1', name: 'lookup', arguments: '{}' })
    read(events, event('z'))
    expect(events.take()).toEqual([
      { type: 'text', delta: 'Hello wörld 😀a "quote"\n!' },
      { type: 'reasoning', delta: 'hm' },
      { type: 'text', delta: 'xy' },
      { type: 'tool_call', id: 'c1', name: 'lookup', arguments: '{}' },
      { type: 'text', delta: 'z' },
    ])
    expect(events.take()).toEqual([])

    const kept: string[] = []
    const heapBefore = () => (Bun.gc(true), heapStats().heapSize)
    const before = heapBefore()
    for (let i = 0; i < 500; i++) {
      // A network chunk of 20 KB that ends in three tokens of text, decoded as the SSE reader decodes it.
      const tokens = [`a${i}`, ` b${i}`, ` c${i}`]
      const chunk = decoder.decode(encoder.encode(`${'x'.repeat(20_000)}\n\n${tokens.map((t) => `${event(t)}\n\n`).join('')}`))
      const lines = chunk.slice(20_002).split('\n\n').filter(Boolean)
      const events = new ChunkEvents()
      for (const line of lines) read(events, line)
      for (const e of events.take()) kept.push((e as { delta: string }).delta)
    }
    // Held as slices, the 500 texts would keep 10 MB of chunks alive.
    expect(heapBefore() - before).toBeLessThan(2_000_000)
    expect(kept.at(-1)).toBe('a499 b499 c499')
  })

  test('readRange reads an event where it stands in a chunk\'s text, only within its range; it keeps nothing of the chunk alive', () => {
    const template = learned()
    const events = new ChunkEvents()
    const chunk = `: comment\n\ndata: ${event('Hel')}\n\ndata: ${event('lo')}\n\n`
    const ranges: Array<[number, number]> = []
    for (let from = chunk.indexOf('data: '); from !== -1; from = chunk.indexOf('data: ', from + 1)) ranges.push([from + 6, chunk.indexOf('\n', from)])
    for (const [from, to] of ranges) expect(template.readRange(chunk, from, to, events)).toBe(true)
    expect(events.take()).toEqual([{ type: 'text', delta: 'Hello' }])
    const [from, to] = ranges[0]!
    // Cut short, run on into the next line, or started elsewhere: not the learned event.
    for (const [a, b] of [[from, to - 1], [from, to + 1], [from, to - 3], [from + 1, to], [from - 1, to]] as const)
      expect(template.readRange(chunk, a, b, events)).toBe(false)
    expect(events.take()).toEqual([])

    const [encoder, decoder] = [new TextEncoder(), new TextDecoder()]
    const kept: string[] = []
    const heapBefore = () => (Bun.gc(true), heapStats().heapSize)
    const before = heapBefore()
    for (let i = 0; i < 500; i++) {
      // A network chunk of 20 KB that ends in three tokens of text (every other one in one token:
      // a run of one), read where they stand, as the SSE reader offers them.
      const tokens = i % 2 ? [`a${i}`] : [`a${i}`, ` b${i}`, ` c${i}`]
      const text = decoder.decode(encoder.encode(`${'x'.repeat(20_000)}\n\n${tokens.map((t) => `data: ${event(t)}\n\n`).join('')}`))
      const events = new ChunkEvents()
      for (let at = text.indexOf('data: '); at !== -1; at = text.indexOf('data: ', at + 1)) expect(template.readRange(text, at + 6, text.indexOf('\n', at), events)).toBe(true)
      for (const e of events.take()) kept.push((e as { delta: string }).delta)
    }
    // Held as slices, the 500 texts would keep 10 MB of chunks alive.
    expect(heapBefore() - before).toBeLessThan(2_000_000)
    expect(kept.slice(-2)).toEqual(['a498 b498 c498', 'a499'])
  })

  test('consecutive deltas of one kind become one event; order across kinds and other events is kept', () => {
    const events = new ChunkEvents()
    events.delta('reasoning', 'Think')
    events.delta('reasoning', 'ing.')
    events.delta('text', 'Hel')
    events.delta('text', 'lo')
    events.push({ type: 'tool_call', id: 'c1', name: 'lookup', arguments: '{}' })
    events.delta('text', '!')
    expect(events.take()).toEqual([
      { type: 'reasoning', delta: 'Thinking.' },
      { type: 'text', delta: 'Hello' },
      { type: 'tool_call', id: 'c1', name: 'lookup', arguments: '{}' },
      { type: 'text', delta: '!' },
    ])
    expect(events.take()).toEqual([])
    events.delta('text', 'again')
    expect(events.take()).toEqual([{ type: 'text', delta: 'again' }])
  })
})
