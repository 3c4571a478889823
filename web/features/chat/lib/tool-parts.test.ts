import { describe, expect, test } from 'bun:test'
import { parseArguments, segmentsOf, toolCallsOf, type ToolCallView } from './tool-parts'

const call = (id: string, offset: number): ToolCallView => ({ id, name: 'internet_search', arguments: '{}', offset })

describe('toolCallsOf', () => {
  test('pairs each call with its result, keeps call order and ignores parts of other shapes', () => {
    const parts = [
      { type: 'tool_call', id: 'c1', name: 'internet_search', arguments: '{"query":"a"}', offset: 5 },
      { type: 'tool_call', id: 'c2', name: 'website_content', arguments: '{}', offset: 5 },
      { type: 'tool_result', id: 'c2', name: 'website_content', result: 'refused', isError: true },
      { type: 'tool_result', id: 'c1', name: 'internet_search', result: 'ok', isError: false, data: { results: [] } },
      { type: 'tool_call', id: 'c3', name: 'send_email', arguments: '{}' },
      { type: 'tool_call', id: 'c1', name: 'again', arguments: '{}', offset: 9 },
      { type: 'tool_result', id: 'c4', result: 'no isError' },
      null,
      'odd',
      { type: 'tool_call', name: 'no id' },
    ]
    const calls = toolCallsOf(parts)
    expect(calls.map((c) => [c.id, c.name, c.offset, c.result?.isError])).toEqual([
      ['c1', 'internet_search', 5, false],
      ['c2', 'website_content', 5, true],
      ['c3', 'send_email', 0, undefined],
    ])
    expect(calls[0]!.result?.data).toEqual({ results: [] })
  })
})

describe('segmentsOf', () => {
  test('text before a call, the call, the text after', () => {
    const text = 'Let me search.Kontor is a workspace.'
    expect(segmentsOf(text, [call('a', 14)])).toEqual([
      { kind: 'text', text: 'Let me search.' },
      { kind: 'tools', calls: [call('a', 14)] },
      { kind: 'text', text: 'Kontor is a workspace.' },
    ])
  })

  test('calls at one offset form one group, in call order; a call at the start or end has no empty text beside it', () => {
    expect(segmentsOf('Answer', [call('b', 0), call('c', 0)])).toEqual([
      { kind: 'tools', calls: [call('b', 0), call('c', 0)] },
      { kind: 'text', text: 'Answer' },
    ])
    expect(segmentsOf('Answer', [call('d', 6)])).toEqual([{ kind: 'text', text: 'Answer' }, { kind: 'tools', calls: [call('d', 6)] }])
    expect(segmentsOf('', [call('e', 0)])).toEqual([{ kind: 'tools', calls: [call('e', 0)] }])
    expect(segmentsOf('Only text', [])).toEqual([{ kind: 'text', text: 'Only text' }])
  })

  test('offsets out of range are clamped and unordered offsets sorted; whitespace between groups joins them', () => {
    const segments = segmentsOf('One. \n\nTwo.', [call('late', 99), call('early', -3), call('mid', 4), call('mid2', 7)])
    expect(segments.map((s) => (s.kind === 'text' ? s.text : s.calls.map((c) => c.id).join('+')))).toEqual(['early', 'One.', 'mid+mid2', 'Two.', 'late'])
  })

  test('the texts of all segments add up to the whole reply (apart from whitespace-only ones)', () => {
    const text = 'alpha beta gamma delta'
    const segments = segmentsOf(text, [call('x', 6), call('y', 11)])
    expect(segments.map((s) => (s.kind === 'text' ? s.text : '')).join('')).toBe(text)
  })
})

test('parseArguments: a JSON object, or null for anything else', () => {
  expect(parseArguments('{"query":"kontor"}')).toEqual({ query: 'kontor' })
  expect(parseArguments('{oops')).toBeNull()
  expect(parseArguments('[1,2]')).toBeNull()
  expect(parseArguments('"text"')).toBeNull()
  expect(parseArguments('')).toBeNull()
})
