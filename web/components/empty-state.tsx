import type { ReactNode } from 'react'
import { cn } from '../lib/cn'

/** An empty list: what it is for, and its first action. */
export function EmptyState(props: { icon: ReactNode; title: ReactNode; text: ReactNode; action?: ReactNode; className?: string }) {
  return (
    <div className={cn('flex flex-col items-center gap-3 rounded-xl border border-dashed px-6 py-12 text-center', props.className)}>
      <div aria-hidden className="grid size-11 place-items-center rounded-full bg-muted text-muted-foreground [&_svg]:size-5">
        {props.icon}
      </div>
      <h2 className="font-medium">{props.title}</h2>
      <p className="max-w-md text-sm text-muted-foreground">{props.text}</p>
      {props.action}
    </div>
  )
}
