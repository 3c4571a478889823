import { cva, type VariantProps } from 'class-variance-authority'
import type { ComponentProps } from 'react'
import { cn } from '../../lib/cn'

export const badgeVariants = cva(
  'inline-flex items-center whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-medium leading-4',
  {
    variants: {
      variant: {
        neutral: 'border-border bg-muted text-muted-foreground',
        info: 'border-sky-600/25 bg-sky-600/10 text-sky-800 dark:text-sky-300',
        success: 'border-emerald-600/25 bg-emerald-600/10 text-emerald-800 dark:text-emerald-300',
        warning: 'border-amber-600/30 bg-amber-500/10 text-amber-800 dark:text-amber-300',
        danger: 'border-destructive/30 bg-destructive/10 text-destructive dark:text-red-300',
      },
    },
    defaultVariants: { variant: 'neutral' },
  },
)

/** A short status label. */
export function Badge({ className, variant, ...props }: ComponentProps<'span'> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ variant }), className)} {...props} />
}
