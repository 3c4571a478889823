import { describe, expect, test } from 'bun:test'
import { promptVariables as serverPromptVariables } from '../../src/api/prompts/service'
import { fillPromptVariables, promptVariables } from './fill-variables'

describe('fillPromptVariables', () => {
  test('replaces every occurrence, with or without spaces inside the braces', () => {
    const content = 'Write about {{topic}}. Again: {{ topic }}, and {{  topic  }} once more.'
    expect(fillPromptVariables(content, { topic: 'tides' })).toBe('Write about tides. Again: tides, and tides once more.')
  })

  test('fills several variables, including names with spaces, digits and umlauts', () => {
    const content = 'Dear {{customer name}}, your order {{order_2}} ships {{Lieferdatum}}.'
    expect(fillPromptVariables(content, { 'customer name': 'Ms Roe', order_2: '#42', Lieferdatum: 'Montag' })).toBe(
      'Dear Ms Roe, your order #42 ships Montag.',
    )
  })

  test('inserts values literally: no second pass, no replacement patterns', () => {
    const content = '{{a}} and {{b}}'
    expect(fillPromptVariables(content, { a: '{{b}}', b: '$& $1 $$' })).toBe('{{b}} and $& $1 $$')
  })

  test('leaves variables without a value, and braces that are no variable, as they are', () => {
    const content = 'Hi {{name}}, see {{missing}} and {{}} and {{a.b}} and { {x} }'
    expect(fillPromptVariables(content, { name: 'Ada' })).toBe('Hi Ada, see {{missing}} and {{}} and {{a.b}} and { {x} }')
  })

  test('an empty value removes the placeholder; names are case-sensitive', () => {
    expect(fillPromptVariables('[{{x}}] [{{X}}]', { x: '' })).toBe('[] [{{X}}]')
  })

  test('does not read inherited properties as values', () => {
    expect(fillPromptVariables('{{constructor}} {{toString}}', {})).toBe('{{constructor}} {{toString}}')
  })

  test('keeps multi-line content and values intact', () => {
    expect(fillPromptVariables('Summary:\n{{text}}\n-- end', { text: 'line 1\nline 2' })).toBe('Summary:\nline 1\nline 2\n-- end')
  })
})

describe('promptVariables', () => {
  const samples = [
    'Write about {{topic}} for {{ audience }}; again {{topic}}.',
    'Dear {{customer name}}, {{order_2}} {{Lieferdatum}} {{a-b}}',
    'No variables here { {x} } {{}} {{a.b}}',
    `{{${'x'.repeat(40)}}} {{${'y'.repeat(41)}}}`,
  ]

  test('lists each variable once, in order of first use', () => {
    expect(promptVariables(samples[0]!)).toEqual(['topic', 'audience'])
  })

  test('agrees with the server, which reports the variables of a saved prompt', () => {
    for (const sample of samples) expect(promptVariables(sample)).toEqual(serverPromptVariables(sample))
  })
})
