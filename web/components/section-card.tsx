import type { ReactNode } from 'react'
import { cn } from '../lib/cn'
import { Card } from './ui/card'

/**
 * A titled card of a settings, billing, members or models page, with an optional control on the
 * right and a footer. Lists fill it edge to edge (`flush`); anything else gets the card's padding.
 */
export function SectionCard(props: {
  id: string
  title: ReactNode
  description?: ReactNode
  action?: ReactNode
  footer?: ReactNode
  flush?: boolean
  children: ReactNode
  className?: string
}) {
  return (
    <Card id={props.id} aria-labelledby={`${props.id}-title`} role="region" className={cn('scroll-mt-6 overflow-hidden shadow-none', props.className)}>
      <div className="flex flex-wrap items-start justify-between gap-3 border-b px-4 py-4 sm:px-5">
        <div className="grid min-w-0 flex-1 basis-64 gap-1">
          <h2 id={`${props.id}-title`} className="flex flex-wrap items-center gap-2 text-[15px] font-semibold leading-tight">
            {props.title}
          </h2>
          {props.description && <p className="text-sm text-muted-foreground">{props.description}</p>}
        </div>
        {props.action}
      </div>
      {props.flush ? props.children : <div className="px-4 py-4 sm:px-5">{props.children}</div>}
      {props.footer && (
        <div className="flex flex-wrap items-center justify-between gap-3 border-t bg-muted/30 px-4 py-3 sm:px-5">{props.footer}</div>
      )}
    </Card>
  )
}
