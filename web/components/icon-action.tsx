import type { ReactNode } from 'react'
import { cn } from '../lib/cn'
import { Button } from './ui/button'
import { Tooltip } from './ui/tooltip'

/** An icon button of a card or a table row (edit, remove): its label is its accessible name and tooltip. */
export function IconAction(props: {
  label: string
  destructive?: boolean
  disabled?: boolean
  /** Where the tooltip opens: above on cards, to the left at the end of a row. */
  side?: 'top' | 'left'
  className?: string
  onClick: () => void
  children: ReactNode
}) {
  return (
    <Tooltip label={props.label} side={props.side ?? 'top'}>
      <Button
        variant="ghost"
        size="icon"
        aria-label={props.label}
        disabled={props.disabled}
        className={cn('text-muted-foreground', props.destructive && 'hover:text-destructive', props.className)}
        onClick={props.onClick}
      >
        {props.children}
      </Button>
    </Tooltip>
  )
}
