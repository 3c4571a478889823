import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { MessageSquare, Search, Type } from '../../../components/icons'
import * as DialogPrimitive from '@radix-ui/react-dialog'
import { useDeferredValue, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { MAX_SEARCH_LENGTH } from '../../../../src/api/search/limits'
import { Dialog, DialogContent } from '../../../components/ui/dialog'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { searchQueries, type SearchResult, type SnippetPart } from '../api'

type SearchDialogProps = { open: boolean; onOpenChange: (open: boolean) => void }

/**
 * Search across the user's chats (Ctrl/⌘+K or the sidebar): a field and the results as a list box.
 * Arrow keys move through the results, Enter opens one: its chat, scrolled to the message.
 */
export function SearchDialog({ open, onOpenChange }: SearchDialogProps) {
  const { t } = useTranslation()
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        closeLabel={t('search.close')}
        aria-describedby={undefined}
        className="top-[12dvh] max-w-xl translate-y-0 gap-0 overflow-hidden p-0 max-sm:top-3"
      >
        <DialogPrimitive.Title className="sr-only">{t('search.title')}</DialogPrimitive.Title>
        {open && <SearchPanel onOpened={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  )
}

function SearchPanel({ onOpened }: { onOpened: () => void }) {
  const { t } = useTranslation()
  const api = useApi()
  const navigate = useNavigate()
  const [text, setText] = useState('')
  // Typing stays responsive: the search follows the field a render later.
  const q = useDeferredValue(text)
  const query = useQuery(searchQueries.results(api, q))
  const results = text.trim() ? (query.data ?? []) : []
  const [active, setActive] = useState(0)
  const listId = useId()
  const list = useRef<HTMLUListElement>(null)

  useEffect(() => setActive(0), [query.data])
  useEffect(() => {
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' })
  }, [active])

  const openResult = (result: SearchResult) => {
    onOpened()
    void navigate({ to: '/chats/$threadId', params: { threadId: result.threadId }, search: result.messageId ? { message: result.messageId } : {} })
  }

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!results.length) return
    const move = { ArrowDown: 1, ArrowUp: -1 }[e.key]
    if (move) {
      e.preventDefault()
      setActive((i) => (i + move + results.length) % results.length)
    } else if (e.key === 'Enter') {
      e.preventDefault()
      const result = results[active]
      if (result) openResult(result)
    }
  }

  const optionId = (i: number) => `${listId}-${i}`
  const status = !text.trim()
    ? t('search.hint')
    : query.isError
      ? errorMessage(t, query.error)
      : query.data && !query.isPlaceholderData && results.length === 0
        ? t('search.none', { q: text.trim() })
        : null

  return (
    <div className="grid">
      <div className="flex items-center gap-2 border-b px-4 pr-12">
        <Search aria-hidden className="size-4 shrink-0 text-muted-foreground" />
        <input
          autoFocus
          role="combobox"
          aria-expanded={results.length > 0}
          aria-controls={listId}
          aria-activedescendant={results.length ? optionId(active) : undefined}
          aria-autocomplete="list"
          aria-label={t('search.field')}
          placeholder={t('search.placeholder')}
          maxLength={MAX_SEARCH_LENGTH}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          className="h-12 min-w-0 flex-1 bg-transparent text-[15px] outline-none placeholder:text-muted-foreground"
        />
      </div>
      <ul ref={list} id={listId} role="listbox" aria-label={t('search.results')} className="max-h-[min(60dvh,28rem)] overflow-y-auto p-1.5 empty:hidden">
        {results.map((result, i) => (
          <li
            key={`${result.threadId}-${result.messageId ?? 'title'}`}
            id={optionId(i)}
            data-index={i}
            role="option"
            aria-selected={i === active}
            onMouseMove={() => setActive(i)}
            onClick={() => openResult(result)}
            className="flex cursor-pointer gap-3 rounded-md px-3 py-2 aria-selected:bg-accent aria-selected:text-accent-foreground"
          >
            {result.messageId ? (
              <MessageSquare aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
            ) : (
              <Type aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
            )}
            <div className="min-w-0 flex-1">
              <div className="truncate text-sm font-medium">{result.title ?? t('search.untitled')}</div>
              <div className="line-clamp-2 break-words text-[13px] text-muted-foreground">
                {result.role && <span className="font-medium">{t(result.role === 'user' ? 'search.you' : 'search.assistant')}: </span>}
                <Passage parts={result.snippet} />
              </div>
            </div>
          </li>
        ))}
      </ul>
      {status && (
        <p role="status" className="px-4 py-6 text-center text-sm text-muted-foreground">
          {status}
        </p>
      )}
    </div>
  )
}

/** The matching passage: the words that matched are marked; everything is text, never HTML. */
function Passage({ parts }: { parts: SnippetPart[] }) {
  return parts.map((part, i) =>
    part.match ? (
      <mark key={i} className="rounded-sm bg-yellow-200/80 px-0.5 text-foreground dark:bg-yellow-500/30">
        {part.text}
      </mark>
    ) : (
      <span key={i}>{part.text}</span>
    ),
  )
}
