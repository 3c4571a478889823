import type { ComponentProps, ReactNode } from 'react'
import { cn } from '../../../lib/cn'

/** A small icon button under a message (copy, edit, regenerate); its label is its accessible name and tooltip. */
export function ActionButton({ label, children, className, ...props }: ComponentProps<'button'> & { label: string; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      className={cn(
        'grid size-7 place-items-center rounded-md text-muted-foreground outline-none transition-colors hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:pointer-events-none disabled:opacity-40 [&_svg]:size-3.5',
        className,
      )}
      {...props}
    >
      {children}
    </button>
  )
}
