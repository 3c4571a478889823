import { Tooltip } from '../../../components/ui/tooltip'
import type { Me } from '../../../lib/session'

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('') || '?'

/** Who is signed in, and in which organisation. */
export function UserCard(props: { me: Me; collapsed?: boolean }) {
  const { me } = props
  return (
    <Tooltip label={`${me.name} · ${me.organization.name}`} disabled={!props.collapsed}>
      <div
        data-testid="sidebar-user"
        tabIndex={props.collapsed ? 0 : undefined}
        className="flex min-w-0 items-center gap-2.5 rounded-md px-1.5 py-1.5 outline-none focus-visible:ring-2 focus-visible:ring-ring rail:justify-center rail:px-0"
      >
        <span
          aria-hidden
          className="grid size-8 shrink-0 place-items-center rounded-full bg-sidebar-accent text-xs font-semibold text-sidebar-accent-foreground"
        >
          {initials(me.name)}
        </span>
        <div className="grid min-w-0 leading-tight rail:sr-only">
          <span className="truncate text-sm font-medium" title={me.name}>
            {me.name}
          </span>
          <span className="truncate text-xs text-sidebar-muted-foreground" title={me.email}>
            {me.email}
          </span>
          <span className="truncate text-xs text-sidebar-muted-foreground" title={me.organization.name}>
            {me.organization.name}
          </span>
        </div>
      </div>
    </Tooltip>
  )
}
