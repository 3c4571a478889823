import type { ReactNode } from 'react'
import { Card } from '../../../components/ui/card'
import { Skeleton } from '../../../components/ui/skeleton'
import { cn } from '../../../lib/cn'

/** A titled card of the models screens, with an optional action or control on the right. */
export function ModelsSection(props: {
  id: string
  title: ReactNode
  description?: ReactNode
  action?: ReactNode
  children: ReactNode
  className?: string
}) {
  return (
    <Card id={props.id} aria-labelledby={`${props.id}-title`} role="region" className={cn('scroll-mt-6 overflow-hidden shadow-none', props.className)}>
      <div className="flex flex-wrap items-start justify-between gap-3 border-b px-5 py-4">
        <div className="grid min-w-0 flex-1 basis-64 gap-1">
          <h2 id={`${props.id}-title`} className="text-[15px] font-semibold leading-tight">
            {props.title}
          </h2>
          {props.description && <p className="text-sm text-muted-foreground">{props.description}</p>}
        </div>
        {props.action}
      </div>
      {props.children}
    </Card>
  )
}

/** What an empty list is for, with its first action. */
export function EmptyState(props: { icon: ReactNode; title: ReactNode; text: ReactNode; action?: ReactNode; className?: string }) {
  return (
    <div className={cn('flex flex-col items-center gap-3 px-6 py-10 text-center', props.className)}>
      <div aria-hidden className="grid size-11 place-items-center rounded-full bg-muted text-muted-foreground [&_svg]:size-5">
        {props.icon}
      </div>
      <h3 className="font-medium">{props.title}</h3>
      <p className="max-w-md text-sm text-muted-foreground">{props.text}</p>
      {props.action}
    </div>
  )
}

/** Placeholder rows while a list loads: its shape, no spinner. */
export function RowsSkeleton(props: { rows?: number; label: string }) {
  return (
    <div role="status" aria-label={props.label} className="divide-y">
      {Array.from({ length: props.rows ?? 3 }, (_, i) => (
        <div key={i} className="flex items-center gap-4 px-5 py-3">
          <div className="grid flex-1 gap-1.5">
            <Skeleton className="h-4 w-40 max-w-full" />
            <Skeleton className="h-3 w-56 max-w-full" />
          </div>
          <Skeleton className="hidden h-5 w-20 shrink-0 rounded-full sm:block" />
          <Skeleton className="h-8 w-20 shrink-0" />
        </div>
      ))}
    </div>
  )
}
