import { expect, test } from 'bun:test'
import { callSummary, emailDraftOf, hostOf, mcpResultOf, mcpToolOf, passagesOf, replyPassages, searchResultsOf } from './tool-data'
import type { ToolCallView } from './tool-parts'

test('search results: only those with an http(s) address; anything not shaped like results is null', () => {
  const data = {
    results: [
      { title: 'Kontor', url: 'https://www.kontor.example/a', snippet: 'Chat.' },
      { title: 'Bad', url: 'javascript:alert(1)', snippet: '' },
      { url: 'http://docs.example/x' },
      'odd',
    ],
  }
  expect(searchResultsOf(data)).toEqual([
    { title: 'Kontor', url: 'https://www.kontor.example/a', snippet: 'Chat.' },
    { title: '', url: 'http://docs.example/x', snippet: '' },
  ])
  expect(searchResultsOf(undefined)).toBeNull()
  expect(searchResultsOf({ results: 'no' })).toBeNull()
  expect(hostOf('https://www.kontor.example/a')).toBe('kontor.example')
  expect(hostOf('mailto:a@b.c')).toBe('')
  expect(hostOf('not a url')).toBe('')
})

test('passages: those that fit, with their text when the reply kept it', () => {
  const data = {
    passages: [
      { sourceId: 's1', sourceName: 'plant.pdf', page: 3, pageEnd: 3, headingPath: 'Budget', citation: '(plant.pdf, p. 3)', text: 'The budget…' },
      { sourceName: 'notes.txt', page: null, pageEnd: null, headingPath: '', citation: '(notes.txt, chunk 1)' },
      { sourceName: 'broken' },
    ],
  }
  expect(passagesOf(data)).toEqual([
    { sourceName: 'plant.pdf', page: 3, pageEnd: 3, headingPath: 'Budget', citation: '(plant.pdf, p. 3)', text: 'The budget…' },
    { sourceName: 'notes.txt', page: null, pageEnd: null, headingPath: '', citation: '(notes.txt, chunk 1)', text: undefined },
  ])
  expect(passagesOf(null)).toEqual([])
  const call = (id: string, name: string, isError: boolean, d: unknown): ToolCallView => ({
    id,
    name,
    arguments: '{}',
    offset: 0,
    result: { type: 'tool_result', id, name, result: '', isError, data: d },
  })
  expect(replyPassages([call('a', 'source_query', false, data), call('b', 'source_query', true, data), call('c', 'internet_search', false, data)])).toHaveLength(2)
})

test('an e-mail draft comes from the checked result, else from the arguments', () => {
  const base = { id: 'm', name: 'send_email', offset: 0 }
  const draft = { to: 'ada@example.com', subject: 'Hi', body: 'Hello' }
  const result = { type: 'tool_result' as const, id: 'm', name: 'send_email', result: '', isError: false, data: draft }
  expect(emailDraftOf({ ...base, arguments: '{"to":"x@y.z","subject":"Other","body":"B"}', result })).toEqual(draft)
  expect(emailDraftOf({ ...base, arguments: '{"subject":"Only","body":3}' })).toEqual({ to: '', subject: 'Only', body: '' })
  expect(emailDraftOf({ ...base, arguments: 'not json' })).toBeNull()
})

test('what a call is about: its main argument, or the first plain one of an unknown tool', () => {
  expect(callSummary({ name: 'internet_search', arguments: '{"query":" kontor tools ","count":3}' })).toBe('kontor tools')
  expect(callSummary({ name: 'website_content', arguments: '{"url":"https://a.example"}' })).toBe('https://a.example')
  expect(callSummary({ name: 'send_email', arguments: '{"subject":"","body":"x"}' })).toBeNull()
  expect(callSummary({ name: 'weather', arguments: '{"days":[1],"city":"Berlin"}' })).toBe('city: Berlin')
  expect(callSummary({ name: 'internet_search', arguments: '{' })).toBeNull()
})

test('odd fields of stored data fall back one by one; a missing required field hides only its item', () => {
  const odd = { sourceName: 'scan.png', collectionName: 7, page: '3', pageEnd: 2.5, recognised: 'yes', headingPath: null, citation: '(scan.png)', text: 42 }
  expect(passagesOf({ passages: [odd, { sourceName: 'no citation' }] })).toEqual([
    { sourceName: 'scan.png', collectionName: null, page: null, pageEnd: null, recognised: false, headingPath: '', citation: '(scan.png)', text: undefined },
  ])
  expect(passagesOf({ passages: [{ sourceName: 'a.pdf', collectionName: 'Policies', page: 1, pageEnd: 2, recognised: true, headingPath: 'H', citation: 'c' }] })).toEqual([
    { sourceName: 'a.pdf', collectionName: 'Policies', page: 1, pageEnd: 2, recognised: true, headingPath: 'H', citation: 'c' },
  ])
  expect(searchResultsOf({ results: [{ title: 3, url: 'https://a.example', snippet: ['x'] }, { title: 'no url' }] })).toEqual([{ title: '', url: 'https://a.example', snippet: '' }])

  const image = { mimeType: 'image/png', data: 'iVBORw0KGgo=' }
  expect(mcpResultOf({ server: 'files', tool: 'read', images: [image, { mimeType: 'image/svg+xml', data: 'PHN2Zz4=' }], resources: [{ uri: 'file:///a', name: 'a' }] })).toEqual({
    server: 'files',
    tool: 'read',
    images: [image],
    resources: [{ uri: 'file:///a', name: 'a' }],
  })
  // Images or resources of another shape are dropped as a whole; the names still count.
  expect(mcpResultOf({ server: 'files', tool: 'read', images: 'none', resources: [{ name: 'no uri' }] })).toEqual({ server: 'files', tool: 'read', images: [], resources: [] })
  expect(mcpResultOf({ tool: 'read' })).toBeNull()
  const running = { name: 'files__read', result: undefined }
  expect(mcpToolOf(running)).toEqual({ server: 'files', tool: 'read' })
})
