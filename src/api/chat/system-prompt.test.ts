import { describe, expect, test } from 'bun:test'
import { systemPrompt } from './system-prompt'

const firstLine = (now: string, locale: 'en' | 'de') => systemPrompt({ now: new Date(now), locale }).split('\n')[0]

describe('the system prompt', () => {
  test('begins with the date and time of the reply, to the minute, in the member’s language', () => {
    expect(firstLine('2026-11-30T06:10:20Z', 'en')).toBe('Current date and time: Monday, 30 November 2026 at 06:10 (UTC).')
    expect(firstLine('2026-11-30T06:10:59Z', 'en')).toBe('Current date and time: Monday, 30 November 2026 at 06:10 (UTC).')
    // The line kept for a minute is not the next minute's, nor another language's.
    expect(firstLine('2026-11-30T06:11:00Z', 'en')).toBe('Current date and time: Monday, 30 November 2026 at 06:11 (UTC).')
    expect(firstLine('2026-11-30T06:11:00Z', 'de')).toBe('Current date and time: Montag, 30. November 2026 um 06:11 (UTC).')
    expect(firstLine('2026-11-30T06:11:30Z', 'en')).toBe('Current date and time: Monday, 30 November 2026 at 06:11 (UTC).')
    // A clock set back: the line follows it.
    expect(firstLine('2026-11-29T23:59:00Z', 'en')).toBe('Current date and time: Sunday, 29 November 2026 at 23:59 (UTC).')
  })
})
