import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { BookText, Plus, SearchX } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '../../../components/empty-state'
import { LibrarySection } from '../../../components/library-page'
import { Button } from '../../../components/ui/button'
import { Card } from '../../../components/ui/card'
import { Skeleton } from '../../../components/ui/skeleton'
import { cn } from '../../../lib/cn'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { promptQueries, type Prompt } from '../api'
import { PromptCard } from './prompt-card'

const gridClass = 'grid gap-3 lg:grid-cols-2'

/** The prompts matching `search`, the caller's own and those shared with them apart; while a new search loads, the previous results stay (dimmed). */
export function PromptList(props: { search: string; onNew: () => void; onEdit: (prompt: Prompt) => void; onClearSearch: () => void }) {
  const { t } = useTranslation('prompts')
  const api = useApi()
  const { data, error, isPlaceholderData } = useQuery({ ...promptQueries.list(api, props.search), placeholderData: keepPreviousData })

  if (!data) return error ? <p role="alert" className="text-sm text-destructive">{errorMessage(t, error)}</p> : <PromptListSkeleton />
  if (data.length === 0 && !props.search.trim()) {
    return (
      <EmptyState
        icon={<BookText />}
        title={t('empty.title')}
        text={t('empty.text', { example: '{{topic}}' })}
        action={
          <Button onClick={props.onNew}>
            <Plus />
            {t('new')}
          </Button>
        }
      />
    )
  }
  return (
    <div aria-busy={isPlaceholderData || undefined} className={cn('grid gap-3 transition-opacity', isPlaceholderData && 'opacity-60')}>
      <p role="status" className="sr-only">
        {props.search.trim() ? t('list.found', { count: data.length }) : t('list.count', { count: data.length })}
      </p>
      {data.length === 0 ? (
        <EmptyState
          icon={<SearchX />}
          title={t('noResults.title')}
          text={t('noResults.text', { search: props.search.trim() })}
          action={
            <Button variant="outline" onClick={props.onClearSearch}>
              {t('noResults.clear')}
            </Button>
          }
        />
      ) : (
        <>
          <LibrarySection id="prompts-mine" title={t('sections.mine')} empty={t('sections.emptyMine')} items={data.filter((p) => p.mine)} className={gridClass} card={(prompt) => <PromptCard key={prompt.id} prompt={prompt} onEdit={props.onEdit} />} />
          <LibrarySection id="prompts-shared" title={t('sections.shared')} empty={t('sections.emptyShared')} items={data.filter((p) => !p.mine)} className={gridClass} card={(prompt) => <PromptCard key={prompt.id} prompt={prompt} onEdit={props.onEdit} />} />
        </>
      )}
    </div>
  )
}

/** Placeholder cards while the prompts load: the shape of the list, no spinner. */
export function PromptListSkeleton() {
  const { t } = useTranslation()
  return (
    <div role="status" aria-label={t('loading')} className={gridClass}>
      {Array.from({ length: 4 }, (_, i) => (
        <Card key={i} className="grid gap-3 p-4 shadow-none">
          <div className="flex items-center justify-between gap-4">
            <Skeleton className="h-4 w-40 max-w-full" />
            <Skeleton className="h-6 w-14" />
          </div>
          <div className="grid gap-1.5">
            <Skeleton className="h-3 w-full" />
            <Skeleton className="h-3 w-11/12" />
            <Skeleton className="h-3 w-2/3" />
          </div>
          <div className="flex items-center justify-between pt-1">
            <Skeleton className="h-3 w-24" />
            <Skeleton className="h-8 w-28" />
          </div>
        </Card>
      ))}
    </div>
  )
}
