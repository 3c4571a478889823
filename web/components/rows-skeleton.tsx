import { Skeleton } from './ui/skeleton'

/** Placeholder rows while a list loads: its shape, no spinner. */
export function RowsSkeleton(props: { rows?: number; label: string }) {
  return (
    <div role="status" aria-label={props.label} className="divide-y">
      {Array.from({ length: props.rows ?? 3 }, (_, i) => (
        <div key={i} className="flex items-center gap-4 px-4 py-3 sm:px-5">
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
