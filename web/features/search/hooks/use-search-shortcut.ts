import { useEffect, useSyncExternalStore } from 'react'

/** Ctrl+K (⌘K on Apple devices) anywhere in the signed-in app toggles the chat search. */
export function useSearchShortcut(toggle: () => void) {
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() !== 'k' || !(e.metaKey || e.ctrlKey) || e.altKey || e.shiftKey) return
      e.preventDefault()
      toggle()
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [toggle])
}

const noSubscription = () => () => {}
const isApple = () => /Mac|iPhone|iPad/.test(navigator.userAgent)

/** How the shortcut reads on this device; the server renders the Ctrl form. */
export function useShortcutLabel() {
  return useSyncExternalStore(noSubscription, () => (isApple() ? '⌘K' : 'Ctrl K'), () => 'Ctrl K')
}
