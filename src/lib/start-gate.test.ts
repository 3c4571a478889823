import { describe, expect, test } from 'bun:test'
import { startGate } from './start-gate'

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
