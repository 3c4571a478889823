import type { ReactNode } from 'react'
import { Card } from '../../../components/ui/card'
import { Skeleton } from '../../../components/ui/skeleton'
import { cn } from '../../../lib/cn'

/** A labelled value of a summary list (`<dl>`). */
export function Fact(props: { label: ReactNode; children: ReactNode; className?: string }) {
  return (
    <div className={cn('grid min-w-0 content-start gap-1', props.className)}>
      <dt className="text-[13px] text-muted-foreground">{props.label}</dt>
      <dd className="text-sm font-medium">{props.children}</dd>
    </div>
  )
}

/** The shape of a section while the page loads (whether there is a subscription is not known yet): no spinner. */
export function SectionSkeleton(props: { lines?: number; label: string }) {
  return (
    <Card role="status" aria-label={props.label} className="overflow-hidden shadow-none">
      <div className="grid gap-2 border-b px-4 py-4 sm:px-5">
        <Skeleton className="h-4 w-32" />
        <Skeleton className="h-3 w-72 max-w-full" />
      </div>
      <div className="grid gap-4 px-4 py-4 sm:grid-cols-2 sm:px-5">
        {Array.from({ length: props.lines ?? 4 }, (_, i) => (
          <div key={i} className="grid gap-1.5">
            <Skeleton className="h-3 w-24" />
            <Skeleton className="h-4 w-40 max-w-full" />
          </div>
        ))}
      </div>
    </Card>
  )
}
