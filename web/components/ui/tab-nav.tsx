import { Link, type LinkProps } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { cn } from '../../lib/cn'

/** Tabs that are links to child routes: the router marks the current one (aria-current="page"). */
export function TabNav(props: { label: string; children: ReactNode; className?: string }) {
  return (
    <nav aria-label={props.label} className={cn('-mb-px flex gap-1 overflow-x-auto border-b', props.className)}>
      {props.children}
    </nav>
  )
}

export function TabLink({ className, children, ...props }: LinkProps & { className?: string; children: ReactNode }) {
  return (
    <Link
      {...props}
      className={cn(
        'relative inline-flex h-9 shrink-0 items-center whitespace-nowrap rounded-t-md border-b-2 border-transparent px-3 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring data-[status=active]:border-foreground data-[status=active]:text-foreground',
        className,
      )}
    >
      {children}
    </Link>
  )
}
