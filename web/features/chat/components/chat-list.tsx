import { useInfiniteQuery } from '@tanstack/react-query'
import { useRouterState } from '@tanstack/react-router'
import { Trash2, X } from '../../../components/icons'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { Skeleton } from '../../../components/ui/skeleton'
import { useApi } from '../../../lib/use-api'
import { threadQueries } from '../api'
import { useDeleteChats } from '../hooks/use-delete-chats'
import { groupByActivity } from '../lib/group-threads'
import { ChatListItem } from './chat-list-item'

/**
 * The sidebar's chats: pinned ones first, then grouped by last activity, newest first, loading more
 * as it scrolls. "Select" in a chat's menu turns the rows into checkboxes to delete several at once.
 */
export function ChatList(props: { onNavigate?: () => void }) {
  const { t } = useTranslation()
  const api = useApi()
  const query = useInfiniteQuery(threadQueries.list(api))
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const threads = query.data?.pages.flatMap((p) => p.threads) ?? []
  const { deleteOne, deleteMany } = useDeleteChats()
  // The chosen chats while choosing several; null otherwise.
  const [selected, setSelected] = useState<string[] | null>(null)
  const toggle = (id: string) => setSelected((ids) => ids && (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]))
  // Only chats still listed count (one may have been deleted meanwhile).
  const chosen = selected?.filter((id) => threads.some((th) => th.id === id)) ?? []

  if (query.isPending) return <ChatListSkeleton />
  if (query.isError && threads.length === 0) {
    return (
      <div className="px-2.5 py-1 text-[13px] leading-snug text-sidebar-muted-foreground">
        <p>{t('chat:list.failed')}</p>
        <button type="button" className="mt-1 font-medium text-sidebar-foreground underline underline-offset-4" onClick={() => void query.refetch()}>
          {t('chat:list.retry')}
        </button>
      </div>
    )
  }
  if (threads.length === 0) return <p className="px-2.5 py-1 text-[13px] leading-snug text-sidebar-muted-foreground">{t('nav.noChats')}</p>

  return (
    <div className="flex min-w-0 flex-col gap-3 pb-2" data-testid="chat-list">
      {selected && (
        <div role="toolbar" aria-label={t('chat:select.toolbar')} className="sticky top-0 z-10 flex items-center gap-1 bg-sidebar py-1 pl-2.5">
          <span aria-live="polite" className="mr-auto whitespace-nowrap text-[13px] text-sidebar-foreground">
            {t('chat:select.count', { count: chosen.length })}
          </span>
          {/* Plain, not red: the confirmation dialog that follows is the destructive step. */}
          <Button size="sm" variant="outline" className="h-7 gap-1 px-2" disabled={chosen.length === 0} onClick={() => deleteMany(chosen, () => setSelected(null))}>
            <Trash2 aria-hidden className="size-3.5" />
            {t('chat:select.delete')}
          </Button>
          <Button size="icon" variant="ghost" className="size-7" aria-label={t('chat:select.cancel')} title={t('chat:select.cancel')} onClick={() => setSelected(null)}>
            <X aria-hidden />
          </Button>
        </div>
      )}
      {groupByActivity(threads, new Date()).map((group) => (
        <section key={group.key} aria-labelledby={`chats-${group.key}`} className="min-w-0">
          <h3 id={`chats-${group.key}`} className="px-2.5 pb-1 text-[11px] font-medium uppercase tracking-wider text-sidebar-muted-foreground">
            {t(`nav.${group.key}`)}
          </h3>
          <ul className="flex min-w-0 flex-col gap-px">
            {group.threads.map((thread) => (
              <ChatListItem
                key={thread.id}
                thread={thread}
                active={pathname === `/chats/${thread.id}`}
                onNavigate={props.onNavigate}
                selected={selected ? selected.includes(thread.id) : undefined}
                onToggle={toggle}
                onSelectMode={(id) => setSelected([id])}
                onDelete={deleteOne}
              />
            ))}
          </ul>
        </section>
      ))}
      {query.hasNextPage && <MoreSentinel key={query.data?.pages.length} onVisible={() => !query.isFetchingNextPage && void query.fetchNextPage()} />}
    </div>
  )
}

/** Loads the next page when it scrolls into view (it also shows that more is coming). */
function MoreSentinel(props: { onVisible: () => void }) {
  const ref = useRef<HTMLDivElement>(null)
  const onVisible = useRef(props.onVisible)
  onVisible.current = props.onVisible
  useEffect(() => {
    const el = ref.current
    if (!el) return
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onVisible.current())
    observer.observe(el)
    return () => observer.disconnect()
  }, [])
  return (
    <div ref={ref} className="grid gap-1 px-2.5">
      <Skeleton className="h-4 w-4/5" />
      <Skeleton className="h-4 w-3/5" />
    </div>
  )
}

function ChatListSkeleton() {
  const { t } = useTranslation()
  return (
    <div role="status" aria-label={t('chat:list.loading')} className="grid gap-2.5 px-2.5 pt-1">
      <Skeleton className="h-3 w-12" />
      {['w-4/5', 'w-3/5', 'w-11/12', 'w-2/3', 'w-3/4'].map((width) => (
        <Skeleton key={width} className={`h-4 ${width}`} />
      ))}
    </div>
  )
}
