import * as Slot from '@radix-ui/react-slot'
import { createElement, useEffect, useRef, useState, type FocusEvent, type KeyboardEvent, type MouseEvent, type PointerEvent as ReactPointerEvent, type ReactElement, type Ref } from 'react'
import { onDemand, type OnDemand } from './lazy-part'

export { onDemand, type OnDemand } from './lazy-part'

/**
 * How a Radix trigger opens its part: a menu on pointer down and on Enter, Space or ArrowDown; a
 * dialog or popover on click. (A tooltip is no such part: ui/tooltip.tsx keeps its trigger.)
 */
export type Opens = 'menu' | 'click'

const MENU_KEYS = ['Enter', ' ', 'ArrowDown']

/** What a trigger carries before its part has arrived: the attributes Radix gives it when closed. */
const closed = { menu: { 'aria-haspopup': 'menu', 'aria-expanded': false, 'data-state': 'closed' }, click: { 'aria-haspopup': 'dialog', 'aria-expanded': false, 'data-state': 'closed' } } as const

/**
 * A trigger whose part (Radix Root, Trigger and Content) loads on first use. Until then the trigger
 * is rendered alone, with `placeholder`'s props: hover and focus fetch the part; an opening action
 * (pointer down, a key, a click) is remembered, the last one only. When the part arrives, the
 * trigger is rendered by it (a new element): the hook gives it back the focus and the hover it had,
 * and repeats the opening action on it once, so the part opens as if it had been there all along.
 *
 * Never while a pointer is pressed: from a press on the trigger until the click that ends it, the
 * old element stays, so the whole press, release and click reach one element (a click pressed on
 * one element and released on another reaches neither), and the action is repeated after it.
 */
export function useOnDemandTrigger<M>(part: OnDemand<M>, opens: Opens) {
  const [pressed, setPressed] = useState(false)
  const loaded = part.use()
  const parts = pressed ? undefined : loaded
  const ref = useRef<HTMLElement>(null)
  const was = useRef<{ focused: boolean; hovered: boolean; replay?: (el: HTMLElement) => void }>({ focused: false, hovered: false })

  // Runs after the part's own effects (its listeners are in place): children's effects come first.
  useEffect(() => {
    const el = ref.current
    const { focused, hovered, replay } = was.current
    was.current = { focused: false, hovered: false }
    if (!parts || !el) return
    // An opening action moves the focus into the part itself, and back to this trigger on close.
    if (focused && !replay && (!document.activeElement || document.activeElement === document.body)) el.focus({ preventScroll: true })
    // What shows the trigger's tooltip (ui/tooltip.tsx), as the pointer resting on it would.
    if (hovered) el.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, pointerType: 'mouse' }))
    replay?.(el)
    // A repeated action that opened nothing taking the focus (a popover the pointer had opened
    // meanwhile stays as it was): the focus the old trigger had stays with the new one.
    if (focused && replay && (!document.activeElement || document.activeElement === document.body)) el.focus({ preventScroll: true })
  }, [parts])

  // Once the user turns elsewhere (a press or a key outside the trigger, or the trigger's focus
  // leaving), an action not yet repeated is forgotten: a part that arrives late opens nothing.
  useEffect(() => {
    if (parts) return
    const elsewhere = (e: Event) => {
      if (was.current.replay && !(e.target instanceof Node && ref.current?.contains(e.target))) was.current.replay = undefined
    }
    document.addEventListener('pointerdown', elsewhere, true)
    document.addEventListener('keydown', elsewhere, true)
    return () => {
      document.removeEventListener('pointerdown', elsewhere, true)
      document.removeEventListener('keydown', elsewhere, true)
    }
  }, [parts])

  const fetch = () => void part.load()
  if (parts) return { parts, ref, placeholder: undefined }
  const placeholder = {
    ...closed[opens],
    onPointerEnter: (e: ReactPointerEvent) => {
      if (e.pointerType !== 'touch') was.current.hovered = true
      fetch()
    },
    onPointerLeave: () => void (was.current.hovered = false),
    onFocus: (e: FocusEvent) => {
      // Focus moving within the trigger's children is no focus of the trigger.
      if (e.target === e.currentTarget) was.current.focused = true
      fetch()
    },
    onBlur: (e: FocusEvent) => {
      // Focus moving within the trigger's children is no focus leaving it.
      if (e.currentTarget.contains(e.relatedTarget as Node | null)) return
      was.current.focused = false
      was.current.replay = undefined
    },
    onPointerDown: (e: ReactPointerEvent) => {
      // Released a task after the pointer is: after the click that follows pointerup.
      setPressed(true)
      const release = () => {
        document.removeEventListener('pointerup', release)
        document.removeEventListener('pointercancel', release)
        setTimeout(() => setPressed(false))
      }
      document.addEventListener('pointerup', release)
      document.addEventListener('pointercancel', release)
      fetch()
      if (opens !== 'menu' || e.button !== 0 || e.ctrlKey) return
      // As Radix does: the opened menu takes the focus, not the trigger.
      e.preventDefault()
      const { pointerType } = e
      was.current.replay = (el) => el.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, cancelable: true, button: 0, pointerType }))
    },
    ...(opens === 'menu' && {
      onKeyDown: (e: KeyboardEvent) => {
        if (!MENU_KEYS.includes(e.key)) return
        e.preventDefault()
        const { key } = e
        was.current.replay = (el) => el.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))
        fetch()
      },
    }),
    ...(opens === 'click' && {
      onClick: (e: MouseEvent) => {
        fetch()
        // A click the trigger's own handler prevented is one it handled (as Radix skips its toggle then).
        if (e.defaultPrevented) return
        was.current.replay = (el) => el.click()
      },
    }),
  }
  return { parts, ref, placeholder }
}

/** The trigger until its part has arrived: the element itself, with `useOnDemandTrigger`'s ref and placeholder props. */
export function PendingTrigger({ triggerRef, placeholder, children }: { triggerRef: Ref<HTMLElement>; placeholder: object | undefined; children: ReactElement }) {
  return createElement(Slot.Root, { ref: triggerRef, ...placeholder }, children)
}

/**
 * A trigger whose part loads on first use: `trigger` alone until the part has arrived (hovering or
 * focusing it fetches the part, an opening action is remembered: useOnDemandTrigger), then what
 * `render` makes of the part and the ref its Radix Trigger takes (with `trigger` as its child).
 */
export function OnDemandTrigger<M>(props: {
  part: OnDemand<M>
  opens: Opens
  trigger: ReactElement
  render: (parts: M, triggerRef: Ref<HTMLElement>) => ReactElement
}) {
  const { parts, ref, placeholder } = useOnDemandTrigger(props.part, props.opens)
  return parts ? props.render(parts, ref) : createElement(PendingTrigger, { triggerRef: ref, placeholder, children: props.trigger })
}
