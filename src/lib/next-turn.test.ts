import { afterEach, describe, expect, test } from 'bun:test'
import { countTimers } from '../../tests/support/timers'
import { afterThisTurn, dropFromThisTurn, writesLeftTogether } from './next-turn'

const turn = () => new Promise((resolve) => setImmediate(resolve))

describe('writesLeftTogether', () => {
  afterEach(async () => {
    // Nothing of one test's turn is left for the next.
    await writesLeftTogether()
  })

  test('every caller of a turn gets the same wait, with one immediate for all of them', () => {
    let waits: Promise<void>[] = []
    expect(countTimers(() => (waits = Array.from({ length: 100 }, () => writesLeftTogether())))).toBe(1)
    expect(new Set(waits).size).toBe(1)
  })

  test('settles after two turns of the loop; a caller of the next turn waits for a pair of its own', async () => {
    const order: string[] = []
    const firstWait = writesLeftTogether()
    const first = firstWait.then(() => order.push('first settled'))
    await turn()
    order.push('one turn')
    const second = writesLeftTogether()
    expect(second).not.toBe(firstWait)
    void second.then(() => order.push('second settled'))
    await first
    await second
    expect(order).toEqual(['one turn', 'first settled', 'second settled'])
  })
})

describe('afterThisTurn', () => {
  test('the tasks of a turn run in one timer; a task taken back does not run', async () => {
    const ran: number[] = []
    const tasks = Array.from({ length: 50 }, (_, i) => () => ran.push(i))
    expect(countTimers(() => tasks.forEach(afterThisTurn))).toBe(1)
    dropFromThisTurn(tasks[7]!)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(ran).toEqual(tasks.map((_, i) => i).filter((i) => i !== 7))
    // The next turn's tasks get a timer of their own.
    expect(countTimers(() => afterThisTurn(() => ran.push(50)))).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(ran.at(-1)).toBe(50)
  })
})
