import { expect, test } from 'bun:test'
import { ToolCallBuffer } from './tool-call-buffer'

test('fragments keyed by index become complete calls in index order', () => {
  const buffer = new ToolCallBuffer()
  buffer.add(1, { id: 'b', name: 'second', arguments: '' })
  buffer.add(0, { id: 'a', name: 'first', arguments: '{"q":' })
  buffer.add(1, { arguments: '{}' })
  // Some servers repeat the id and name in every fragment.
  buffer.add(0, { id: 'a', name: 'first', arguments: '"x"}' })
  expect(buffer.complete()).toEqual([
    { id: 'a', name: 'first', arguments: '{"q":"x"}' },
    { id: 'b', name: 'second', arguments: '{}' },
  ])
})

test('whole calls with object arguments, missing ids and reused indexes (Mistral, some servers)', () => {
  const buffer = new ToolCallBuffer()
  buffer.add(0, { id: 'null', name: 'one', arguments: { a: 1 } })
  buffer.add(0, { id: 'null', name: 'two', arguments: '' })
  buffer.add(0, { arguments: '{"b":2}' })
  buffer.add(0, { id: 'call_3', name: 'three', arguments: '' })
  buffer.add(0, { id: 'call_4', name: 'three', arguments: '{}' })
  expect(buffer.complete()).toEqual([
    { id: 'call_0', name: 'one', arguments: '{"a":1}' },
    { id: 'call_1', name: 'two', arguments: '{"b":2}' },
    { id: 'call_3', name: 'three', arguments: '{}' },
    { id: 'call_4', name: 'three', arguments: '{}' },
  ])
})
