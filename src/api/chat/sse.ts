import { afterThisTurn, dropFromThisTurn } from '../../lib/next-turn'
import type { ReplyEvent } from './schema'

export type { ReplyEvent }

const encoder = new TextEncoder()

/**
 * Where a client is in a reply: how much of its text and reasoning it has (UTF-16 code units, as
 * JavaScript counts them) and how many of its tool calls and results. Every frame carries the
 * position after it as its SSE `id`, so a client that lost the stream names it in `Last-Event-ID`
 * and gets only what it lacks (attach.ts).
 */
export type ReplyPosition = { content: number; reasoning: number; parts: number }

export const REPLY_START: ReplyPosition = { content: 0, reasoning: 0, parts: 0 }

export const positionId = (p: ReplyPosition) => `${p.content}.${p.reasoning}.${p.parts}`

/** A position from a `Last-Event-ID`; anything else (garbage, a foreign format) reads as the start. */
export function parsePositionId(id: string | undefined | null): ReplyPosition {
  const match = /^(\d{1,9})\.(\d{1,9})\.(\d{1,6})$/.exec(id?.trim() ?? '')
  return match ? { content: Number(match[1]), reasoning: Number(match[2]), parts: Number(match[3]) } : { ...REPLY_START }
}

const sseText = (e: ReplyEvent, at?: ReplyPosition) => `${at ? `id: ${positionId(at)}\n` : ''}event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`

/** One Server-Sent-Events frame (without a position). */
export function sseFrame(e: ReplyEvent): Uint8Array {
  return encoder.encode(sseText(e))
}

/** The most characters of text or reasoning in one frame: a longer delta is split, its frames written about MAX_WRITE_CHARS characters at a time. */
export const MAX_FRAME_CHARS = 16 * 1024
const MAX_WRITE_CHARS = 64 * 1024

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff

/**
 * Collects the frames of a reply and hands them to `write`. Text and reasoning deltas wait for
 * `flush`, which the relay calls after each network chunk of the provider's answer: the deltas
 * parsed from one chunk leave in one write, consecutive ones merged into one frame (of at most
 * MAX_FRAME_CHARS characters). Every other
 * event (start, tool calls, usage, end) leaves at once, after what waited before it. A timer of
 * the current turn only backs up a caller that never flushes: the queue's own, or with `together`
 * one for all the queues of the turn (`afterThisTurn`, where a timer may serve other requests).
 * Each frame's `id` is the position after it, counted from `from` (where the client already is).
 * A delta of more than MAX_FRAME_CHARS (a replay) leaves in frames of that size, a few per write;
 * `write` answers false when its stream takes no more.
 */
export function frameQueue(write: (bytes: Uint8Array) => boolean | void, from: ReplyPosition = REPLY_START, together = false) {
  const at = { ...from }
  let pending = ''
  /** The delta event being merged into, not yet in `pending`. */
  let delta: { event: 'text' | 'reasoning'; text: string } | undefined
  /** Whether the backstop is set. */
  let backstop = false
  let timer: ReturnType<typeof setTimeout> | undefined

  const deltaFrame = (event: 'text' | 'reasoning', text: string) => {
    if (event === 'text') at.content += text.length
    else at.reasoning += text.length
    pending += `id: ${positionId(at)}\nevent: ${event}\ndata: ${JSON.stringify({ delta: text })}\n\n`
  }
  /** Ends the delta being merged into; whether that wrote (a long one writes as it goes). */
  const closeDelta = () => {
    if (!delta) return false
    const { event, text } = delta
    delta = undefined
    if (text.length <= MAX_FRAME_CHARS) {
      deltaFrame(event, text)
      return false
    }
    // A long delta (a replay of what a client lacks, or a very large network chunk): frames of
    // their own, written a few at a time, so that a client's cap on unread bytes (reply-relay.ts)
    // falls between frames. Once the stream takes no more, the rest is not framed at all.
    let wrote = false
    for (let start = 0; start < text.length; ) {
      let end = Math.min(start + MAX_FRAME_CHARS, text.length)
      // A surrogate pair stays in one frame.
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--
      deltaFrame(event, text.slice(start, end))
      start = end
      if (pending.length >= MAX_WRITE_CHARS) {
        const open = write(encoder.encode(pending))
        pending = ''
        wrote = true
        if (open === false) return true
      }
    }
    return wrote
  }
  /** Writes what waits; whether there was anything. */
  const flush = () => {
    if (backstop) {
      backstop = false
      if (together) dropFromThisTurn(flush)
      else clearTimeout(timer)
    }
    const wrote = closeDelta()
    if (!pending) return wrote
    const text = pending
    pending = ''
    write(encoder.encode(text))
    return true
  }
  return {
    push(e: ReplyEvent) {
      if (e.event === 'text' || e.event === 'reasoning') {
        if (delta?.event === e.event) delta.text += e.data.delta
        else {
          closeDelta()
          delta = { event: e.event, text: e.data.delta }
        }
        if (!backstop) {
          backstop = true
          if (together) afterThisTurn(flush)
          else timer = setTimeout(flush, 0)
        }
        return
      }
      closeDelta()
      if (e.event === 'tool_call' || e.event === 'tool_result') at.parts++
      pending += sseText(e, at)
      flush()
    },
    flush,
  }
}
