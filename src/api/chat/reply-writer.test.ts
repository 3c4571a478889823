import { describe, expect, test } from 'bun:test'
import { MAX_JOINS, newTail, takeNew } from './reply-writer'

/** A reply's text as the tool loop grows it and the writer's ticks take it (`written`: what the database has). */
function follow() {
  const tail = newTail()
  let text = ''
  let written = 0
  return {
    append(delta: string) {
      text += delta
      tail.added += delta
    },
    tick() {
      const taken = takeNew(tail, text, written)
      text = taken.text
      written = text.length
      return taken.added
    },
    /** A write of the whole reply (a tool call's checkpoint): the database has all of it. */
    writeWhole: () => void (written = text.length),
    /** A tick whose batch failed: the database has what it had before. */
    failedTick() {
      const before = written
      this.tick()
      written = before
    },
    get text() {
      return text
    },
    tail,
  }
}

describe('a streaming reply text taken at each tick', () => {
  test("is what the loop appended since the last tick, and the reply's text stays the same", () => {
    const reply = follow()
    reply.append('Hello')
    reply.append(', wor')
    expect(reply.tick()).toBe('Hello, wor')
    expect(reply.tick()).toBe('')
    reply.append('ld')
    reply.append('!')
    expect(reply.tick()).toBe('ld!')
    expect(reply.text).toBe('Hello, world!')
  })

  test('after a write of the whole reply, only what came after it', () => {
    const reply = follow()
    reply.append('one ')
    reply.tick()
    reply.append('two ')
    reply.writeWhole()
    reply.append('three')
    expect(reply.tick()).toBe('three')
    expect(reply.text).toBe('one two three')
  })

  test('after a failed batch, its text again with what came since', () => {
    const reply = follow()
    reply.append('kept ')
    reply.tick()
    reply.append('lost ')
    reply.failedTick()
    reply.append('then')
    expect(reply.tick()).toBe('lost then')
    expect(reply.text).toBe('kept lost then')
  })

  test('after MAX_JOINS joined ticks the next one starts the text over from one flat piece', () => {
    const reply = follow()
    for (let i = 0; i < MAX_JOINS; i++) {
      reply.append(`${i} `)
      reply.tick()
    }
    expect(reply.tail.joins).toBe(MAX_JOINS)
    reply.append('last')
    expect(reply.tick()).toBe('last')
    expect(reply.tail.joins).toBe(0)
    expect(reply.tail.base).toBe(reply.text)
  })

  test('over many ticks (the text made flat again every so often) the pieces add up to the text', () => {
    const reply = follow()
    let stored = ''
    for (let i = 0; i < MAX_JOINS * 3 + 5; i++) {
      reply.append(`${i} `)
      reply.append('é😀 ')
      if (i % 17 === 0) reply.failedTick()
      if (i % 23 === 0) {
        stored = reply.text
        reply.writeWhole()
        continue
      }
      stored += reply.tick()
      expect(stored).toBe(reply.text)
      expect(reply.tail.joins).toBeLessThanOrEqual(MAX_JOINS)
    }
  })
})
