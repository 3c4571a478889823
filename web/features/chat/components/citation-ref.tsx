import { createContext, useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { onDemand, OnDemandTrigger } from '../../../lib/on-demand'
import type { SourcePassage } from '../lib/tool-data'

/** The source passages a reply's citations refer to (by index, as rehypeCitations marked them). */
export const CitationsContext = createContext<SourcePassage[]>([])

/** The passage's popover (./citation-popover.tsx), loaded on first use. */
const citationPopover = onDemand(() => import('./citation-popover'))

const HOVER_OPEN_MS = 250
const HOVER_CLOSE_MS = 200

/**
 * A citation in a reply, e.g. "(report.pdf, p. 3)": a click, Enter or a mouse resting on it
 * shows the passage it cites. A citation whose passage is unknown stays plain text.
 */
export function CitationRef({ index, children }: { index: number; children: ReactNode }) {
  const passage = useContext(CitationsContext)[index]
  const { t } = useTranslation('tools')
  const [open, setOpen] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  // Opened by a resting mouse: leaving closes it again (until it is clicked).
  const byHover = useRef(false)
  // Opened by a resting mouse: the focus stays where it is, also when it is clicked then (its
  // code may arrive with that click, so the popover takes the focus, or not, after it).
  const openedByHover = useRef(false)
  const id = useId()
  useEffect(() => () => clearTimeout(timer.current), [])

  if (!passage) return <cite className="not-italic">{children}</cite>

  const later = (ms: number, fn: () => void) => {
    clearTimeout(timer.current)
    timer.current = setTimeout(fn, ms)
  }
  const hoverIn = (e: { pointerType: string }) => {
    if (e.pointerType !== 'mouse') return
    if (open) return clearTimeout(timer.current)
    later(HOVER_OPEN_MS, () => {
      byHover.current = true
      openedByHover.current = true
      setOpen(true)
    })
  }
  const hoverOut = (e: { pointerType: string }) => {
    if (e.pointerType !== 'mouse') return
    if (!open) return clearTimeout(timer.current)
    if (byHover.current) later(HOVER_CLOSE_MS, () => setOpen(false))
  }

  const trigger = (
    <button
      type="button"
      data-print-keep
      onPointerEnter={hoverIn}
      onPointerLeave={hoverOut}
      onClick={(e) => {
        // Before the popover's code is there, the click is repeated on its trigger once it has
        // arrived (useOnDemandTrigger); a mouse resting on the citation meanwhile opens nothing more.
        if (!citationPopover.loaded()) return clearTimeout(timer.current)
        // A click on a passage the pointer opened keeps it open (Radix skips its toggle).
        if (!open || !byHover.current) return
        e.preventDefault()
        clearTimeout(timer.current)
        byHover.current = false
      }}
      aria-label={t('citation.show', { citation: passage.citation })}
      className="rounded-sm text-muted-foreground underline decoration-dotted underline-offset-[3px] outline-none transition-colors hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring data-[state=open]:text-foreground"
      data-testid="citation"
    >
      <cite className="not-italic">{children}</cite>
    </button>
  )
  return (
    <OnDemandTrigger
      part={citationPopover}
      opens="click"
      trigger={trigger}
      render={(parts, triggerRef) => (
        <parts.CitationPopover
          trigger={trigger}
          triggerRef={triggerRef}
          passage={passage}
          open={open}
          onOpenChange={(next) => {
            clearTimeout(timer.current)
            byHover.current = false
            openedByHover.current = false
            setOpen(next)
          }}
          openedByHover={() => openedByHover.current}
          onPointerEnter={hoverIn}
          onPointerLeave={hoverOut}
          labelId={`${id}-source`}
        />
      )}
    />
  )
}
