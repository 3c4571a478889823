import { lazy, Suspense, useState } from 'react'
import { useShortcut } from '../lib/shortcuts'

// The dialog (Radix) is not among the first scripts: it loads when `?` is first pressed.
const ShortcutsDialogView = lazy(() => import('./shortcuts-dialog-view').then((m) => ({ default: m.ShortcutsDialogView })))

/** The list of keyboard shortcuts, opened with `?` anywhere outside a text field. */
export function ShortcutsDialog() {
  const [open, setOpen] = useState(false)
  // Once shown it stays mounted, so it can play its closing animation.
  const [shown, setShown] = useState(false)
  useShortcut('showShortcuts', () => {
    setShown(true)
    setOpen(true)
  })
  return shown ? (
    <Suspense fallback={null}>
      <ShortcutsDialogView open={open} setOpen={setOpen} />
    </Suspense>
  ) : null
}
