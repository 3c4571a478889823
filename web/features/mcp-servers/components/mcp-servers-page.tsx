import { useSuspenseQuery } from '@tanstack/react-query'
import { ChevronDown, KeyRound, Plug, Trash2 } from '../../../components/icons'
import { Suspense, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { confirm } from '../../../components/confirm-dialog'
import { EmptyState } from '../../../components/empty-state'
import { IconAction } from '../../../components/icon-action'
import { RowsSkeleton } from '../../../components/rows-skeleton'
import { SectionCard } from '../../../components/section-card'
import { Badge } from '../../../components/ui/badge'
import { Button } from '../../../components/ui/button'
import { useApi } from '../../../lib/use-api'
import { mcpQueries, useRemoveMcpServer, type McpServer } from '../api'
import { McpServerForm } from './mcp-server-form'
import { ServerTools } from './server-tools'

/** Admin Settings → MCP servers: remote MCP servers whose tools the assistant may use in chats. */
export function McpServersPage() {
  const { t } = useTranslation('mcp')
  return (
    <div className="grid gap-6">
      <SectionCard flush id="mcp-servers" title={t('title')} description={t('description')}>
        <Suspense fallback={<RowsSkeleton label={t('common:loading')} />}>
          <ServerList />
        </Suspense>
        <McpServerForm />
      </SectionCard>
    </div>
  )
}

export function McpServersPageSkeleton() {
  const { t } = useTranslation('mcp')
  return (
    <div className="grid gap-6">
      <SectionCard flush id="mcp-servers" title={t('title')} description={t('description')}>
        <RowsSkeleton label={t('common:loading')} />
      </SectionCard>
    </div>
  )
}

function ServerList() {
  const { t } = useTranslation('mcp')
  const servers = useSuspenseQuery(mcpQueries.list(useApi())).data
  if (servers.length === 0) return <EmptyState inset icon={<Plug />} title={t('emptyTitle')} text={t('emptyText')} className="py-7" />
  return (
    <ul className="divide-y" aria-labelledby="mcp-servers-title">
      {servers.map((server) => (
        <ServerRow key={server.id} server={server} />
      ))}
    </ul>
  )
}

function ServerRow({ server }: { server: McpServer }) {
  const { t } = useTranslation('mcp')
  const [open, setOpen] = useState(false)
  const remove = useRemoveMcpServer()
  const confirmRemove = () =>
    confirm({
      title: t('removeTitle', { name: server.name }),
      description: t('removeDescription'),
      confirmLabel: t('removeConfirm'),
      destructive: true,
      action: () => remove.mutateAsync(server.id, { onSuccess: () => toast.success(t('removed', { name: server.name })) }),
    })
  const panelId = `mcp-tools-${server.id}`
  return (
    <li data-testid="mcp-server-row" className="grid min-w-0 gap-3 px-4 py-3 sm:px-5">
      <div className="flex flex-wrap items-center gap-3">
        <div className="grid min-w-0 flex-1 basis-48 gap-1">
          <div className="flex flex-wrap items-center gap-1.5">
            <span className="font-medium [overflow-wrap:anywhere]">{server.name}</span>
            {server.headerNames.length > 0 && (
              <Badge variant="success" className="gap-1">
                <KeyRound aria-hidden className="size-3" />
                {t('headersStored', { count: server.headerNames.length })}
              </Badge>
            )}
            <Badge>{t('enabledCount', { count: server.tools.length })}</Badge>
          </div>
          <span className="font-mono text-xs text-muted-foreground [overflow-wrap:anywhere]">{server.url}</span>
        </div>
        <div className="flex items-center gap-2">
          <Button variant="outline" size="sm" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
            {t('tools')}
            <ChevronDown aria-hidden className={open ? 'rotate-180 transition-transform' : 'transition-transform'} />
          </Button>
          <IconAction label={t('remove', { name: server.name })} side="left" destructive className="shrink-0" onClick={confirmRemove}>
            <Trash2 />
          </IconAction>
        </div>
      </div>
      {open && (
        <div id={panelId} className="min-w-0">
          <ServerTools server={server} />
        </div>
      )}
    </li>
  )
}
