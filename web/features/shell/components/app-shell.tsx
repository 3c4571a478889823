import { Link, Outlet, useNavigate } from '@tanstack/react-router'
import { Menu, SquarePen } from '../../../components/icons'
import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ShortcutsDialog } from '../../../components/shortcuts-dialog'
import { onDemand } from '../../../lib/on-demand'
import { useShortcut } from '../../../lib/shortcuts'
import { useSidebarCollapsed } from '../hooks/use-sidebar-collapsed'
import { Sidebar, type ChatListSlot, type SearchEntry } from './sidebar'

// The drawer (Radix Dialog) loads when its button is first hovered, focused or pressed.
const drawerPart = onDemand(() => import('./drawer'))

const topBarButton =
  'grid size-9 place-items-center rounded-md text-muted-foreground outline-none transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring [&_svg]:size-5'

/** The signed-in layout: sidebar on desktop, top bar with a drawer below 768 px. */
export function AppShell(props: { chatList: ChatListSlot; search?: SearchEntry }) {
  const { t } = useTranslation()
  const { collapsed, toggle } = useSidebarCollapsed()
  const [drawerOpen, setDrawerOpen] = useState(false)
  const drawer = drawerPart.use()
  const drawerId = useId()
  const drawerButton = useRef<HTMLButtonElement>(null)
  const navigate = useNavigate()
  useShortcut('newChat', () => {
    setDrawerOpen(false)
    void navigate({ to: '/chat' })
  })

  // A drawer left open while the window grows would sit on top of the desktop sidebar.
  useEffect(() => {
    const wide = window.matchMedia('(min-width: 768px)')
    const close = () => wide.matches && setDrawerOpen(false)
    wide.addEventListener('change', close)
    return () => wide.removeEventListener('change', close)
  }, [])
  useEffect(() => {
    if (drawerOpen) void drawerPart.load()
  }, [drawerOpen])

  return (
    <div className="flex h-dvh overflow-hidden bg-background print:block print:h-auto print:overflow-visible">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-background px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:ring-2 focus:ring-ring"
      >
        {t('nav.skipToContent')}
      </a>
      <aside
        data-sidebar-rail
        data-testid="sidebar"
        className="hidden w-[260px] shrink-0 print:!hidden border-r border-sidebar-border bg-sidebar text-sidebar-foreground transition-[width] duration-200 md:block rail:w-14"
      >
        <Sidebar variant="desktop" collapsed={collapsed} onToggle={toggle} chatList={props.chatList} search={props.search} />
      </aside>

      <div className="flex min-w-0 flex-1 flex-col print:block">
        <header className="flex h-12 shrink-0 items-center gap-1 border-b bg-background px-2 md:hidden print:hidden">
          {/* The trigger is where focus returns when the drawer closes. */}
          <button
            ref={drawerButton}
            type="button"
            className={topBarButton}
            aria-label={t('nav.openMenu')}
            aria-haspopup="dialog"
            aria-expanded={drawerOpen}
            aria-controls={drawerOpen ? drawerId : undefined}
            data-state={drawerOpen ? 'open' : 'closed'}
            onPointerEnter={() => void drawerPart.load()}
            onFocus={() => void drawerPart.load()}
            onClick={() => setDrawerOpen(true)}
          >
            <Menu />
          </button>
          <Link to="/chat" className="flex items-center gap-2 rounded-md px-1 font-semibold outline-none focus-visible:ring-2 focus-visible:ring-ring">
            <span aria-hidden className="grid size-6 place-items-center rounded-md bg-primary text-xs text-primary-foreground">
              K
            </span>
            {t('appName')}
          </Link>
          <Link to="/chat" className={`${topBarButton} ml-auto`} aria-label={t('nav.newChat')}>
            <SquarePen />
          </Link>
        </header>
        <main id="main" tabIndex={-1} className="min-h-0 flex-1 overflow-y-auto outline-none print:overflow-visible">
          <Outlet />
        </main>
      </div>

      <ShortcutsDialog />
      {drawer && (
        <drawer.Drawer
          id={drawerId}
          open={drawerOpen}
          onOpenChange={setDrawerOpen}
          title={t('appName')}
          description={t('nav.main')}
          trigger={() => drawerButton.current}
        >
          <Sidebar variant="drawer" onNavigate={() => setDrawerOpen(false)} chatList={props.chatList} search={props.search} />
        </drawer.Drawer>
      )}
    </div>
  )
}
