import { useEffect, useState, type ComponentType } from 'react'

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

type SonnerToaster = ComponentType<{ position: 'top-right'; theme: 'light'; richColors: boolean; closeButton: boolean }>

/**
 * Mounted once in the root layout; renders nothing on the server or before hydration, and the host
 * once its chunk has arrived. Not with React.lazy: a Suspense fallback shown as the page hydrates
 * holds back the page's own retried boundaries by up to 300 ms (decision 0133).
 */
export function ToasterHost() {
  const [Toaster, setToaster] = useState<SonnerToaster | null>(null)
  useEffect(() => {
    let live = true
    void loadSonner().then((m) => live && setToaster(() => m.Toaster))
    return () => void (live = false)
  }, [])
  return Toaster ? (
    <>
      <Toaster position="top-right" theme="light" richColors closeButton />
      <Subscribed />
    </>
  ) : null
}
