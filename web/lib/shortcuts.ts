import { useEffect, useRef } from 'react'

/*
 * Kontor's keyboard shortcuts, all in one list: the shortcuts dialog (`?`) shows this list, and
 * `useShortcut` binds an entry's keys where its action lives. A new shortcut is one more entry
 * here (with its `shortcuts.<id>` string in the common namespace) and one `useShortcut` call.
 */

export type Shortcut = {
  id: string
  /** `KeyboardEvent.key`, lower case for letters. */
  key: string
  /** Ctrl, or ⌘ on Apple systems. */
  mod?: boolean
  shift?: boolean
  /**
   * Where it works: `anywhere` (also while typing), `outside-fields` (not while typing in a text
   * field, where the key is text), or `composer` (bound by the message field itself).
   */
  scope: 'anywhere' | 'outside-fields' | 'composer'
}

export const SHORTCUTS = [
  { id: 'newChat', key: 'o', mod: true, shift: true, scope: 'anywhere' },
  { id: 'searchChats', key: 'k', mod: true, scope: 'anywhere' },
  { id: 'stopReply', key: 'Escape', scope: 'anywhere' },
  { id: 'copyLastReply', key: 'c', mod: true, shift: true, scope: 'anywhere' },
  { id: 'promptPicker', key: '/', scope: 'composer' },
  { id: 'showShortcuts', key: '?', scope: 'outside-fields' },
] as const satisfies readonly Shortcut[]

export type ShortcutId = (typeof SHORTCUTS)[number]['id']

export const shortcut = (id: ShortcutId): Shortcut => SHORTCUTS.find((s) => s.id === id)!

export const isApple = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)

/** Whether the event's target takes text (so that a printable key is typing, not a shortcut). */
export function isTextField(target: EventTarget | null) {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type)
}

/** Whether a keyboard event is this shortcut (its scope aside). */
export function matches(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>, s: Shortcut, apple = isApple()) {
  const mod = apple ? event.metaKey : event.ctrlKey
  const otherMod = apple ? event.ctrlKey : event.metaKey
  if (Boolean(s.mod) !== mod || otherMod || event.altKey) return false
  // `?` and `/` are typed with or without Shift depending on the layout: Shift counts for letters only.
  if (/^[a-z]$/.test(s.key) && Boolean(s.shift) !== event.shiftKey) return false
  return event.key.toLowerCase() === s.key.toLowerCase()
}

/** The keys of a shortcut as the user presses them on this system, e.g. ["Ctrl", "Shift", "O"] or ["⌘", "⇧", "O"]. */
export function keysOf(s: Shortcut, apple = isApple()): string[] {
  const keys: string[] = []
  if (s.mod) keys.push(apple ? '⌘' : 'Ctrl')
  if (s.shift) keys.push(apple ? '⇧' : 'Shift')
  keys.push(s.key === 'Escape' ? 'Esc' : s.key.length === 1 ? s.key.toUpperCase() : s.key)
  return keys
}

/** A layer that handles Escape itself (a dialog, a menu, a picker) is open. */
const hasOpenLayer = () => document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]') !== null

/**
 * Runs `handler` when the shortcut is pressed (while `enabled`); the key does nothing else then.
 * Escape is left to an open dialog or menu, and `outside-fields` shortcuts to text being typed.
 */
export function useShortcut(id: ShortcutId, handler: (event: KeyboardEvent) => void, enabled = true) {
  const latest = useRef(handler)
  latest.current = handler
  useEffect(() => {
    if (!enabled) return
    const s = shortcut(id)
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || !matches(event, s)) return
      if (s.scope === 'outside-fields' && isTextField(event.target)) return
      if (s.key === 'Escape' && hasOpenLayer()) return
      event.preventDefault()
      latest.current(event)
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [id, enabled])
}
