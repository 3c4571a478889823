/**
 * The clicks and forms the page's first script kept while React did not take them yet
 * (src/ssr/early-clicks.ts, decision 0134), done once React has hydrated them: in order, each on its
 * button or form if it is still on the page (a button also enabled), a click as a pointer's press,
 * release and click (Radix opens a menu on the press, a dialog on the click), a form sent as its
 * submit button would send it (`requestSubmit`). A part of the page may hydrate later than the rest (a reply
 * with code waits for the highlighter's code, decision 0133): its button's click waits for it, up to
 * HYDRATION_WAIT_MS, and the page keeps its busy pointer until the last click is done. Loaded only
 * where a click was kept.
 */
export async function replayEarlyClicks() {
  const kept = (window as EarlyClicks).__kontorClicks?.splice(0) ?? []
  try {
    for (const target of kept) {
      if (!(target instanceof HTMLElement)) continue
      const until = performance.now() + HYDRATION_WAIT_MS
      while (target.isConnected && !hydrated(target) && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 50))
      if (!target.isConnected || !hydrated(target)) continue
      if (target instanceof HTMLFormElement) {
        target.requestSubmit()
        continue
      }
      if ((target as HTMLButtonElement).disabled || target.getAttribute('aria-disabled') === 'true') continue
      const init = { bubbles: true, cancelable: true, composed: true, button: 0, pointerId: 1, pointerType: 'mouse', isPrimary: true }
      target.dispatchEvent(new PointerEvent('pointerdown', { ...init, buttons: 1 }))
      target.dispatchEvent(new MouseEvent('mousedown', { ...init, buttons: 1 }))
      target.dispatchEvent(new PointerEvent('pointerup', init))
      target.dispatchEvent(new MouseEvent('mouseup', init))
      target.click()
    }
  } finally {
    document.documentElement.removeAttribute('data-early-click')
  }
}

/** How long a kept click waits for its button to be hydrated. */
const HYDRATION_WAIT_MS = 10_000

/** Whether React has hydrated an element: it keeps the element's props on it (React's own key, `__reactProps$…`). */
const hydrated = (element: Element) => Object.keys(element).some((key) => key.startsWith('__reactProps$'))

/** What the page's first script keeps on the window (src/ssr/early-clicks.ts): the buttons clicked and forms sent, and whether React takes them itself. */
export type EarlyClicks = { __kontorClicks?: Element[]; __kontorLive?: boolean }
