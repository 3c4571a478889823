import { useVirtualizer } from '@tanstack/react-virtual'
import { ArrowDown } from 'lucide-react'
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { Skeleton } from '../../../components/ui/skeleton'
import type { Message } from '../api'
import { AssistantMessage } from './assistant-message'
import { UserMessage } from './user-message'

const useIsomorphicLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect
const noSubscription = () => () => {}

/** How close to the bottom (px) still counts as "at the latest message". */
const NEAR_BOTTOM = 48

type MessageListProps = {
  messages: Message[]
  /** A reply is streaming (here or, after a reload, on the server): no edit or regenerate meanwhile. */
  busy: boolean
  onEdit: (content: string) => Promise<boolean>
  onRegenerate: () => void
}

/**
 * The messages of a chat, virtualised: only those on screen (and a few around) are in the DOM,
 * measured as they render, so a chat of thousands of messages opens and scrolls smoothly. Follows
 * a streaming reply to the bottom until the user scrolls up; then offers a jump back.
 */
export function MessageList({ messages, busy, onEdit, onRegenerate }: MessageListProps) {
  const { t } = useTranslation('chat')
  const scrollRef = useRef<HTMLDivElement>(null)
  // The server cannot measure a scroll box: it renders the skeleton, the browser the list.
  const isClient = useSyncExternalStore(noSubscription, () => true, () => false)
  const follow = useRef(true)
  const lastScrollTop = useRef(0)
  const [awayFromBottom, setAwayFromBottom] = useState(false)

  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (messages[i]?.role === 'user' ? 76 : 180),
    getItemKey: (i) => messages[i]?.id ?? i,
    overscan: 4,
    paddingStart: 16,
    paddingEnd: 32,
  })

  const lastIndex = messages.length - 1
  const last = messages[lastIndex]
  const lastUserIndex = messages.findLastIndex((m) => m.role === 'user')
  const totalSize = virtualizer.getTotalSize()

  // A new message (sent here) brings the view back to the bottom.
  const count = messages.length
  const previousCount = useRef(count)
  if (previousCount.current !== count) {
    if (count > previousCount.current) follow.current = true
    previousCount.current = count
  }

  useIsomorphicLayoutEffect(() => {
    const el = scrollRef.current
    if (el && follow.current) el.scrollTop = el.scrollHeight
  }, [totalSize, count, last?.content.length, last?.reasoning.length, last?.status, isClient])

  const onScroll = () => {
    const el = scrollRef.current
    if (!el) return
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight
    // Scrolling up (wheel, keys, scrollbar, touch) stops following; reaching the bottom resumes it.
    if (distance <= NEAR_BOTTOM) follow.current = true
    else if (el.scrollTop < lastScrollTop.current - 2) follow.current = false
    lastScrollTop.current = el.scrollTop
    setAwayFromBottom(distance > NEAR_BOTTOM * 4)
  }

  const jumpToLatest = () => {
    follow.current = true
    virtualizer.scrollToIndex(lastIndex, { align: 'end' })
    const el = scrollRef.current
    if (el) el.scrollTop = el.scrollHeight
  }

  return (
    <div className="relative min-h-0 flex-1">
      <div
        ref={scrollRef}
        onScroll={onScroll}
        onWheel={(e) => {
          if (e.deltaY < 0) follow.current = false
        }}
        className="h-full overflow-y-auto overscroll-contain [scrollbar-gutter:stable]"
        data-testid="message-scroller"
      >
        <section aria-label={t('thread.messages')} className="relative w-full" style={{ height: isClient ? totalSize : undefined }}>
          {!isClient ? (
            <MessagesSkeleton />
          ) : messages.length === 0 ? (
            <p className="mx-auto max-w-3xl px-4 pt-10 text-center text-muted-foreground">{t('thread.empty')}</p>
          ) : (
            virtualizer.getVirtualItems().map((item) => {
              const message = messages[item.index]!
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className="absolute left-0 top-0 w-full"
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  <div className="mx-auto w-full max-w-3xl px-4 py-2.5">
                    {message.role === 'user' ? (
                      <UserMessage message={message} onEdit={!busy && item.index === lastUserIndex ? onEdit : undefined} />
                    ) : (
                      <AssistantMessage
                        message={message}
                        onRegenerate={!busy && item.index === lastIndex && message.status !== 'streaming' ? onRegenerate : undefined}
                      />
                    )}
                  </div>
                </div>
              )
            })
          )}
        </section>
      </div>
      {isClient && awayFromBottom && (
        <button
          type="button"
          onClick={jumpToLatest}
          className="absolute bottom-3 left-1/2 inline-flex h-8 -translate-x-1/2 items-center gap-1.5 rounded-full border bg-background px-3 text-xs font-medium shadow-md outline-none transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
        >
          <ArrowDown aria-hidden className="size-3.5" />
          {t('thread.jumpToLatest')}
        </button>
      )}
    </div>
  )
}

function MessagesSkeleton() {
  const { t } = useTranslation('chat')
  return (
    <div className="mx-auto grid max-w-3xl gap-6 px-4 pt-6" role="status" aria-label={t('thread.loading')}>
      <Skeleton className="ml-auto h-10 w-2/5 rounded-2xl" />
      <div className="grid gap-2">
        <Skeleton className="h-4 w-11/12" />
        <Skeleton className="h-4 w-4/5" />
        <Skeleton className="h-4 w-3/5" />
      </div>
      <Skeleton className="ml-auto h-10 w-1/3 rounded-2xl" />
      <div className="grid gap-2">
        <Skeleton className="h-4 w-10/12" />
        <Skeleton className="h-4 w-2/3" />
      </div>
    </div>
  )
}
