import { describe, expect, test } from 'bun:test'
import { keysOf, matches, shortcut, SHORTCUTS } from './shortcuts'

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
})

describe('keyboard shortcuts', () => {
  test('Ctrl+Shift+O elsewhere, ⌘+Shift+O on Apple systems; other modifiers do not count', () => {
    const newChat = shortcut('newChat')
    expect(matches(key('O', { ctrlKey: true, shiftKey: true }), newChat, false)).toBe(true)
    expect(matches(key('o', { ctrlKey: true, shiftKey: true }), newChat, false)).toBe(true)
    expect(matches(key('O', { metaKey: true, shiftKey: true }), newChat, true)).toBe(true)
    expect(matches(key('O', { metaKey: true, shiftKey: true }), newChat, false)).toBe(false)
    expect(matches(key('O', { ctrlKey: true, shiftKey: true }), newChat, true)).toBe(false)
    expect(matches(key('o', { ctrlKey: true }), newChat, false)).toBe(false)
    expect(matches(key('O', { ctrlKey: true, shiftKey: true, altKey: true }), newChat, false)).toBe(false)
    expect(matches(key('O', { ctrlKey: true, metaKey: true, shiftKey: true }), newChat, false)).toBe(false)
  })

  test('? and / are what the layout types, with or without Shift; plain keys take no Ctrl', () => {
    expect(matches(key('?', { shiftKey: true }), shortcut('showShortcuts'), false)).toBe(true)
    expect(matches(key('?'), shortcut('showShortcuts'), false)).toBe(true)
    expect(matches(key('/'), shortcut('promptPicker'), false)).toBe(true)
    expect(matches(key('/', { shiftKey: true }), shortcut('promptPicker'), false)).toBe(true)
    expect(matches(key('/', { ctrlKey: true }), shortcut('promptPicker'), false)).toBe(false)
    expect(matches(key('Escape'), shortcut('stopReply'), false)).toBe(true)
    expect(matches(key('c', { ctrlKey: true }), shortcut('copyLastReply'), false)).toBe(false)
  })

  test('the keys are shown as the system names them', () => {
    expect(keysOf(shortcut('newChat'), false)).toEqual(['Ctrl', 'Shift', 'O'])
    expect(keysOf(shortcut('copyLastReply'), true)).toEqual(['⌘', '⇧', 'C'])
    expect(keysOf(shortcut('stopReply'), false)).toEqual(['Esc'])
    expect(keysOf(shortcut('showShortcuts'), false)).toEqual(['?'])
  })

  test('no two shortcuts share their keys', () => {
    const seen = SHORTCUTS.map((s) => keysOf(s, false).join('+'))
    expect(new Set(seen).size).toBe(seen.length)
  })
})
