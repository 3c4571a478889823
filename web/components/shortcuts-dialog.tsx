import { useState } from 'react'
import { lazyPart } from '../lib/lazy-part'
import { useShortcut } from '../lib/shortcuts'

// The dialog (Radix) is not among the first scripts: it loads when `?` is first pressed.
const ShortcutsDialogView = lazyPart(() => import('./shortcuts-dialog-view').then((m) => m.ShortcutsDialogView))

/** The list of keyboard shortcuts, opened with `?` anywhere outside a text field. */
export function ShortcutsDialog() {
  const [open, setOpen] = useState(false)
  // Once shown it stays mounted, so it can play its closing animation.
  const [shown, setShown] = useState(false)
  useShortcut('showShortcuts', () => {
    setShown(true)
    setOpen(true)
  })
  return shown ? <ShortcutsDialogView open={open} setOpen={setOpen} /> : null
}
