import type { ExternalToast } from 'sonner'

type Sonner = typeof import('sonner')
type Message = Parameters<Sonner['toast']['success']>[0]

let ready: (sonner: Sonner) => void
/** Resolves once the toaster is on screen (web/components/toaster.tsx), so no toast is shown into the void. */
export const toasterReady = new Promise<Sonner>((resolve) => (ready = resolve))
export const toasterMounted = (sonner: Sonner) => ready(sonner)

const show = (kind: 'success' | 'error' | 'info') => (message: Message, options?: ExternalToast) => {
  void toasterReady.then((sonner) => sonner.toast[kind](message, options))
}

/**
 * sonner's toasts, without sonner in the pages' first scripts: the toaster loads after the page
 * is interactive, and a toast asked for before that appears as soon as it is there.
 */
export const toast = { success: show('success'), error: show('error'), info: show('info') }
