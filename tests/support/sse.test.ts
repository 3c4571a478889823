import { expect, test } from 'bun:test'
import { readSse } from './sse'

const stream = (text: string) => new Response(text)
const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`

test('events and tool data that keep to the chat contract are read', async () => {
  const passages = [{ sourceName: 'plant.pdf', page: 3, pageEnd: null, headingPath: '', citation: '(plant.pdf, p. 3)', text: 'Pumps' }]
  const events = await readSse(
    stream(
      frame('text', { delta: 'Hi' }) +
        frame('tool_result', { id: 'c1', name: 'source_query', result: 'r', isError: false, data: { passages } }) +
        frame('message_end', { status: 'complete' }),
    ),
  )
  expect(events.map((e) => e.event)).toEqual(['text', 'tool_result', 'message_end'])
})

test('an event or a tool result that breaks the contract fails the reading test', async () => {
  await expect(readSse(stream(frame('message_end', { status: 'done' })))).rejects.toThrow()
  await expect(readSse(stream(frame('text', { text: 'Hi' })))).rejects.toThrow()
  const noCitation = { passages: [{ sourceName: 'plant.pdf', page: 3, pageEnd: null }] }
  await expect(readSse(stream(frame('tool_result', { id: 'c1', name: 'source_query', result: 'r', isError: false, data: noCitation })))).rejects.toThrow()
  await expect(readSse(stream(frame('tool_result', { id: 'c1', name: 'send_email', result: 'r', isError: false, data: { to: 'a' } })))).rejects.toThrow()
})
