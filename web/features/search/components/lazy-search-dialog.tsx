import { lazy, Suspense, useState } from 'react'

// The search (Radix Dialog, the results list) is not among the first scripts: it loads when it is
// first opened (Ctrl/⌘+K or the sidebar's button).
const SearchDialog = lazy(() => import('./search-dialog').then((m) => ({ default: m.SearchDialog })))

type Props = { open: boolean; onOpenChange: (open: boolean) => void }

/** SearchDialog, loaded the first time it opens. */
export function LazySearchDialog(props: Props) {
  // Once shown it stays mounted, so it can play its closing animation.
  const [shown, setShown] = useState(false)
  if (props.open && !shown) setShown(true)
  return props.open || shown ? (
    <Suspense fallback={null}>
      <SearchDialog {...props} />
    </Suspense>
  ) : null
}
