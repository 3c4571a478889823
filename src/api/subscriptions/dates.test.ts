import { describe, expect, test } from 'bun:test'
import { addYears, nextAnniversary } from './dates'

const d = (iso: string) => new Date(iso)

describe('addYears', () => {
  test('keeps the day and time of the start', () => {
    expect(addYears(d('2026-03-15T10:30:00Z'), 1).toISOString()).toBe('2027-03-15T10:30:00.000Z')
  })
  test('29 February falls back to 28 February in common years and returns in leap years', () => {
    expect(addYears(d('2028-02-29T00:00:00Z'), 1).toISOString()).toBe('2029-02-28T00:00:00.000Z')
    expect(addYears(d('2028-02-29T00:00:00Z'), 4).toISOString()).toBe('2032-02-29T00:00:00.000Z')
  })
  test('month ends stay month ends of the same month', () => {
    expect(addYears(d('2026-12-31T23:59:59Z'), 1).toISOString()).toBe('2027-12-31T23:59:59.000Z')
    expect(addYears(d('2026-01-31T00:00:00Z'), 1).toISOString()).toBe('2027-01-31T00:00:00.000Z')
  })
})

describe('nextAnniversary', () => {
  test('is one year after the start during the first year', () => {
    expect(nextAnniversary(d('2026-05-01T00:00:00Z'), d('2026-05-01T00:00:01Z')).toISOString()).toBe('2027-05-01T00:00:00.000Z')
  })
  test('moves on by whole years once an anniversary has passed', () => {
    expect(nextAnniversary(d('2026-05-01T00:00:00Z'), d('2027-05-01T00:00:00Z')).toISOString()).toBe('2028-05-01T00:00:00.000Z')
    expect(nextAnniversary(d('2028-02-29T12:00:00Z'), d('2030-03-01T00:00:00Z')).toISOString()).toBe('2031-02-28T12:00:00.000Z')
  })
})
