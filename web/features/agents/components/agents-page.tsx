import { Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { LibraryPage, LibraryPageSkeleton, useEditing } from '../../../components/library-page'
import type { Agent } from '../api'
import { AgentFormDialog } from './agent-form-dialog'
import { AgentList, AgentListSkeleton } from './agent-list'

/** /agents: the user's agents, and the dialogs to add and change them. */
export function AgentsPage() {
  const { t } = useTranslation('agents')
  const editing = useEditing<Agent>()

  return (
    <LibraryPage title={t('title')} description={t('description')} newLabel={t('new')} onNew={editing.openNew}>
      <Suspense fallback={<AgentListSkeleton />}>
        <AgentList onNew={editing.openNew} onEdit={editing.edit} />
        <AgentFormDialog open={editing.open} agent={editing.item} onOpenChange={editing.setOpen} />
      </Suspense>
    </LibraryPage>
  )
}

/** /agents while its list loads (the route's pending view). */
export function AgentsPageSkeleton() {
  const { t } = useTranslation('agents')
  return (
    <LibraryPageSkeleton title={t('title')} description={t('description')}>
      <AgentListSkeleton />
    </LibraryPageSkeleton>
  )
}
