import { expect, test } from 'bun:test'
import { startsReply } from './server'

test('only the requests that start a model reply pass the gate', () => {
  const request = (method: string, path: string) => new Request(`http://localhost:3000${path}`, { method })
  for (const path of ['/api/threads/abc/messages', '/api/threads/abc/regenerate', '/v1/chat/completions', '/v1/chat/completions?x=1'])
    expect(startsReply(request('POST', path))).toBe(true)
  for (const [method, path] of [
    ['GET', '/api/threads/abc/messages'],
    ['POST', '/api/threads/abc/messages/m1/stop'],
    ['GET', '/api/threads/abc/messages/m1/stream'],
    ['POST', '/api/threads'],
    ['GET', '/api/health'],
    ['GET', '/build/app.js'],
    ['POST', '/v1/embeddings'],
    ['POST', '/api/threads/abc/messages-x'],
  ] as const)
    expect(startsReply(request(method, path))).toBe(false)
})
