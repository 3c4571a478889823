import { useCallback, useState, useSyncExternalStore } from 'react'
import { isApple, keysOf, shortcut, useShortcut } from '../../../lib/shortcuts'

const noSubscription = () => () => {}
/** ⌘K on Apple systems, Ctrl K elsewhere. */
const label = (apple: boolean) => keysOf(shortcut('searchChats'), apple).join(apple ? '' : ' ')

/**
 * Whether the chat search is open: Ctrl/⌘+K toggles it, `show` opens it. `shortcut` is the keys as
 * this device writes them (the server renders the Ctrl form; the browser corrects it on Apple systems).
 */
export function useChatSearch() {
  const [open, setOpen] = useState(false)
  useShortcut('searchChats', () => setOpen((o) => !o))
  const shortcutLabel = useSyncExternalStore(noSubscription, () => label(isApple()), () => label(false))
  return { open, setOpen, show: useCallback(() => setOpen(true), []), shortcut: shortcutLabel }
}
