import { Link } from '@tanstack/react-router'
import { Search } from '../../../components/icons'
import { useId, useMemo, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Skeleton } from '../../../components/ui/skeleton'
import { cn } from '../../../lib/cn'
import type { Prompt } from '../api'

/** Whether a prompt's title or content contains every word of the search. */
const matches = (prompt: Prompt, words: string[]) => {
  const haystack = `${prompt.title}\n${prompt.content}`.toLowerCase()
  return words.every((word) => haystack.includes(word))
}

/** The searchable list inside the prompt picker: a combobox (arrow keys, Enter) over the prompts. */
export function PromptPickerList(props: { prompts: Prompt[] | undefined; onChoose: (prompt: Prompt) => void }) {
  const { t } = useTranslation('prompts')
  const id = useId()
  const [query, setQuery] = useState('')
  const [active, setActive] = useState(0)
  const shown = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean)
    return (props.prompts ?? []).filter((p) => matches(p, words))
  }, [props.prompts, query])
  const current = Math.min(active, shown.length - 1)

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const moves: Record<string, number> = { ArrowDown: current + 1, ArrowUp: current - 1, Home: 0, End: shown.length - 1 }
    if (event.key in moves && shown.length > 0) {
      event.preventDefault()
      setActive((moves[event.key]! + shown.length) % shown.length)
    } else if (event.key === 'Enter') {
      event.preventDefault()
      if (shown[current]) props.onChoose(shown[current])
    }
  }

  if (props.prompts?.length === 0) {
    return (
      <div className="grid gap-1 px-4 py-6 text-center text-sm">
        <p className="font-medium">{t('picker.emptyTitle')}</p>
        <p className="text-muted-foreground">{t('picker.emptyText')}</p>
        <Link to="/prompts" className="mt-1 font-medium underline underline-offset-4">
          {t('picker.create')}
        </Link>
      </div>
    )
  }
  return (
    <div className="grid">
      <div className="relative border-b">
        <Search aria-hidden className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
        <input
          role="combobox"
          aria-expanded
          aria-controls={`${id}-list`}
          aria-activedescendant={shown[current] ? `${id}-${shown[current].id}` : undefined}
          aria-label={t('picker.search')}
          placeholder={t('picker.search')}
          value={query}
          onChange={(e) => (setQuery(e.target.value), setActive(0))}
          onKeyDown={onKeyDown}
          className="h-10 w-full bg-transparent pl-9 pr-3 text-sm outline-none placeholder:text-muted-foreground"
        />
      </div>
      <ul id={`${id}-list`} role="listbox" aria-label={t('picker.label')} className="max-h-72 overflow-y-auto p-1">
        {!props.prompts &&
          Array.from({ length: 3 }, (_, i) => (
            <li key={i} aria-hidden className="grid gap-1.5 px-2 py-2">
              <Skeleton className="h-3.5 w-32" />
              <Skeleton className="h-3 w-52" />
            </li>
          ))}
        {props.prompts && shown.length === 0 && <li className="px-2 py-6 text-center text-sm text-muted-foreground">{t('picker.noMatch')}</li>}
        {shown.map((prompt, i) => (
          <li
            key={prompt.id}
            id={`${id}-${prompt.id}`}
            role="option"
            aria-selected={i === current}
            onPointerMove={() => setActive(i)}
            onClick={() => props.onChoose(prompt)}
            className={cn('grid cursor-default grid-cols-[minmax(0,1fr)] gap-0.5 rounded-md px-2 py-1.5', i === current && 'bg-accent text-accent-foreground')}
          >
            <span className="flex items-center gap-2">
              <span className="min-w-0 flex-1 truncate text-sm font-medium">{prompt.title}</span>
              {prompt.variables.length > 0 && (
                <span className="shrink-0 text-[11px] text-muted-foreground">{t('picker.variables', { count: prompt.variables.length })}</span>
              )}
            </span>
            <span className="truncate text-xs text-muted-foreground">{prompt.content}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}
