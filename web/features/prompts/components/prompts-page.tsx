import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { LibraryPage, LibraryPageSkeleton, useEditing } from '../../../components/library-page'
import { Skeleton } from '../../../components/ui/skeleton'
import { useApi } from '../../../lib/use-api'
import { promptQueries, type Prompt } from '../api'
import { PromptFormDialog } from './prompt-form-dialog'
import { PromptList, PromptListSkeleton } from './prompt-list'
import { PromptSearch } from './prompt-search'

/** /prompts: the user's prompt library with search, and the dialogs to add and change prompts. */
export function PromptsPage(props: { search: string; onSearchChange: (search: string) => void }) {
  const { t } = useTranslation('prompts')
  const api = useApi()
  const editing = useEditing<Prompt>()
  // Searching an empty library helps no one: the box appears with the first prompt.
  const hasPrompts = (useQuery(promptQueries.list(api)).data?.length ?? 0) > 0

  return (
    <LibraryPage title={t('title')} description={t('description')} newLabel={t('new')} onNew={editing.openNew}>
      {(hasPrompts || props.search) && <PromptSearch value={props.search} onChange={props.onSearchChange} />}
      <PromptList search={props.search} onNew={editing.openNew} onEdit={editing.edit} onClearSearch={() => props.onSearchChange('')} />
      <PromptFormDialog open={editing.open} prompt={editing.item} onOpenChange={editing.setOpen} />
    </LibraryPage>
  )
}

/** /prompts while its list loads (the route's pending view). */
export function PromptsPageSkeleton() {
  const { t } = useTranslation('prompts')
  return (
    <LibraryPageSkeleton title={t('title')} description={t('description')}>
      <Skeleton className="h-9 w-full sm:max-w-sm" />
      <PromptListSkeleton />
    </LibraryPageSkeleton>
  )
}
