import type { ReactNode } from 'react'
import { cn } from '../lib/cn'

/**
 * An empty list: what it is for, and its first action. On a page it stands alone (a dashed
 * frame); `inset` inside a section card, whose title is the heading above it.
 */
export function EmptyState(props: { icon: ReactNode; title: ReactNode; text: ReactNode; action?: ReactNode; inset?: boolean; className?: string }) {
  const Heading = props.inset ? 'h3' : 'h2'
  return (
    <div
      className={cn(
        'flex flex-col items-center gap-3 px-6 text-center',
        props.inset ? 'py-10' : 'rounded-xl border border-dashed py-12',
        props.className,
      )}
    >
      <div aria-hidden className="grid size-11 place-items-center rounded-full bg-muted text-muted-foreground [&_svg]:size-5">
        {props.icon}
      </div>
      <Heading className="font-medium">{props.title}</Heading>
      <p className="max-w-md text-sm text-muted-foreground">{props.text}</p>
      {props.action}
    </div>
  )
}
