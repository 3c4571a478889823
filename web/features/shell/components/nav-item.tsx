import { Link, type LinkProps } from '@tanstack/react-router'
import type { ComponentProps, ReactNode } from 'react'
import { Tooltip } from '../../../components/ui/tooltip'
import { cn } from '../../../lib/cn'

/** Shared look of every sidebar row; on the collapsed rail only the icon stays visible. */
export const navItemClass =
  'flex h-9 w-full min-w-0 items-center gap-2.5 rounded-md px-2.5 text-left text-sm text-sidebar-foreground/85 outline-none transition-colors hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-ring data-[active=true]:bg-sidebar-accent data-[active=true]:font-medium data-[active=true]:text-sidebar-accent-foreground rail:justify-center rail:px-0 [&_svg]:size-4 [&_svg]:shrink-0'

export function NavLabel(props: { children: ReactNode }) {
  return <span className="truncate rail:sr-only">{props.children}</span>
}

type NavLinkProps = Pick<LinkProps, 'to' | 'search'> & {
  icon: ReactNode
  label: string
  active?: boolean
  /** Tooltips only on the collapsed rail, where the label is not visible. */
  collapsed?: boolean
  onNavigate?: () => void
  className?: string
}

export function NavLink({ to, search, icon, label, active, collapsed, onNavigate, className }: NavLinkProps) {
  return (
    <Tooltip label={label} disabled={!collapsed}>
      <Link
        to={to}
        search={search}
        data-active={active ? 'true' : undefined}
        aria-current={active ? 'page' : undefined}
        onClick={onNavigate}
        className={cn(navItemClass, className)}
      >
        {icon}
        <NavLabel>{label}</NavLabel>
      </Link>
    </Tooltip>
  )
}

export function NavButton({
  icon,
  label,
  collapsed,
  className,
  ...props
}: ComponentProps<'button'> & { icon: ReactNode; label: string; collapsed?: boolean }) {
  return (
    <Tooltip label={label} disabled={!collapsed}>
      <button type="button" className={cn(navItemClass, className)} {...props}>
        {icon}
        <NavLabel>{label}</NavLabel>
      </button>
    </Tooltip>
  )
}
