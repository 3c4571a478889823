import { lazy, Suspense, useEffect, useState } from 'react'
import { toasterMounted } from '../lib/toast'

const LoadedToaster = lazy(async () => {
  const sonner = await import('sonner')
  function Toaster() {
    // Runs after sonner's own effects (children first), so its toaster is listening by now.
    useEffect(() => toasterMounted(sonner), [])
    return <sonner.Toaster position="top-right" theme="light" richColors closeButton />
  }
  return { default: Toaster }
})

/**
 * Mounted once in the root layout. It renders nothing on the server and in the first render of
 * the browser (so hydration matches), then loads the toaster: no toast is needed before that.
 */
export function AppToaster() {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  return hydrated ? (
    <Suspense fallback={null}>
      <LoadedToaster />
    </Suspense>
  ) : null
}
