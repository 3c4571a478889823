import { useVirtualizer } from '@tanstack/react-virtual'
import { ArrowDown } from '../../../components/icons'
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react'
import { useRouter } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import type { Message } from '../api'
import type { OlderMessages } from '../hooks/use-older-messages'
import { usePrinting } from '../lib/print'
import { AssistantMessage } from './assistant-message'
import { UserMessage } from './user-message'

const useIsomorphicLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect
const noSubscription = () => () => {}

/** The newest messages the server renders in flow (the browser measures and virtualises them once hydrated). */
const SERVER_MESSAGES = 8
/**
 * Run where the server's messages end: the scroll box starts at its bottom, before the first paint,
 * and stays there while the rest of the page arrives (the composer below it takes its height from
 * the box), until the user scrolls or the list takes over once hydrated (`kontorStopPin`).
 */
const SCROLL_TO_END =
  "(function(){var s=document.querySelector('[data-testid=message-scroller]');if(!s)return;var end=function(){s.scrollTop=s.scrollHeight};end();" +
  "if(!window.ResizeObserver)return;var o=new ResizeObserver(end);o.observe(s);o.observe(s.firstElementChild);var stop=function(){o.disconnect()};" +
  "['wheel','touchstart','keydown','mousedown'].forEach(function(e){s.addEventListener(e,stop,{once:true,passive:true})});window.kontorStopPin=stop})()"

/** How close to the bottom (px) still counts as "at the latest message". */
const NEAR_BOTTOM = 48
/** How close to the top (px) the older messages start loading, so that they are there when reached. */
const NEAR_TOP = 600

type MessageListProps = {
  messages: Message[]
  /** A reply is streaming (here or, after a reload, on the server): no edit or regenerate meanwhile. */
  busy: boolean
  onEdit: (content: string) => Promise<boolean>
  onRegenerate: () => void
  /** Shows another version of a message. */
  onShowVersion: (messageId: string) => void
  /** The messages before those given, loaded as the user scrolls up. */
  older?: OlderMessages
  /** A message to scroll to and highlight briefly (a search result); `onRevealed` once done. */
  reveal?: string
  onRevealed?: () => void
}

/**
 * The messages of a chat, virtualised: only those on screen (and a few around) are in the DOM,
 * measured as they render, so a chat of thousands of messages opens and scrolls smoothly. Follows
 * a streaming reply to the bottom until the user scrolls up; then offers a jump back.
 */
export function MessageList({ messages, busy, onEdit, onRegenerate, onShowVersion, older, reveal, onRevealed }: MessageListProps) {
  const { t } = useTranslation('chat')
  const scrollRef = useRef<HTMLDivElement>(null)
  // The server cannot measure a scroll box: it renders the newest messages in flow, scrolled to
  // the end by an inline script, so the last one is on screen at the first paint; the browser
  // renders the virtualised list once hydrated.
  const isClient = useSyncExternalStore(noSubscription, () => true, () => false)
  const nonce = useRouter().options.ssr?.nonce
  const follow = useRef(true)
  const lastScrollTop = useRef(0)
  const [awayFromBottom, setAwayFromBottom] = useState(false)
  const printing = usePrinting()

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

  // A new message (sent here) brings the view back to the bottom; older ones put in front do not.
  const count = messages.length
  const previousCount = useRef(count)
  const previousLastId = useRef(last?.id)
  if (previousCount.current !== count) {
    if (count > previousCount.current && last?.id !== previousLastId.current) follow.current = true
    previousCount.current = count
    previousLastId.current = last?.id
  }

  // Older messages put in front keep what the user looks at in place: the scroll position moves
  // by the height they added (the browser's own scroll anchoring is off for this box).
  const firstId = messages[0]?.id
  const shownBefore = useRef({ firstId, totalSize })
  useIsomorphicLayoutEffect(() => {
    const before = shownBefore.current
    shownBefore.current = { firstId, totalSize }
    const el = scrollRef.current
    if (!el || !before.firstId || before.firstId === firstId) return
    if (messages.findIndex((m) => m.id === before.firstId) <= 0) return
    el.scrollTop += totalSize - before.totalSize
    lastScrollTop.current = el.scrollTop
  })

  useIsomorphicLayoutEffect(() => {
    // The list is the browser's now: the server page's inline script stops keeping it at the bottom.
    if (isClient) (window as { kontorStopPin?: () => void }).kontorStopPin?.()
    const el = scrollRef.current
    if (el && follow.current) el.scrollTop = el.scrollHeight
  }, [totalSize, count, last?.content.length, last?.reasoning.length, last?.status, isClient])

  // A message asked for (a search result) is scrolled to instead of the latest, and flashes once.
  const [flash, setFlash] = useState<string | null>(null)
  useIsomorphicLayoutEffect(() => {
    if (!reveal || !isClient) return
    const index = messages.findIndex((m) => m.id === reveal)
    if (index >= 0) {
      follow.current = false
      virtualizer.scrollToIndex(index, { align: 'center' })
      setFlash(reveal)
    }
    onRevealed?.()
  }, [reveal, isClient])

  const onScroll = () => {
    const el = scrollRef.current
    if (!el) return
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight
    // Scrolling up (wheel, keys, scrollbar, touch) stops following; reaching the bottom resumes it.
    if (distance <= NEAR_BOTTOM) follow.current = true
    else if (el.scrollTop < lastScrollTop.current - 2) follow.current = false
    lastScrollTop.current = el.scrollTop
    setAwayFromBottom(distance > NEAR_BOTTOM * 4)
    if (older?.hasOlder && !older.loading && el.scrollTop < NEAR_TOP) void older.load()
  }

  const renderMessage = (message: Message, index: number) => (
    <div
      className="mx-auto w-full max-w-3xl px-4 py-2.5 data-[revealed]:animate-[reveal-flash_2.4s_ease-out]"
      data-revealed={flash === message.id ? '' : undefined}
      onAnimationEnd={(e) => e.animationName === 'reveal-flash' && setFlash(null)}
    >
      {message.role === 'user' ? (
        <UserMessage message={message} onEdit={!busy && index === lastUserIndex ? onEdit : undefined} onShowVersion={busy ? undefined : onShowVersion} />
      ) : (
        <AssistantMessage
          message={message}
          onRegenerate={!busy && index === lastIndex && message.status !== 'streaming' ? onRegenerate : undefined}
          onShowVersion={busy ? undefined : onShowVersion}
        />
      )}
    </div>
  )

  const jumpToLatest = () => {
    follow.current = true
    virtualizer.scrollToIndex(lastIndex, { align: 'end' })
    const el = scrollRef.current
    if (el) el.scrollTop = el.scrollHeight
  }

  return (
    <div className="relative min-h-0 flex-1 print:min-h-fit">
      <div
        ref={scrollRef}
        onScroll={onScroll}
        onWheel={(e) => {
          if (e.deltaY < 0) follow.current = false
        }}
        className="h-full overflow-y-auto overscroll-contain [overflow-anchor:none] [scrollbar-gutter:stable] print:h-auto print:overflow-visible"
        data-testid="message-scroller"
      >
        <section
          aria-label={t('thread.messages')}
          className={printing ? 'w-full py-2' : 'relative w-full'}
          style={{ height: isClient && !printing ? totalSize : undefined }}
        >
          {messages.length === 0 ? (
            <p className="mx-auto max-w-3xl px-4 pt-10 text-center text-muted-foreground">{t('thread.empty')}</p>
          ) : !isClient ? (
            messages.slice(-SERVER_MESSAGES).map((message, i) => <div key={message.id}>{renderMessage(message, Math.max(0, messages.length - SERVER_MESSAGES) + i)}</div>)
          ) : printing ? (
            // The printout lays out every loaded message in flow, not only those on screen.
            messages.map((message, index) => <div key={message.id}>{renderMessage(message, index)}</div>)
          ) : (
            virtualizer.getVirtualItems().map((item) => (
              <div
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className="absolute left-0 top-0 w-full"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {renderMessage(messages[item.index]!, item.index)}
              </div>
            ))
          )}
        </section>
      </div>
      {/* Browsers hide a nonce from the DOM once parsed, so the client never matches it. */}
      {!isClient && messages.length > 0 && <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: SCROLL_TO_END }} />}
      {older?.loading && (
        <div role="status" className="absolute left-1/2 top-2 -translate-x-1/2 rounded-full border bg-background px-3 py-1 text-xs text-muted-foreground shadow-sm">
          {t('thread.loadingOlder')}
        </div>
      )}
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
