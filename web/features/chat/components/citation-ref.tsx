import { createContext, useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Popover, PopoverContent, PopoverTrigger } from '../../../components/ui/popover'
import type { SourcePassage } from '../lib/tool-data'
import { PageLabel } from './page-label'

/** The source passages a reply's citations refer to (by index, as rehypeCitations marked them). */
export const CitationsContext = createContext<SourcePassage[]>([])

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
  // Opened by a resting mouse: focus stays where it is, and leaving closes it again.
  const byHover = useRef(false)
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
      setOpen(true)
    })
  }
  const hoverOut = (e: { pointerType: string }) => {
    if (e.pointerType !== 'mouse') return
    if (!open) return clearTimeout(timer.current)
    if (byHover.current) later(HOVER_CLOSE_MS, () => setOpen(false))
  }

  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        clearTimeout(timer.current)
        byHover.current = false
        setOpen(next)
      }}
    >
      <PopoverTrigger asChild>
        <button
          type="button"
          data-print-keep
          onPointerEnter={hoverIn}
          onPointerLeave={hoverOut}
          onClick={(e) => {
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
      </PopoverTrigger>
      <PopoverContent
        className="w-96 p-0 text-sm"
        onOpenAutoFocus={(e) => {
          if (byHover.current) e.preventDefault()
        }}
        onPointerEnter={hoverIn}
        onPointerLeave={hoverOut}
        aria-labelledby={`${id}-source`}
        data-testid="citation-passage"
      >
        <div className="border-b px-3 py-2">
          <div id={`${id}-source`} className="break-all font-medium">
            {passage.collectionName ? `${passage.collectionName} › ${passage.sourceName}` : passage.sourceName}
          </div>
          <div className="text-xs text-muted-foreground">
            <PageLabel passage={passage} />
            {passage.headingPath && ` · ${passage.headingPath}`}
          </div>
        </div>
        <p tabIndex={0} className="max-h-72 overflow-y-auto whitespace-pre-wrap break-words px-3 py-2 leading-relaxed outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring">
          {passage.text ?? <span className="italic text-muted-foreground">{t('citation.noText')}</span>}
        </p>
      </PopoverContent>
    </Popover>
  )
}
