import { useEffect, useState, useSyncExternalStore } from 'react'
import { lazyPart } from '../lib/lazy-part'
import type { ConfirmOptions } from './confirm-dialog-view'

export type { ConfirmOptions } from './confirm-dialog-view'

let current: ConfirmOptions | null = null
const listeners = new Set<() => void>()
const emit = () => listeners.forEach((l) => l())

/** Opens the global confirmation dialog (spec section 2). */
export function confirm(options: ConfirmOptions) {
  current = options
  emit()
}

const close = () => {
  current = null
  emit()
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

// The dialog itself (Radix) is loaded when the page is interactive, not before: nothing asks for a
// confirmation earlier, and the first one still opens at once.
const ConfirmDialog = lazyPart(() => import('./confirm-dialog-view').then((m) => m.default))

/** Mounted once in the root layout; renders nothing until it is needed (so also nothing on the server). */
export function ConfirmDialogHost() {
  const options = useSyncExternalStore(subscribe, () => current, () => null)
  // Once shown, the dialog stays mounted, so it can play its closing animation.
  const [shown, setShown] = useState(false)
  useEffect(() => void ConfirmDialog.preload(), [])
  useEffect(() => {
    if (options) setShown(true)
  }, [options])
  return shown || options ? <ConfirmDialog options={options} onClose={close} /> : null
}
