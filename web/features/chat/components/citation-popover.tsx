import type { ReactElement, Ref } from 'react'
import { useTranslation } from 'react-i18next'
import { Popover, PopoverContent, PopoverTrigger } from '../../../components/ui/popover'
import type { SourcePassage } from '../lib/tool-data'
import { PageLabel } from './page-label'

/**
 * The passage a citation cites, in a popover (Radix Popover with floating-ui): loaded when a
 * citation is first hovered, focused or pressed (citation-ref.tsx, decision 0132).
 */
export function CitationPopover(props: {
  trigger: ReactElement
  triggerRef: Ref<HTMLElement>
  passage: SourcePassage
  open: boolean
  onOpenChange: (open: boolean) => void
  /** Opened by a resting mouse: the focus stays where it is. */
  openedByHover: () => boolean
  onPointerEnter: (e: { pointerType: string }) => void
  onPointerLeave: (e: { pointerType: string }) => void
  labelId: string
}) {
  const { t } = useTranslation('tools')
  const { passage } = props
  return (
    <Popover open={props.open} onOpenChange={props.onOpenChange}>
      <PopoverTrigger asChild ref={props.triggerRef as Ref<HTMLButtonElement>}>
        {props.trigger}
      </PopoverTrigger>
      <PopoverContent
        className="w-96 p-0 text-sm"
        onOpenAutoFocus={(e) => {
          if (props.openedByHover()) e.preventDefault()
        }}
        onPointerEnter={props.onPointerEnter}
        onPointerLeave={props.onPointerLeave}
        aria-labelledby={props.labelId}
        data-testid="citation-passage"
      >
        <div className="border-b px-3 py-2">
          <div id={props.labelId} className="break-all font-medium">
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
