import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Link, useRouterState } from '@tanstack/react-router'
import { Bot, BookText, Library, LogOut, PanelLeftClose, PanelLeftOpen, Search, Settings, ShieldCheck, SquarePen, X } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { Tooltip } from '../../../components/ui/tooltip'
import { useApi } from '../../../lib/use-api'
import { sessionQueries } from '../../../lib/session'
import { systemQueries } from '../../../lib/system'
import { useSignOut } from '../hooks/use-sign-out'
import { NavButton, NavLabel, NavLink, navItemClass } from './nav-item'
import { UpgradeEntry, useShowUpgrade } from './upgrade-entry'
import { UserCard } from './user-card'

const iconButton =
  'grid size-8 shrink-0 place-items-center rounded-md text-sidebar-muted-foreground outline-none transition-colors hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-ring [&_svg]:size-4'

/** The signed-in user's chats, handed in by the route (the shell knows no feature). */
export type ChatListSlot = (props: { onNavigate?: () => void }) => ReactNode

/** Opens the chat search (handed in by the route, like the chat list), and its shortcut as the device writes it. */
export type SearchEntry = { show: () => void; shortcut: string }

type SidebarProps = { chatList: ChatListSlot; search?: SearchEntry } & (
  | { variant: 'desktop'; collapsed: boolean; onToggle: () => void }
  | { variant: 'drawer'; onNavigate: () => void }
)

/** The sidebar's content, used by the desktop column and by the mobile drawer. */
export function Sidebar(props: SidebarProps) {
  const { t } = useTranslation()
  const api = useApi()
  const me = useSuspenseQuery(sessionQueries.me(api)).data
  const isCloud = useQuery(systemQueries.info(api)).data?.isCloud ?? false
  const showUpgrade = useShowUpgrade(isCloud)
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const signOut = useSignOut()

  const collapsed = props.variant === 'desktop' && props.collapsed
  const onNavigate = props.variant === 'drawer' ? props.onNavigate : undefined
  const isAdmin = me.role === 'admin'
  const under = (prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`)
  const item = { collapsed, onNavigate }

  return (
    <div className="flex h-full min-h-0 flex-col gap-2 p-2">
      <div className="flex h-10 items-center justify-between gap-2 pl-1.5 rail:justify-center rail:pl-0">
        <Link
          to="/chat"
          onClick={onNavigate}
          className="flex min-w-0 items-center gap-2 rounded-md font-semibold outline-none focus-visible:ring-2 focus-visible:ring-ring rail:hidden"
        >
          <span aria-hidden className="grid size-7 place-items-center rounded-lg bg-primary text-sm text-primary-foreground">
            K
          </span>
          <span className="truncate">{t('appName')}</span>
        </Link>
        {props.variant === 'desktop' ? (
          <Tooltip label={collapsed ? t('nav.expand') : t('nav.collapse')}>
            <button
              type="button"
              className={iconButton}
              onClick={props.onToggle}
              aria-label={collapsed ? t('nav.expand') : t('nav.collapse')}
              aria-expanded={!collapsed}
            >
              <PanelLeftClose className="rail:hidden" />
              <PanelLeftOpen className="hidden rail:block" />
            </button>
          </Tooltip>
        ) : (
          <button type="button" className={iconButton} onClick={props.onNavigate} aria-label={t('nav.closeMenu')}>
            <X />
          </button>
        )}
      </div>

      <nav aria-label={t('nav.main')} className="grid gap-0.5">
        <NavLink
          to="/chat"
          icon={<SquarePen />}
          label={t('nav.newChat')}
          active={pathname === '/chat'}
          className="mb-1 border border-sidebar-border bg-background font-medium shadow-xs rail:border-transparent rail:bg-transparent rail:shadow-none"
          {...item}
        />
        {props.search && <SearchButton search={props.search} collapsed={collapsed} onNavigate={onNavigate} />}
        <NavLink to="/prompts" icon={<BookText />} label={t('nav.prompts')} active={under('/prompts')} {...item} />
        <NavLink to="/agents" icon={<Bot />} label={t('nav.agents')} active={under('/agents')} {...item} />
        <NavLink to="/knowledge" icon={<Library />} label={t('nav.knowledge')} active={under('/knowledge')} {...item} />
      </nav>

      <section aria-labelledby="sidebar-chats" className="mt-2 flex min-h-0 flex-1 flex-col rail:invisible">
        <h2 id="sidebar-chats" className="px-2.5 pb-1 text-xs font-medium text-sidebar-muted-foreground">
          {t('nav.chats')}
        </h2>
        <div className="min-h-0 flex-1 overflow-y-auto overflow-x-hidden">
          {props.chatList({ onNavigate })}
        </div>
      </section>

      <div className="grid gap-0.5 border-t border-sidebar-border pt-2">
        {showUpgrade && <UpgradeEntry isAdmin={isAdmin} active={pathname === '/admin-settings/billing'} {...item} />}
        <NavLink to="/settings/account" icon={<Settings />} label={t('nav.accountSettings')} active={under('/settings')} {...item} />
        {isAdmin && (
          <NavLink
            to="/admin-settings"
            icon={<ShieldCheck />}
            label={t('nav.adminSettings')}
            active={under('/admin-settings') && !(showUpgrade && pathname === '/admin-settings/billing')}
            {...item}
          />
        )}
        <NavButton
          icon={<LogOut />}
          label={t('nav.signOut')}
          collapsed={collapsed}
          disabled={signOut.isPending}
          onClick={() => signOut.mutate()}
        />
      </div>
      <div className="border-t border-sidebar-border pt-2">
        <UserCard me={me} collapsed={collapsed} />
      </div>
    </div>
  )
}

function SearchButton({ search, collapsed, onNavigate }: { search: SearchEntry; collapsed: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation()
  return (
    <Tooltip label={`${t('nav.search')} (${search.shortcut})`} disabled={!collapsed}>
      <button
        type="button"
        className={navItemClass}
        aria-keyshortcuts="Control+K Meta+K"
        onClick={() => {
          onNavigate?.()
          search.show()
        }}
      >
        <Search />
        <NavLabel>{t('nav.search')}</NavLabel>
        <kbd aria-hidden className="ml-auto rounded border border-sidebar-border px-1.5 font-sans text-[11px] text-sidebar-muted-foreground rail:hidden">
          {search.shortcut}
        </kbd>
      </button>
    </Tooltip>
  )
}
