import { useQuery } from '@tanstack/react-query'
import { Plus } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PageHeader, pageFrameClass } from '../../../components/page-header'
import { Button } from '../../../components/ui/button'
import { Skeleton } from '../../../components/ui/skeleton'
import { useApi } from '../../../lib/use-api'
import { promptQueries, type Prompt } from '../api'
import { PromptFormDialog } from './prompt-form-dialog'
import { PromptList, PromptListSkeleton } from './prompt-list'
import { PromptSearch } from './prompt-search'

type Editing = { open: boolean; prompt?: Prompt }

/** /prompts: the user's prompt library with search, and the dialogs to add and change prompts. */
export function PromptsPage(props: { search: string; onSearchChange: (search: string) => void }) {
  const { t } = useTranslation('prompts')
  const api = useApi()
  const [editing, setEditing] = useState<Editing>({ open: false })
  // Searching an empty library helps no one: the box appears with the first prompt.
  const hasPrompts = (useQuery(promptQueries.list(api)).data?.length ?? 0) > 0
  const openNew = () => setEditing({ open: true })

  return (
    <div className={pageFrameClass}>
      <PageHeader
        title={t('title')}
        description={t('description')}
        action={
          <Button onClick={openNew}>
            <Plus />
            {t('new')}
          </Button>
        }
      />
      {(hasPrompts || props.search) && <PromptSearch value={props.search} onChange={props.onSearchChange} />}
      <PromptList
        search={props.search}
        onNew={openNew}
        onEdit={(prompt) => setEditing({ open: true, prompt })}
        onClearSearch={() => props.onSearchChange('')}
      />
      <PromptFormDialog open={editing.open} prompt={editing.prompt} onOpenChange={(open) => setEditing((e) => ({ ...e, open }))} />
    </div>
  )
}

/** /prompts while its list loads (the route's pending view). */
export function PromptsPageSkeleton() {
  const { t } = useTranslation('prompts')
  return (
    <div className={pageFrameClass}>
      <PageHeader title={t('title')} description={t('description')} action={<Skeleton className="h-9 w-32" />} />
      <Skeleton className="h-9 w-full sm:max-w-sm" />
      <PromptListSkeleton />
    </div>
  )
}
