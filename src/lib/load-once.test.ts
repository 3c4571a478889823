import { expect, test } from 'bun:test'
import { loadOnce } from './load-once'

test('loads once for every caller, and again after a load that failed', async () => {
  let loads = 0
  let failing = true
  const get = loadOnce(async () => {
    loads++
    if (failing) throw new Error('not now')
    return loads
  })
  await expect(Promise.all([get(), get()])).rejects.toThrow('not now')
  expect(loads).toBe(1)
  failing = false
  expect(await Promise.all([get(), get()])).toEqual([2, 2])
  expect(await get()).toBe(2)
  expect(loads).toBe(2)
})
