/**
 * What the page's first script kept while React did not take it yet (src/ssr/early-clicks.ts,
 * decision 0134), done once React has hydrated it: in order, each only if its button or form is
 * still on the page (and the button enabled). A click is repeated as a pointer's press, release and
 * click (Radix opens a menu on the press, a dialog on the click); a form is sent with the button
 * that sent it (`requestSubmit`). A part of the page may hydrate later than the rest (a reply with
 * code waits for the highlighter's code, decision 0133): what was done in it waits for it, up to
 * HYDRATION_WAIT_MS, and the page keeps its busy pointer until the last one is done. Loaded only
 * where something was kept.
 */
export async function replayEarlyClicks() {
  const kept = (window as EarlyClicks).__kontorClicks?.splice(0) ?? []
  try {
    for (const item of kept) {
      try {
        await replay(item)
      } catch (error) {
        reportError(error)
      }
    }
  } finally {
    document.documentElement.removeAttribute('data-early-click')
  }
}

async function replay(item: Element | KeptForm) {
  const target = item instanceof Element ? item : item.form
  const until = performance.now() + HYDRATION_WAIT_MS
  while (target.isConnected && !hydrated(target) && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 50))
  if (!target.isConnected || !hydrated(target)) return
  if (!(item instanceof Element)) {
    const submitter = item.submitter?.isConnected && item.form.contains(item.submitter) ? item.submitter : null
    // Pressed again meanwhile (its form is on its way): sent once.
    if ((submitter as HTMLButtonElement | null)?.disabled) return
    item.form.requestSubmit(submitter)
    return
  }
  if (!(target instanceof HTMLElement) || (target as HTMLButtonElement).disabled || target.getAttribute('aria-disabled') === 'true') return
  const init = { bubbles: true, cancelable: true, composed: true, button: 0, pointerId: 1, pointerType: 'mouse', isPrimary: true }
  target.dispatchEvent(new PointerEvent('pointerdown', { ...init, buttons: 1 }))
  target.dispatchEvent(new MouseEvent('mousedown', { ...init, buttons: 1 }))
  target.dispatchEvent(new PointerEvent('pointerup', init))
  target.dispatchEvent(new MouseEvent('mouseup', init))
  target.click()
}

/** How long a kept click or form waits for React to hydrate it. */
const HYDRATION_WAIT_MS = 10_000

/**
 * Whether React has hydrated an element: it puts the element's props on it (React's own key,
 * `__reactProps$…`) as it hydrates it. Set while React renders, before it commits: a part that
 * then suspends after this element keeps the server's HTML, and a click React gets there is lost.
 * The parts that wait for code (a reply's renderer, decision 0133) suspend before any of their elements.
 */
const hydrated = (element: Element) => Object.keys(element).some((key) => key.startsWith('__reactProps$'))

/** A form sent before the script ran, with the button that sent it (none where Enter sent a form without one). */
type KeptForm = { form: HTMLFormElement; submitter: HTMLElement | null }

/** What the page's first script keeps on the window (src/ssr/early-clicks.ts): the buttons clicked and forms sent, and whether React takes them itself. */
export type EarlyClicks = { __kontorClicks?: Array<Element | KeptForm>; __kontorLive?: boolean }
