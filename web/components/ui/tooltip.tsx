import * as Slot from '@radix-ui/react-slot'
import {
  Children,
  cloneElement,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type HTMLAttributes,
  type ReactElement,
  type ReactNode,
  type Ref,
  type SyntheticEvent,
} from 'react'
import { createPortal } from 'react-dom'
import { cn } from '../../lib/cn'

type Side = 'top' | 'right' | 'bottom' | 'left'

export type TooltipProps = { label: ReactNode; side?: Side; disabled?: boolean; className?: string; children: ReactNode }

/** Hover waits this long before a tooltip shows; within as long after one closed, the next shows at once. */
const DELAY = 300
/** A pointer that leaves the trigger has this long to reach the bubble (which it may hover, WCAG 1.4.13) before it closes. */
const CLOSE_GRACE = 150
const GAP = 6
const PADDING = 8

// One tooltip at a time, as Radix's provider did.
let closeShown: (() => void) | undefined
let lastClosed = 0

/**
 * A short label on hover and keyboard focus; pass `disabled` to show none. The child is rendered as
 * it is, always the same element (decision 0089): the tooltip adds its handlers to it and, while it
 * shows, a `role="tooltip"` bubble in a portal next to it, named by the child's `aria-describedby`.
 * Like Radix's tooltip it shows after 300 ms of hover (at once on keyboard focus, and at once when
 * another one closed less than 300 ms ago), stays while the pointer is on the child or on the
 * bubble itself (so that it can be read with a magnifier, WCAG 1.4.13), and closes when the
 * pointer leaves both, on blur, press, click, Escape and when the page under it scrolls. Other
 * props (a wrapping trigger's handlers, attributes and ref) go to the child too.
 */
export function Tooltip({
  label,
  side = 'right',
  disabled,
  className,
  children,
  ref,
  ...rest
}: TooltipProps & HTMLAttributes<HTMLElement> & { ref?: Ref<HTMLElement> }) {
  const id = useId()
  const [open, setOpen] = useState(false)
  const anchor = useRef<HTMLElement | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  const closing = useRef<ReturnType<typeof setTimeout>>(undefined)
  // As in Radix: the pointer's first move over the child starts the delay; once it showed (or was
  // closed by a press or click) it shows again only after the pointer left. The focus that a
  // press gives shows nothing.
  const moved = useRef(false)
  const pressing = useRef(false)

  const setRef = useCallback(
    (el: HTMLElement | null) => {
      anchor.current = el
      if (typeof ref === 'function') ref(el)
      else if (ref) ref.current = el
    },
    [ref],
  )

  const close = useCallback(() => {
    clearTimeout(timer.current)
    clearTimeout(closing.current)
    setOpen((was) => {
      if (was) lastClosed = Date.now()
      return false
    })
  }, [])
  const show = () => {
    clearTimeout(timer.current)
    if (disabled) return
    if (closeShown !== close) closeShown?.()
    closeShown = close
    setOpen(true)
  }
  /** The pointer left the child or the bubble: it closes unless the pointer reaches the other in time. */
  const closeSoon = () => {
    clearTimeout(timer.current)
    clearTimeout(closing.current)
    closing.current = setTimeout(close, CLOSE_GRACE)
  }
  const stay = () => clearTimeout(closing.current)
  const showLater = () => {
    if (disabled || moved.current) return
    moved.current = true
    stay()
    if (open) return
    if (Date.now() - lastClosed < DELAY) show()
    else timer.current = setTimeout(show, DELAY)
  }

  useEffect(() => {
    if (disabled) close()
  }, [disabled, close])
  useEffect(
    () => () => {
      clearTimeout(timer.current)
      clearTimeout(closing.current)
      if (closeShown === close) closeShown = undefined
    },
    [close],
  )
  useEffect(() => {
    if (!open) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close()
    const onScroll = (e: Event) => e.target instanceof Node && anchor.current && e.target.contains(anchor.current) && close()
    document.addEventListener('keydown', onKey)
    window.addEventListener('scroll', onScroll, { capture: true, passive: true })
    return () => {
      document.removeEventListener('keydown', onKey)
      window.removeEventListener('scroll', onScroll, { capture: true })
    }
  }, [open, close])

  // Runs the wrapping trigger's handler (given in `rest`), then the tooltip's.
  const also =
    <E extends SyntheticEvent>(theirs: ((e: E) => void) | undefined, ours: (e: E) => void) =>
    (e: E) => {
      theirs?.(e)
      ours(e)
    }

  const child = Children.only(children) as ReactElement<{ 'aria-describedby'?: string }>
  const describedBy = [child.props['aria-describedby'], rest['aria-describedby'], open && !disabled && id].filter(Boolean).join(' ') || undefined
  return (
    <>
      <Slot.Root
        {...rest}
        ref={setRef}
        onPointerMove={also(rest.onPointerMove, (e) => e.pointerType !== 'touch' && showLater())}
        onPointerLeave={also(rest.onPointerLeave, () => {
          moved.current = false
          closeSoon()
        })}
        onPointerDown={also(rest.onPointerDown, () => {
          pressing.current = true
          // A press ends with its pointer up, or cancelled (a touch that turns into a scroll).
          const released = () => {
            pressing.current = false
            document.removeEventListener('pointerup', released)
            document.removeEventListener('pointercancel', released)
          }
          document.addEventListener('pointerup', released)
          document.addEventListener('pointercancel', released)
          close()
        })}
        onFocus={also(rest.onFocus, (e) => {
          // Not focus moving within the child.
          if (!pressing.current && e.target === e.currentTarget) show()
        })}
        onBlur={also(rest.onBlur, close)}
        onClick={also(rest.onClick, close)}
      >
        {/* The same element with one more attribute: React keeps its node. */}
        {cloneElement(child, { 'aria-describedby': describedBy })}
      </Slot.Root>
      {open && !disabled && anchor.current && (
        <Bubble id={id} anchor={anchor.current} side={side} className={className} onPointerEnter={stay} onPointerLeave={closeSoon}>
          {label}
        </Bubble>
      )}
    </>
  )
}

const opposite = { top: 'bottom', bottom: 'top', left: 'right', right: 'left' } as const

/** The tooltip itself: fixed next to its anchor on `side`, or on the other side when it does not fit there; kept within the viewport. */
function Bubble(props: { id: string; anchor: HTMLElement; side: Side; className?: string; children: ReactNode; onPointerEnter: () => void; onPointerLeave: () => void }) {
  const ref = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => {
    const bubble = ref.current
    if (!bubble) return
    const a = props.anchor.getBoundingClientRect()
    const { offsetWidth: w, offsetHeight: h } = bubble
    const vw = document.documentElement.clientWidth
    const vh = document.documentElement.clientHeight
    const fits = (s: Side) =>
      s === 'top' ? a.top - GAP - h >= PADDING : s === 'bottom' ? a.bottom + GAP + h <= vh - PADDING : s === 'left' ? a.left - GAP - w >= PADDING : a.right + GAP + w <= vw - PADDING
    const side = fits(props.side) || !fits(opposite[props.side]) ? props.side : opposite[props.side]
    const vertical = side === 'top' || side === 'bottom'
    let left = vertical ? a.left + (a.width - w) / 2 : side === 'left' ? a.left - GAP - w : a.right + GAP
    let top = vertical ? (side === 'top' ? a.top - GAP - h : a.bottom + GAP) : a.top + (a.height - h) / 2
    left = Math.max(PADDING, Math.min(left, vw - PADDING - w))
    top = Math.max(PADDING, Math.min(top, vh - PADDING - h))
    bubble.style.left = `${left}px`
    bubble.style.top = `${top}px`
    bubble.style.visibility = 'visible'
    bubble.dataset.side = side
  }, [props.anchor, props.side, props.children])
  return createPortal(
    <div
      ref={ref}
      id={props.id}
      role="tooltip"
      style={{ position: 'fixed', left: 0, top: 0, visibility: 'hidden' }}
      onPointerEnter={props.onPointerEnter}
      onPointerLeave={props.onPointerLeave}
      className={cn('z-50 w-max max-w-[calc(100vw-16px)] rounded-md bg-foreground px-2 py-1 text-xs font-medium text-background shadow-md', props.className)}
    >
      {props.children}
    </div>,
    document.body,
  )
}
