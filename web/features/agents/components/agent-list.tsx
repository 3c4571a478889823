import { useSuspenseQuery } from '@tanstack/react-query'
import { Bot, Plus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '../../../components/empty-state'
import { Button } from '../../../components/ui/button'
import { Card } from '../../../components/ui/card'
import { Skeleton } from '../../../components/ui/skeleton'
import { useApi } from '../../../lib/use-api'
import { agentQueries } from '../../../lib/agent-queries'
import type { Agent } from '../api'
import { AgentCard } from './agent-card'

const gridClass = 'grid gap-3 lg:grid-cols-2'

/** The user's agents, newest first; agents whose model was unpermitted stay listed, marked unavailable. */
export function AgentList(props: { onNew: () => void; onEdit: (agent: Agent) => void }) {
  const { t } = useTranslation('agents')
  const api = useApi()
  const agents = useSuspenseQuery(agentQueries.list(api)).data

  if (agents.length === 0) {
    return (
      <EmptyState
        icon={<Bot />}
        title={t('empty.title')}
        text={t('empty.text')}
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
    <div className={gridClass}>
      {agents.map((agent) => (
        <AgentCard key={agent.id} agent={agent} onEdit={props.onEdit} />
      ))}
    </div>
  )
}

/** Placeholder cards while the agents load: the shape of the list, no spinner. */
export function AgentListSkeleton() {
  const { t } = useTranslation()
  return (
    <div role="status" aria-label={t('loading')} className={gridClass}>
      {Array.from({ length: 2 }, (_, i) => (
        <Card key={i} className="grid gap-3 p-4 shadow-none">
          <div className="flex items-center gap-3">
            <Skeleton className="size-9 shrink-0 rounded-lg" />
            <div className="grid flex-1 gap-1.5">
              <Skeleton className="h-4 w-36 max-w-full" />
              <Skeleton className="h-3 w-28 max-w-full" />
            </div>
          </div>
          <div className="grid gap-1.5">
            <Skeleton className="h-3 w-full" />
            <Skeleton className="h-3 w-4/5" />
          </div>
          <Skeleton className="ml-auto h-8 w-36" />
        </Card>
      ))}
    </div>
  )
}
