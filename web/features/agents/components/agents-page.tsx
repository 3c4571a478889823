import { Plus } from 'lucide-react'
import { Suspense, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PageHeader, pageFrameClass } from '../../../components/page-header'
import { Button } from '../../../components/ui/button'
import { Skeleton } from '../../../components/ui/skeleton'
import type { Agent } from '../api'
import { AgentFormDialog } from './agent-form-dialog'
import { AgentList, AgentListSkeleton } from './agent-list'

type Editing = { open: boolean; agent?: Agent }

/** /agents: the user's agents, and the dialogs to add and change them. */
export function AgentsPage() {
  const { t } = useTranslation('agents')
  const [editing, setEditing] = useState<Editing>({ open: false })
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
      <Suspense fallback={<AgentListSkeleton />}>
        <AgentList onNew={openNew} onEdit={(agent) => setEditing({ open: true, agent })} />
        <AgentFormDialog open={editing.open} agent={editing.agent} onOpenChange={(open) => setEditing((e) => ({ ...e, open }))} />
      </Suspense>
    </div>
  )
}

/** /agents while its list loads (the route's pending view). */
export function AgentsPageSkeleton() {
  const { t } = useTranslation('agents')
  return (
    <div className={pageFrameClass}>
      <PageHeader title={t('title')} description={t('description')} action={<Skeleton className="h-9 w-32" />} />
      <AgentListSkeleton />
    </div>
  )
}
