import type { ComponentProps } from 'react'
import { cn } from '../../lib/cn'

/** A placeholder block while a list or value loads (no spinners in lists). */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden className={cn('animate-pulse rounded-md bg-muted', className)} {...props} />
}
