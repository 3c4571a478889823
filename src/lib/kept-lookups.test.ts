import { describe, expect, test } from 'bun:test'
import { KEPT_LOOKUP_MS, KEPT_LOOKUPS, keptLookups } from './kept-lookups'

/** A resolver that counts its lookups and answers what `answer` gives for a host and the number of its lookup. */
function counting(answer: (host: string, n: number) => Promise<string[]>) {
  const asked: string[] = []
  const resolve = (host: string) => {
    asked.push(host)
    return answer(host, asked.filter((h) => h === host).length)
  }
  return { asked, resolve }
}

describe('kept lookups', () => {
  test('a host is looked up once for 30 seconds, then again', async () => {
    let now = 1_000_000
    const r = counting(async (_, n) => [`10.0.0.${n}`])
    const lookup = keptLookups(r.resolve, () => now)
    expect(lookup.known!('api.example')).toBeUndefined()
    const first = lookup('api.example')
    expect(lookup.known!('api.example')).toBeUndefined()
    expect(await first).toEqual(['10.0.0.1'])
    expect(lookup.known!('api.example')).toEqual(['10.0.0.1'])
    now += KEPT_LOOKUP_MS - 1
    expect(await lookup('api.example')).toEqual(['10.0.0.1'])
    expect(await lookup('other.example')).toEqual(['10.0.0.1'])
    expect(r.asked).toEqual(['api.example', 'other.example'])
    now += 1
    expect(lookup.known!('api.example')).toBeUndefined()
    expect(await lookup('api.example')).toEqual(['10.0.0.2'])
    expect(r.asked).toEqual(['api.example', 'other.example', 'api.example'])
  })

  test('lookups made together share one', async () => {
    const pending = Promise.withResolvers<string[]>()
    const r = counting(() => pending.promise)
    const lookup = keptLookups(r.resolve)
    const both = Promise.all([lookup('api.example'), lookup('api.example')])
    pending.resolve(['10.0.0.1'])
    expect(await both).toEqual([['10.0.0.1'], ['10.0.0.1']])
    expect(r.asked).toEqual(['api.example'])
  })

  test('a failed or empty answer is not kept, and a host forgotten is looked up again', async () => {
    const r = counting(async (host, n) => {
      if (host === 'flaky.example' && n === 1) throw new Error('getaddrinfo EAI_AGAIN flaky.example')
      if (host === 'empty.example' && n === 1) return []
      return ['10.0.0.1']
    })
    const lookup = keptLookups(r.resolve)
    expect(await lookup('flaky.example').catch((e: Error) => e.message)).toBe('getaddrinfo EAI_AGAIN flaky.example')
    expect(await lookup('flaky.example')).toEqual(['10.0.0.1'])
    expect(await lookup('empty.example')).toEqual([])
    expect(await lookup('empty.example')).toEqual(['10.0.0.1'])
    expect(await lookup('empty.example')).toEqual(['10.0.0.1'])
    expect(lookup.known!('flaky.example')).toEqual(['10.0.0.1'])
    lookup.forget!('empty.example')
    expect(lookup.known!('empty.example')).toBeUndefined()
    expect(await lookup('empty.example')).toEqual(['10.0.0.1'])
    expect(r.asked).toEqual(['flaky.example', 'flaky.example', 'empty.example', 'empty.example', 'empty.example'])
  })

  test(`at most ${KEPT_LOOKUPS} hosts are kept: the one looked up longest ago goes first`, async () => {
    const r = counting(async () => ['10.0.0.1'])
    const lookup = keptLookups(r.resolve)
    for (let i = 0; i <= KEPT_LOOKUPS; i++) await lookup(`host-${i}.example`)
    await lookup(`host-${KEPT_LOOKUPS}.example`)
    await lookup('host-1.example')
    expect(r.asked.length).toBe(KEPT_LOOKUPS + 1)
    await lookup('host-0.example')
    expect(r.asked.at(-1)).toBe('host-0.example')
    expect(r.asked.length).toBe(KEPT_LOOKUPS + 2)
  })
})
