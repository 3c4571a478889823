import { useSyncExternalStore } from 'react'
import { flushSync } from 'react-dom'

/*
 * Whether the page is being printed. The message list is virtualised (only what is on screen is in
 * the DOM), so while printing it lays out every loaded message instead; the switch must land
 * before the browser lays out the printed pages, hence flushSync in the print events.
 */
let printing = false
const listeners = new Set<() => void>()

function setPrinting(value: boolean) {
  if (printing === value) return
  printing = value
  flushSync(() => listeners.forEach((listener) => listener()))
}

let wired = false
function wire() {
  if (wired || typeof window === 'undefined') return
  wired = true
  const media = window.matchMedia('print')
  media.addEventListener('change', () => setPrinting(media.matches))
  window.addEventListener('beforeprint', () => setPrinting(true))
  window.addEventListener('afterprint', () => setPrinting(media.matches))
}

const subscribe = (listener: () => void) => {
  wire()
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function usePrinting() {
  return useSyncExternalStore(subscribe, () => printing, () => false)
}

/** Opens the browser's print dialog (and with it Save as PDF) once `prepare` has loaded what is to be printed. */
export async function printPage(prepare: () => Promise<unknown>) {
  await prepare()
  setPrinting(true)
  // Two frames: the full list is laid out and painted, fonts and math included, before printing.
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
  await document.fonts?.ready
  window.print()
}
