import type { StreamEvent } from './types'

/**
 * Reads the text of a streamed event without parsing the whole event. A provider streams a reply
 * as thousands of events that differ in one string only, e.g. OpenAI's
 * `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4.1","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}`.
 * `JSON.parse` of each built every field's object anew; most of the cost of relaying a fast reply
 * was that. A template learns such an event once: the literal text around its text's string token
 * (and around the string tokens of fields the adapter ignores and the provider varies per event,
 * such as OpenAI's `obfuscation`). An event that is the same but for those string tokens is read
 * from its text's token alone: parsed when it has an escape, otherwise taken as it stands between
 * its quotes and joined with the tokens around it (`ChunkEvents`, decision 0127).
 *
 * Exact, not a guess: each varying part must be one valid JSON string token (read as JSON reads it), and all the
 * rest must be the learned event's own text, so the event means what the learned one meant with
 * another text. Anything else (another field changed, a tool call, the end) does not match and is
 * parsed in full as before.
 */
export class TextTemplate {
  /** The learned event's text around its string tokens: literals[0], token 0, literals[1], … */
  private literals: string[] = []
  /** Which token is the text. */
  private textToken = -1
  /** Learning stops after this many events were learned in a row without a match in between. */
  private tries = MAX_TRIES
  /**
   * The text's token in the event `locate` matched last: where it starts and ends (its quotes
   * included), whether it is plain (neither an escape nor a control character: its value is the
   * characters between its quotes, not parsed), and otherwise its parsed value.
   */
  private start = 0
  private end = 0
  private plain = false
  private parsed = ''

  /**
   * @param key the text's field name in the event (`content`, `text`)
   * @param textOf the text of a parsed event whose only effect in the adapter is that text, else
   *   undefined: it decides which events are only text
   * @param ignored string fields the adapter does not read and the provider may vary per event
   */
  constructor(
    private readonly key: string,
    private readonly textOf: (event: unknown) => string | undefined,
    private readonly ignored: readonly string[] = [],
  ) {}

  /** The text of the event `data` when it is the learned event with another text; undefined: parse it in full. */
  read(data: string): string | undefined {
    if (!this.locate(data, 0, data.length)) return undefined
    return this.plain ? (JSON.parse(data.slice(this.start, this.end)) as string) : this.parsed
  }

  /**
   * Whether `data` is the learned event with another text; its text (when not empty) then joins
   * `events`: a plain token as it stands, for `events` to join with the rest of its run (decision 0127).
   */
  readInto(data: string, events: ChunkEvents): boolean {
    return this.readRange(data, 0, data.length, events)
  }

  /** `readInto` of the event `text[from, to)`: where an SSE reader offers it, in its chunk's text (sse.ts `TakeMessage`). */
  readRange(text: string, from: number, to: number, events: ChunkEvents): boolean {
    if (!this.locate(text, from, to)) return false
    if (this.end - this.start > 2) {
      if (this.plain) events.plainText(text.slice(this.start + 1, this.end - 1))
      else if (this.parsed) events.delta('text', this.parsed)
    }
    return true
  }

  /** Whether `data[from, to)` is the learned event with another text; where its text is: `start`, `end`, `plain`, `parsed`. */
  private locate(data: string, from: number, to: number): boolean {
    const { literals } = this
    if (!literals.length || !data.startsWith(literals[0]!, from)) return false
    let at = from + literals[0]!.length
    for (let i = 1; i < literals.length; i++) {
      const end = stringEnd(data, at, to)
      if (end < 0) return false
      if (i - 1 === this.textToken) {
        this.start = at
        this.end = end
        this.plain = plainToken(data, at, end)
        if (!this.plain) {
          const value = stringValue(data, at, end, true)
          if (value === undefined) return false
          this.parsed = value
        }
      } else if (stringValue(data, at, end, false) === undefined) return false
      if (!data.startsWith(literals[i]!, end)) return false
      at = end + literals[i]!.length
    }
    if (at !== to) return false
    this.tries = MAX_TRIES
    return true
  }

  /**
   * Learns `data`, an event parsed in full just now, when it is only text: where its text's string
   * token lies (and those of the ignored fields). An event whose other fields change every time (a
   * counter, a time) never matches; after a few tries in a row the template stops learning, so
   * such a provider pays nothing more.
   */
  learn(data: string, parsed: unknown) {
    if (this.tries === 0 || this.textOf(parsed) === undefined) return
    this.tries--
    // The ignored fields' tokens, where the event has them; then the text's, tried in turn.
    const ignoredTokens = this.ignored.flatMap((key) => stringValues(data, key).slice(0, 1))
    for (const token of stringValues(data, this.key)) {
      if (ignoredTokens.some(([start]) => start === token[0])) continue
      const tokens = [...ignoredTokens, token].sort((a, b) => a[0] - b[0])
      // The place is the text's when another string put there is read as the text, whatever the ignored fields say.
      let marked = ''
      let from = 0
      for (const [start, end] of tokens) {
        marked += data.slice(from, start) + (start === token[0] ? '"\\u0000"' : '"\\u0001"')
        from = end
      }
      try {
        if (this.textOf(JSON.parse(marked + data.slice(from))) !== '\u0000') continue
      } catch {
        continue
      }
      this.literals = [data.slice(0, tokens[0]![0]), ...tokens.map(([, end], i) => data.slice(end, tokens[i + 1]?.[0] ?? data.length))]
      this.textToken = tokens.indexOf(token)
      return
    }
  }
}

const MAX_TRIES = 4

/** Where the JSON string token that starts at `start` ends (after its closing quote), before `limit`; -1: none starts there. */
function stringEnd(data: string, start: number, limit: number): number {
  if (data.charCodeAt(start) !== 34 /* " */) return -1
  let end = start + 1
  while (end < limit && data.charCodeAt(end) !== 34) end += data.charCodeAt(end) === 92 /* \ */ ? 2 : 1
  return end < limit ? end + 1 : -1
}

/**
 * The value of the JSON string token `data[start, end)`, or undefined when it is not a valid one;
 * for a field whose value is not `wanted` (one the adapter ignores), '' when valid. Such a token
 * without escapes or control characters (nearly every one a provider sends) is valid as it
 * stands: it is only scanned, not parsed (an OpenAI event was read in about 300 ns instead of 420).
 * A text token is parsed here only when it is not plain: a plain one is taken as it stands and
 * copied with the rest of its run (`ChunkEvents`).
 */
function stringValue(data: string, start: number, end: number, wanted: boolean): string | undefined {
  if (!wanted && plainToken(data, start, end)) return ''
  try {
    const value: unknown = JSON.parse(data.slice(start, end))
    return typeof value === 'string' ? value : undefined
  } catch {
    return undefined
  }
}

/** Whether the string token `data[start, end)` has neither an escape nor a control character. */
function plainToken(data: string, start: number, end: number) {
  for (let i = start + 1; i < end - 1; i++) {
    const c = data.charCodeAt(i)
    if (c === 92 /* \ */ || c < 32) return false
  }
  return true
}

/**
 * The string tokens that are values of `key` in the JSON text `data` ([start, end) each). A key's
 * opening quote follows `{` or `,` (white space allowed); anywhere else the match lies inside a
 * string. A string value follows its colon, white space allowed.
 */
function stringValues(data: string, key: string): Array<[number, number]> {
  const found: Array<[number, number]> = []
  const name = `"${key}"`
  for (let at = data.indexOf(name); at !== -1; at = data.indexOf(name, at + 1)) {
    let before = at - 1
    while (before >= 0 && isSpace(data.charCodeAt(before))) before--
    const opening = data.charCodeAt(before)
    if (opening !== 123 /* { */ && opening !== 44 /* , */) continue
    let colon = at + name.length
    while (isSpace(data.charCodeAt(colon))) colon++
    if (data.charCodeAt(colon) !== 58 /* : */) continue
    let start = colon + 1
    while (isSpace(data.charCodeAt(start))) start++
    const end = stringEnd(data, start, data.length)
    if (end > 0) found.push([start, end])
  }
  return found
}

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13

/**
 * The events of one network chunk, yielded together at its end: consecutive text (or reasoning)
 * deltas become one event. A fast provider sends a token per event and dozens to thousands of
 * events per chunk; each event passed on alone went through every layer of the call (gateway,
 * usage meter, tool loop, relay), which cost more than reading it. A chunk's events reached the
 * client in one write before as well; the text is the same, in fewer pieces. Plain text tokens
 * come as slices of the chunk (`plainText`) and leave as one new string per run (decision 0127).
 */
export class ChunkEvents {
  private events: StreamEvent[] = []
  /** A run of text tokens without escapes as they stand in their events, joined into one text when the run ends. */
  private pieces: string[] = []

  /** A text token's characters as they stand between its quotes (it has neither an escape nor a control character). */
  plainText(piece: string) {
    this.pieces.push(piece)
  }

  delta(type: 'text' | 'reasoning', delta: string) {
    this.settle()
    this.merge(type, delta)
  }

  push(event: StreamEvent) {
    this.settle()
    this.events.push(event)
  }

  /**
   * The events collected since the last take, in order. Yield them one by one (`for … of`):
   * `yield*` of an array in an async generator wraps it in an async iterator, which costs more
   * than twice as much for each event.
   */
  take(): StreamEvent[] {
    this.settle()
    const events = this.events
    this.events = []
    return events
  }

  private merge(type: 'text' | 'reasoning', delta: string) {
    const last = this.events.at(-1)
    if ((last?.type === 'text' || last?.type === 'reasoning') && last.type === type) last.delta += delta
    else this.events.push({ type, delta })
  }

  /**
   * The run of pieces (if any) as one text of its own. In JavaScriptCore, `join` of two strings or more
   * copies them into a new string; of one, it returns that string, so a single piece is copied by
   * parsing it (a slice would keep the network chunk it was cut from alive as long as the reply
   * keeps its text; the tests hold both).
   */
  private settle() {
    const { pieces } = this
    if (!pieces.length) return
    this.pieces = []
    this.merge('text', pieces.length === 1 ? (JSON.parse(`"${pieces[0]}"`) as string) : pieces.join(''))
  }
}
