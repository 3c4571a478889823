import { useCallback, useState } from 'react'
import { useSearchShortcut, useShortcutLabel } from './use-search-shortcut'

/** Whether the chat search is open, opened by Ctrl/⌘+K or by whoever calls `show`. */
export function useChatSearch() {
  const [open, setOpen] = useState(false)
  useSearchShortcut(useCallback(() => setOpen((o) => !o), []))
  return { open, setOpen, show: useCallback(() => setOpen(true), []), shortcut: useShortcutLabel() }
}
