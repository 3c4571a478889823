import { describe, expect, test } from 'bun:test'
import { MATCH_END, MATCH_START, matchExpressions, snippetParts, withBeginnings } from './fts-query'

const matchExpression = (text: string) => matchExpressions(text)?.whole ?? null
const typing = (text: string) => matchExpressions(text)?.typing

describe('matchExpressions', () => {
  test('every word is quoted and required; operators and punctuation are never syntax', () => {
    expect(matchExpression('Quarterly report')).toBe('"quarterly" "report"')
    expect(matchExpression('NEAR(a b) AND c OR -d NOT e:f "g*"')).toBe('"near" "a" "b" "and" "c" "or" "d" "not" "e" "f" "g"')
    expect(matchExpression('title:"x" {body}: y ^z')).toBe('"title" "x" "body" "y" "z"')
  })

  test('the last word may be a beginning while it is typed and has 3 letters or more; it is looked up as the index writes it', () => {
    expect(matchExpressions('plan Off')).toEqual({ whole: '"plan" "off"', typing: 'off', others: ['"plan"'] })
    expect(typing('plan off ')).toBeUndefined()
    expect(typing('plan of')).toBeUndefined()
    expect(typing('plan off.')).toBeUndefined()
    expect(typing('Größe')).toBe('große')
    expect(typing('Café')).toBe('cafe')
    expect(withBeginnings(['"plan"'], ['office', 'offsite'])).toBe('"plan" AND ("office" OR "offsite")')
    expect(withBeginnings([], ['a"b'])).toBe('("a""b")')
  })

  test('no words: nothing to search; repeated words once; at most 16', () => {
    for (const text of ['', '   ', '"', '*', '()', '-:^{}', '🦌🦌']) expect(matchExpression(text)).toBeNull()
    expect(matchExpression('a a b')).toBe('"a" "b"')
    expect(matchExpression(Array.from({ length: 30 }, (_, i) => `w${i}`).join(' '))!.split(' ')).toHaveLength(16)
  })
})

describe('snippetParts', () => {
  test('marked words become parts with match; the rest is text on one line, marks removed', () => {
    expect(snippetParts(`…the ${MATCH_START}quokka${MATCH_END} lives\non ${MATCH_START}Rottnest${MATCH_END}…`)).toEqual([
      { text: '…the ', match: false },
      { text: 'quokka', match: true },
      { text: ' lives on ', match: false },
      { text: 'Rottnest', match: true },
      { text: '…', match: false },
    ])
    expect(snippetParts('<b>no match</b>')).toEqual([{ text: '<b>no match</b>', match: false }])
    expect(snippetParts('')).toEqual([])
    // A stray end mark (in the text itself) never leaks into what is shown.
    expect(snippetParts(`a${MATCH_END}b`)).toEqual([{ text: 'ab', match: false }])
  })
})
