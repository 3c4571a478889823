/**
 * The clicks the page's first script kept while React did not take clicks yet (src/ssr/early-clicks.ts,
 * decision 0134), repeated once React has hydrated the page: in order, on the buttons still on the
 * page and enabled, each as a pointer's press, release and click (Radix opens a menu on the press,
 * a dialog on the click). Loaded only where a click was kept.
 */
export function replayEarlyClicks() {
  const kept = (window as EarlyClicks).__kontorClicks?.splice(0) ?? []
  document.documentElement.removeAttribute('data-early-click')
  for (const target of kept) {
    if (!(target instanceof HTMLElement) || !target.isConnected || (target as HTMLButtonElement).disabled || target.getAttribute('aria-disabled') === 'true') continue
    const init = { bubbles: true, cancelable: true, composed: true, button: 0, pointerId: 1, pointerType: 'mouse', isPrimary: true }
    target.dispatchEvent(new PointerEvent('pointerdown', { ...init, buttons: 1 }))
    target.dispatchEvent(new MouseEvent('mousedown', { ...init, buttons: 1 }))
    target.dispatchEvent(new PointerEvent('pointerup', init))
    target.dispatchEvent(new MouseEvent('mouseup', init))
    target.click()
  }
}

/** What the page's first script keeps on the window: the clicks, and whether React takes clicks itself. */
export type EarlyClicks = { __kontorClicks?: Element[]; __kontorLive?: boolean }
