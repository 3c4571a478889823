import { describe, expect, test } from 'bun:test'
import { startGate, startsReply } from './start-gate'

const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('startGate', () => {
  test('a burst starts a few per turn of the event loop, in the order it came', async () => {
    const startsNow = startGate(2)
    const started: number[] = []
    const waits = Array.from({ length: 7 }, (_, i) => {
      const wait = startsNow()
      if (wait) void wait.then(() => started.push(i))
      else started.push(i)
      return wait
    })
    // The first two start at once, without a promise; the others wait.
    expect(waits.map((w) => w === undefined)).toEqual([true, true, false, false, false, false, false])
    expect(started).toEqual([0, 1])
    await turn()
    expect(started).toEqual([0, 1, 2, 3])
    await turn()
    expect(started).toEqual([0, 1, 2, 3, 4, 5])
    await turn()
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6])
  })

  test('those let through in a turn count against it: a request in the same turn starts only if there is room', async () => {
    const startsNow = startGate(2)
    const order: string[] = []
    const ask = (name: string) => {
      const wait = startsNow()
      if (wait) void wait.then(() => order.push(name))
      else order.push(name)
      return wait
    }
    ask('a')
    ask('b')
    ask('c')
    await turn()
    // c took one place of this turn: d takes the other, e waits for the next turn.
    expect(order).toEqual(['a', 'b', 'c'])
    expect(ask('d')).toBeUndefined()
    expect(ask('e')).toBeInstanceOf(Promise)
    await turn()
    expect(order).toEqual(['a', 'b', 'c', 'd', 'e'])
  })

  test('under ordinary load every request starts at once, turn after turn', async () => {
    const startsNow = startGate(2)
    for (let i = 0; i < 5; i++) {
      expect(startsNow()).toBeUndefined()
      await turn()
    }
  })
})

test('only the requests that start a model reply pass the gate', () => {
  const request = (method: string, path: string) => new Request(`http://localhost:3000${path}`, { method })
  for (const path of ['/api/threads/abc/messages', '/api/threads/abc/regenerate', '/v1/chat/completions', '/v1/chat/completions?x=1'])
    expect(startsReply(request('POST', path))).toBe(true)
  for (const [method, path] of [
    ['GET', '/api/threads/abc/messages'],
    ['POST', '/api/threads/abc/messages/m1/stop'],
    ['GET', '/api/threads/abc/messages/m1/stream'],
    ['POST', '/api/threads'],
    ['GET', '/api/health'],
    ['GET', '/build/app.js'],
    ['POST', '/v1/embeddings'],
    ['POST', '/api/threads/abc/messages-x'],
  ] as const)
    expect(startsReply(request(method, path))).toBe(false)
})
