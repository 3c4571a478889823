import { ChevronDown } from '../icons'
import type { ComponentProps } from 'react'
import { cn } from '../../lib/cn'

/** The browser's own select, styled like Input: keyboard, mobile pickers and screen readers for free. */
export function NativeSelect({ className, children, ...props }: ComponentProps<'select'>) {
  return (
    <div className={cn('relative', className)}>
      <select
        className="h-9 w-full cursor-pointer appearance-none rounded-md border border-input bg-background py-1 pl-3 pr-8 text-sm shadow-xs transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive"
        {...props}
      >
        {children}
      </select>
      <ChevronDown aria-hidden className="pointer-events-none absolute right-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
    </div>
  )
}
