import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { clearPendingMessage, setPendingMessage, takePendingMessage } from './pending-message'

// A sessionStorage as the browser has it, for the reload cases.
const stored = new Map<string, string>()
const original = Object.getOwnPropertyDescriptor(globalThis, 'sessionStorage')
globalThis.sessionStorage = {
  getItem: (k: string) => stored.get(k) ?? null,
  setItem: (k: string, v: string) => void stored.set(k, v),
  removeItem: (k: string) => void stored.delete(k),
  clear: () => stored.clear(),
  key: () => null,
  length: 0,
} as Storage

afterEach(() => stored.clear())
afterAll(() => {
  if (original) Object.defineProperty(globalThis, 'sessionStorage', original)
  else delete (globalThis as { sessionStorage?: Storage }).sessionStorage
})

describe('pending message', () => {
  test('is taken once, with its files', () => {
    const file = new File(['fact'], 'notes.txt', { type: 'text/plain' })
    setPendingMessage('t1', 'Summarise the notes', [file])
    expect(takePendingMessage('t1')).toEqual({ content: 'Summarise the notes', files: [file] })
    expect(takePendingMessage('t1')).toBeNull()
  })

  test('after a reload (memory gone, storage kept) the text is still there, the files are not', async () => {
    setPendingMessage('t2', 'Hello', [new File(['x'], 'a.txt')])
    // A fresh module instance stands for the reloaded page.
    const reloaded = await import(`./pending-message.ts?reload=${Date.now()}`)
    expect(reloaded.takePendingMessage('t2')).toEqual({ content: 'Hello', files: [] })
    expect(reloaded.takePendingMessage('t2')).toBeNull()
  })

  test('is forgotten once the server has it', () => {
    setPendingMessage('t3', 'Hi')
    clearPendingMessage('t3')
    expect(stored.size).toBe(0)
    expect(takePendingMessage('t3')).toBeNull()
  })

  test('a message set again after being taken can be taken again', () => {
    setPendingMessage('t4', 'first')
    takePendingMessage('t4')
    setPendingMessage('t4', 'second')
    expect(takePendingMessage('t4')?.content).toBe('second')
  })
})
