import { useState } from 'react'
import { lazyPart } from '../../../lib/lazy-part'

// The search (Radix Dialog, the results list) is not among the first scripts: it loads when it is
// first opened (Ctrl/⌘+K or the sidebar's button).
const SearchDialog = lazyPart(() => import('./search-dialog').then((m) => m.SearchDialog))

type Props = { open: boolean; onOpenChange: (open: boolean) => void }

/** SearchDialog, loaded the first time it opens. */
export function LazySearchDialog(props: Props) {
  // Once shown it stays mounted, so it can play its closing animation.
  const [shown, setShown] = useState(false)
  if (props.open && !shown) setShown(true)
  return props.open || shown ? <SearchDialog {...props} /> : null
}
