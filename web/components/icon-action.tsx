import type { ReactNode } from 'react'
import { Button } from './ui/button'
import { Tooltip } from './ui/tooltip'

/** An icon button of a card or row (edit, delete): its label is its accessible name and tooltip. */
export function IconAction(props: { label: string; destructive?: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <Tooltip label={props.label} side="top">
      <Button
        variant="ghost"
        size="icon"
        aria-label={props.label}
        className={props.destructive ? 'size-8 text-muted-foreground hover:text-destructive' : 'size-8 text-muted-foreground'}
        onClick={props.onClick}
      >
        {props.children}
      </Button>
    </Tooltip>
  )
}
