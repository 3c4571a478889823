import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate, useRouterState } from '@tanstack/react-router'
import { Trash2 } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from 'sonner'
import { confirm } from '../../../components/confirm-dialog'
import { Skeleton } from '../../../components/ui/skeleton'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { threadDetailKey, threadQueries, useDeleteThread, type ThreadSummary } from '../api'
import { groupByActivity } from '../lib/group-threads'
import { stopReply } from '../lib/reply-runner'

/** The sidebar's chats: grouped by last activity, newest first, loading more as it scrolls. */
export function ChatList(props: { onNavigate?: () => void }) {
  const { t } = useTranslation()
  const api = useApi()
  const query = useInfiniteQuery(threadQueries.list(api))
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const threads = query.data?.pages.flatMap((p) => p.threads) ?? []

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
      {groupByActivity(threads, new Date()).map((group) => (
        <section key={group.key} aria-labelledby={`chats-${group.key}`} className="min-w-0">
          <h3 id={`chats-${group.key}`} className="px-2.5 pb-1 text-[11px] font-medium uppercase tracking-wider text-sidebar-muted-foreground">
            {t(`nav.${group.key}`)}
          </h3>
          <ul className="flex min-w-0 flex-col gap-px">
            {group.threads.map((thread) => (
              <ChatListItem key={thread.id} thread={thread} active={pathname === `/chats/${thread.id}`} onNavigate={props.onNavigate} />
            ))}
          </ul>
        </section>
      ))}
      {query.hasNextPage && <MoreSentinel key={query.data?.pages.length} onVisible={() => !query.isFetchingNextPage && void query.fetchNextPage()} />}
    </div>
  )
}

function ChatListItem(props: { thread: ThreadSummary; active: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const remove = useDeleteThread()
  const title = props.thread.title ?? t('chat:untitled')

  const askDelete = () =>
    confirm({
      title: t('chat:delete.title'),
      description: t('chat:delete.description', { title }),
      confirmLabel: t('chat:delete.confirm'),
      destructive: true,
      action: async () => {
        stopReply(props.thread.id)
        try {
          await remove.mutateAsync(props.thread.id)
        } catch (error) {
          toast.error(`${t('chat:delete.failed')} ${errorMessage(t, error)}`)
          throw error
        }
        toast.success(t('chat:delete.done'))
        if (window.location.pathname === `/chats/${props.thread.id}`) await navigate({ to: '/chat' })
        queryClient.removeQueries({ queryKey: threadDetailKey(props.thread.id) })
      },
    })

  return (
    <li className="group/chat relative min-w-0">
      <Link
        to="/chats/$threadId"
        params={{ threadId: props.thread.id }}
        onClick={props.onNavigate}
        data-active={props.active ? 'true' : undefined}
        aria-current={props.active ? 'page' : undefined}
        title={title}
        className="flex h-8 w-full min-w-0 items-center rounded-md pl-2.5 pr-8 text-[13.5px] text-sidebar-foreground/85 outline-none transition-colors hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring data-[active=true]:bg-sidebar-accent data-[active=true]:font-medium data-[active=true]:text-sidebar-accent-foreground"
      >
        <span className="min-w-0 truncate">{title}</span>
      </Link>
      <button
        type="button"
        onClick={askDelete}
        aria-label={`${t('nav.deleteChat')}: ${title}`}
        title={t('nav.deleteChat')}
        className="absolute right-1 top-1/2 grid size-6 -translate-y-1/2 place-items-center rounded text-sidebar-muted-foreground opacity-0 outline-none transition-opacity hover:bg-background hover:text-destructive focus-visible:opacity-100 focus-visible:ring-2 focus-visible:ring-ring group-hover/chat:opacity-100 group-focus-within/chat:opacity-100 pointer-coarse:opacity-100 [&_svg]:size-3.5"
      >
        <Trash2 aria-hidden />
      </button>
    </li>
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
