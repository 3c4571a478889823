import { useEffect } from 'react'
import { lazyPart } from '../lib/lazy-part'

// sonner (its toasts and their host) is loaded once the page is interactive, not before: no page
// needs it to render, and it would add ~10 KB gzip to every first load.
const loadSonner = () => import('sonner')

// Resolved once the host has subscribed to sonner's store: a toast sent earlier would be lost.
let markReady: () => void = () => {}
const ready = new Promise<void>((resolve) => (markReady = resolve))

type Message = Parameters<typeof import('sonner').toast.success>[0]
type Options = Parameters<typeof import('sonner').toast.success>[1]
type Kind = 'success' | 'error' | 'info'

const show = (kind: Kind) => (message: Message, options?: Options) => {
  void Promise.all([loadSonner(), ready]).then(([{ toast: sonner }]) => sonner[kind](message, options))
}

/** Shows a toast; the same calls as sonner's `toast`, which this loads on first use. */
export const toast = { success: show('success'), error: show('error'), info: show('info') }

/** Its effect runs after sonner's own (children's effects run first), so sonner listens by then. */
function Subscribed() {
  useEffect(() => markReady(), [])
  return null
}

/**
 * Mounted once in the root layout: renders nothing on the server or while the page hydrates, and
 * the host once sonner's chunk has arrived (tried again after a failure, lazyPart). Not with
 * React.lazy: a Suspense fallback shown as the page hydrates holds back the page's own retried
 * boundaries by up to 300 ms (decision 0133).
 */
export const ToasterHost = lazyPart(() =>
  loadSonner().then(({ Toaster }) => {
    function SonnerHost() {
      return (
        <>
          <Toaster position="top-right" theme="light" richColors closeButton />
          <Subscribed />
        </>
      )
    }
    return SonnerHost
  }),
)
