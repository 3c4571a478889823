import type { StreamEvent } from './types'

/**
 * Reads the text of a streamed event without parsing the whole event. A provider streams a reply
 * as thousands of events that differ in one string only, e.g. OpenAI's
 * `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4.1","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}`.
 * `JSON.parse` of each built every field's object anew; most of the cost of relaying a fast reply
 * was that. A template learns such an event once (what comes before and after its text); an event
 * that is the same text but for that one string token is read by parsing the string alone.
 *
 * Exact, not a guess: the part between the learned prefix and suffix must itself parse as one JSON
 * string, so the event is the learned one with another string token in the same place, and it
 * means what the learned event meant with another text. Anything else (another field changed, a
 * tool call, the end) does not match and is parsed in full as before.
 */
export class TextTemplate {
  private prefix = ''
  private suffix = ''
  /** Learning stops after this many events were learned in a row without a match in between. */
  private tries = MAX_TRIES

  /**
   * @param key the text's field name in the event (`content`, `text`)
   * @param textOf the text of a parsed event whose only effect in the adapter is that text, else
   *   undefined: it decides which events are only text
   */
  constructor(
    private readonly key: string,
    private readonly textOf: (event: unknown) => string | undefined,
  ) {}

  /** The text of the event `data` when it is the learned event with another text; undefined: parse it in full. */
  read(data: string): string | undefined {
    const { prefix, suffix } = this
    if (!prefix || data.length < prefix.length + suffix.length + 2 || !data.startsWith(prefix) || !data.endsWith(suffix)) return undefined
    let text: unknown
    try {
      text = JSON.parse(data.slice(prefix.length, data.length - suffix.length))
    } catch {
      return undefined
    }
    if (typeof text !== 'string') return undefined
    this.tries = MAX_TRIES
    return text
  }

  /** Whether `data` is the learned event with another text; its text (when not empty) then joins `events`. */
  readInto(data: string, events: ChunkEvents): boolean {
    const text = this.read(data)
    if (text === undefined) return false
    if (text) events.delta('text', text)
    return true
  }

  /**
   * Learns `data`, an event parsed in full just now, when it is only text: where its text's string
   * token lies. An event whose other fields change every time (a counter, a time) never matches;
   * after a few tries in a row the template stops learning, so such a provider pays nothing more.
   */
  learn(data: string, parsed: unknown) {
    if (this.tries === 0 || this.textOf(parsed) === undefined) return
    this.tries--
    const field = `"${this.key}":`
    for (let at = data.indexOf(field); at !== -1; at = data.indexOf(field, at + 1)) {
      // A key's opening quote follows `{` or `,`; anywhere else the match lies inside a string.
      const before = data.charCodeAt(at - 1)
      if (before !== 123 /* { */ && before !== 44 /* , */) continue
      const start = at + field.length
      if (data.charCodeAt(start) !== 34 /* " */) continue
      let end = start + 1
      while (end < data.length && data.charCodeAt(end) !== 34) end += data.charCodeAt(end) === 92 /* \ */ ? 2 : 1
      if (end >= data.length) return
      const prefix = data.slice(0, start)
      const suffix = data.slice(end + 1)
      // The place is the text's when another string put there is read as the text.
      try {
        if (this.textOf(JSON.parse(`${prefix}"\\u0000"${suffix}`)) !== '\u0000') continue
      } catch {
        continue
      }
      this.prefix = prefix
      this.suffix = suffix
      return
    }
  }
}

const MAX_TRIES = 4

/**
 * The events of one network chunk, yielded together at its end: consecutive text (or reasoning)
 * deltas become one event. A fast provider sends a token per event and dozens to thousands of
 * events per chunk; each event passed on alone went through every layer of the call (gateway,
 * usage meter, tool loop, relay), which cost more than reading it. A chunk's events reached the
 * client in one write before as well; the text is the same, in fewer pieces.
 */
export class ChunkEvents {
  private events: StreamEvent[] = []

  delta(type: 'text' | 'reasoning', delta: string) {
    const last = this.events.at(-1)
    if ((last?.type === 'text' || last?.type === 'reasoning') && last.type === type) last.delta += delta
    else this.events.push({ type, delta })
  }

  push(event: StreamEvent) {
    this.events.push(event)
  }

  /**
   * The events collected since the last take, in order. Yield them one by one (`for … of`):
   * `yield*` of an array in an async generator wraps it in an async iterator, which costs more
   * than twice as much for each event.
   */
  take(): StreamEvent[] {
    const events = this.events
    this.events = []
    return events
  }
}
