import { Check, ChevronRight, Copy, RefreshCw, TriangleAlert } from '../../../components/icons'
import * as Collapsible from '@radix-ui/react-collapsible'
import { useMemo, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { cn } from '../../../lib/cn'
import type { Message } from '../api'
import { useCopyMessage } from '../hooks/use-copy'
import { replyPassages } from '../lib/tool-data'
import { segmentsOf, toolCallsOf } from '../lib/tool-parts'
import { ActionButton } from './action-button'
import { VersionSwitcher } from './version-switcher'
import { Markdown } from './markdown'
import { ToolCallGroup } from './tool-calls'

type AssistantMessageProps = {
  message: Message
  /** Set for the last reply while nothing streams: regenerate it (also the Retry of a failed or interrupted one). */
  onRegenerate?: () => void
  /** Shows another version of the reply (absent while a reply streams). */
  onShowVersion?: (messageId: string) => void
}

/** A reply: plain full-width text rendered as markdown, its tool calls where they happened, with its reasoning, state and actions. */
export function AssistantMessage({ message, onRegenerate, onShowVersion }: AssistantMessageProps) {
  const versioned = message.siblingIds.length > 1
  const { t } = useTranslation('chat')
  const { copied, copy } = useCopyMessage()
  const streaming = message.status === 'streaming'
  const calls = useMemo(() => toolCallsOf(message.parts), [message.parts])
  const passages = useMemo(() => replyPassages(calls), [calls])
  const segments = segmentsOf(message.content, calls)
  const last = segments.at(-1)
  // Waiting for the model: nothing yet, or every tool it called has answered and its next words are due.
  const waiting = streaming && (last ? last.kind === 'tools' && last.calls.every((c) => c.result) : !message.reasoning)

  return (
    <div className="group/message" data-testid="assistant-message" data-status={message.status} aria-busy={streaming || undefined}>
      <h3 className="sr-only">{t('message.assistant')}</h3>
      {message.reasoning && <Reasoning text={message.reasoning} thinking={streaming && !message.content} />}
      {segments.length > 0 && (
        <div className="break-words leading-7" data-testid="assistant-content">
          {segments.map((segment, i) =>
            segment.kind === 'text' ? (
              <div key={`text-${i}`} className="my-3 first:mt-0 last:mb-0">
                <Markdown text={segment.text} passages={passages} keep={!streaming} />
              </div>
            ) : (
              <ToolCallGroup key={`tools-${segment.calls[0]!.id}`} calls={segment.calls} streaming={streaming} />
            ),
          )}
        </div>
      )}
      {waiting && (
        <p className="flex h-7 items-center gap-1" role="status" aria-label={t('message.writing')}>
          <span className="size-1.5 animate-pulse rounded-full bg-muted-foreground" />
          <span className="size-1.5 animate-pulse rounded-full bg-muted-foreground [animation-delay:150ms]" />
          <span className="size-1.5 animate-pulse rounded-full bg-muted-foreground [animation-delay:300ms]" />
        </p>
      )}

      {message.status === 'failed' && (
        <ReplyNotice tone="error" onRetry={onRegenerate}>
          {t(message.errorCode ?? 'UNKNOWN', { ns: 'errors', defaultValue: t('UNKNOWN', { ns: 'errors' }) })}
        </ReplyNotice>
      )}
      {message.status === 'interrupted' && (
        <ReplyNotice tone="notice" onRetry={onRegenerate}>
          {t('message.interrupted')}
        </ReplyNotice>
      )}
      {message.status === 'stopped' && <p className="mt-1 text-xs italic text-muted-foreground">{t('message.stopped')}</p>}

      {versioned && streaming && (
        <div className="mt-1 flex">
          <VersionSwitcher message={message} />
        </div>
      )}
      {!streaming && (message.content || onRegenerate || versioned) && (
        <div
          className={cn(
            'mt-1 flex items-center gap-0.5 transition-opacity',
            // The last reply's actions stay visible (and the versions); older ones show on hover and keyboard focus.
            !onRegenerate && !versioned && 'opacity-0 focus-within:opacity-100 group-hover/message:opacity-100 max-md:opacity-100',
          )}
        >
          <VersionSwitcher message={message} onShow={onShowVersion} />
          {message.content && message.status !== 'failed' && message.status !== 'interrupted' && (
            <ActionButton label={t('message.copy')} onClick={() => void copy(message.content)}>
              {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
            </ActionButton>
          )}
          {onRegenerate && message.status !== 'failed' && message.status !== 'interrupted' && (
            <ActionButton label={t('message.regenerate')} onClick={onRegenerate}>
              <RefreshCw aria-hidden />
            </ActionButton>
          )}
        </div>
      )}
    </div>
  )
}

/** Why a reply ended early (failed: an error; interrupted: its server went away), with Retry for the last reply. */
function ReplyNotice(props: { tone: 'error' | 'notice'; onRetry?: () => void; children: ReactNode }) {
  const { t } = useTranslation('chat')
  const error = props.tone === 'error'
  return (
    <div
      role={error ? 'alert' : 'status'}
      className={cn(
        'mt-2 flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border px-3 py-2 text-sm',
        error ? 'border-destructive/30 bg-destructive/5' : 'border-border bg-muted/50',
      )}
    >
      <TriangleAlert aria-hidden className={cn('size-4 shrink-0', error ? 'text-destructive' : 'text-muted-foreground')} />
      <span className={cn('min-w-0 flex-1', error ? 'text-destructive dark:text-red-300' : 'text-foreground')}>{props.children}</span>
      {props.onRetry && (
        <Button variant="outline" size="sm" onClick={props.onRetry}>
          <RefreshCw aria-hidden />
          {t('message.retry')}
        </Button>
      )}
    </div>
  )
}

function Reasoning(props: { text: string; thinking: boolean }) {
  const { t } = useTranslation('chat')
  return (
    <Collapsible.Root className="mb-3" defaultOpen={false}>
      <Collapsible.Trigger className="group/reasoning inline-flex items-center gap-1 rounded-md py-0.5 pr-1 text-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring">
        <ChevronRight aria-hidden className="size-4 transition-transform group-data-[state=open]/reasoning:rotate-90" />
        <span className={props.thinking ? 'animate-pulse' : undefined}>{props.thinking ? t('message.thinking') : t('message.thoughts')}</span>
      </Collapsible.Trigger>
      <Collapsible.Content className="mt-2 whitespace-pre-wrap border-l-2 pl-3 text-sm leading-relaxed text-muted-foreground">
        {props.text}
      </Collapsible.Content>
    </Collapsible.Root>
  )
}
