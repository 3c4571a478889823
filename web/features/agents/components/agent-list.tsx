import { useSuspenseQuery } from '@tanstack/react-query'
import { Bot, Plus, Search } from '../../../components/icons'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '../../../components/empty-state'
import { LibrarySection } from '../../../components/library-page'
import { Button } from '../../../components/ui/button'
import { Card } from '../../../components/ui/card'
import { Input } from '../../../components/ui/input'
import { Skeleton } from '../../../components/ui/skeleton'
import { useApi } from '../../../lib/use-api'
import { agentQueries } from '../../../lib/agent-queries'
import type { Agent } from '../api'
import { AgentCard } from './agent-card'

const gridClass = 'grid gap-3 lg:grid-cols-2'

/**
 * The user's agents and those shared with them, apart, newest first, filtered by a search (name or
 * instructions, typed in its search box); agents whose model was unpermitted stay listed, marked unavailable.
 */
export function AgentList(props: { onNew: () => void; onEdit: (agent: Agent) => void }) {
  const { t } = useTranslation('agents')
  const api = useApi()
  const agents = useSuspenseQuery(agentQueries.list(api)).data
  const [search, setSearch] = useState('')
  const term = search.trim().toLocaleLowerCase()
  const found = term ? agents.filter((a) => `${a.name}\n${a.instructions}`.toLocaleLowerCase().includes(term)) : agents

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
    <>
      <div role="search" className="relative w-full sm:max-w-sm">
        <Search aria-hidden className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t('search.placeholder')} aria-label={t('search.label')} className="pl-8" />
      </div>
      <LibrarySection id="agents-mine" title={t('sections.mine')} empty={t('sections.emptyMine')} items={found.filter((a) => a.mine)} className={gridClass} card={(agent) => <AgentCard key={agent.id} agent={agent} onEdit={props.onEdit} />} />
      <LibrarySection id="agents-shared" title={t('sections.shared')} empty={t('sections.emptyShared')} items={found.filter((a) => !a.mine)} className={gridClass} card={(agent) => <AgentCard key={agent.id} agent={agent} onEdit={props.onEdit} />} />
    </>
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
