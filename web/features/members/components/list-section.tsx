import type { ReactNode } from 'react'
import { Card } from '../../../components/ui/card'
import { Skeleton } from '../../../components/ui/skeleton'

/** A titled card holding one list of the users page, with its main action on the right. */
export function ListSection(props: { id: string; title: ReactNode; description?: ReactNode; action?: ReactNode; children: ReactNode }) {
  return (
    <Card aria-labelledby={`${props.id}-title`} role="region" className="overflow-hidden shadow-none">
      <div className="flex flex-wrap items-start justify-between gap-3 border-b px-4 py-4 sm:px-5">
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

/** Placeholder rows while a list loads: the shape of the table, no spinner. */
export function TableSkeleton(props: { rows?: number; label: string }) {
  return (
    <div role="status" aria-label={props.label} className="divide-y">
      {Array.from({ length: props.rows ?? 3 }, (_, i) => (
        <div key={i} className="flex items-center gap-4 px-4 py-3 sm:px-5">
          <div className="grid flex-1 gap-1.5">
            <Skeleton className="h-4 w-36 max-w-full" />
            <Skeleton className="h-3 w-52 max-w-full" />
          </div>
          <Skeleton className="h-8 w-24 shrink-0" />
          <Skeleton className="hidden h-4 w-20 shrink-0 sm:block" />
          <Skeleton className="size-8 shrink-0" />
        </div>
      ))}
    </div>
  )
}
