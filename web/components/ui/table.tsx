import type { ComponentProps } from 'react'
import { cn } from '../../lib/cn'

/** A dense data table; narrow screens scroll it sideways instead of squeezing it. */
export function Table({ className, ...props }: ComponentProps<'table'>) {
  return (
    <div className="w-full overflow-x-auto">
      <table className={cn('w-full caption-bottom border-collapse text-sm', className)} {...props} />
    </div>
  )
}

export const TableHeader = ({ className, ...props }: ComponentProps<'thead'>) => (
  <thead className={cn('[&_tr]:border-b', className)} {...props} />
)
export const TableBody = ({ className, ...props }: ComponentProps<'tbody'>) => (
  <tbody className={cn('[&_tr:last-child]:border-0', className)} {...props} />
)
export const TableRow = ({ className, ...props }: ComponentProps<'tr'>) => (
  <tr className={cn('border-b transition-colors hover:bg-muted/40', className)} {...props} />
)
export const TableHead = ({ className, ...props }: ComponentProps<'th'>) => (
  <th
    className={cn('h-9 whitespace-nowrap px-2 text-left align-middle text-xs font-medium text-muted-foreground first:pl-4 last:pr-3 sm:px-3 sm:first:pl-5 sm:last:pr-5', className)}
    {...props}
  />
)
export const TableCell = ({ className, ...props }: ComponentProps<'td'>) => (
  <td className={cn('px-2 py-2.5 align-middle first:pl-4 last:pr-3 sm:px-3 sm:first:pl-5 sm:last:pr-5', className)} {...props} />
)
