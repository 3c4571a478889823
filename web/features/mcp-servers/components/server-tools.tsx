import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { FormError } from '../../../components/form-message'
import { RowsSkeleton } from '../../../components/rows-skeleton'
import { Badge } from '../../../components/ui/badge'
import { Button } from '../../../components/ui/button'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { mcpQueries, useDisableMcpTool, type McpListedTool, type McpServer, type McpToolAccess } from '../api'
import { McpToolDialog } from './mcp-tool-dialog'

/** The tools a server lists now (asked when opened), each with who gets it and the actions to enable, change or disable it. */
export function ServerTools({ server }: { server: McpServer }) {
  const { t } = useTranslation('mcp')
  const api = useApi()
  const tools = useQuery(mcpQueries.tools(api, server.id))
  const groups = useQuery(mcpQueries.groups(api)).data ?? []
  const agents = useQuery(mcpQueries.agents(api)).data ?? []
  const disable = useDisableMcpTool()
  const [editing, setEditing] = useState<McpListedTool | null>(null)

  if (tools.isPending) return <RowsSkeleton label={t('common:loading')} />
  if (tools.isError)
    return (
      <div className="grid justify-items-start gap-2">
        <FormError>{errorMessage(t, tools.error)}</FormError>
        <Button variant="outline" size="sm" onClick={() => tools.refetch()}>
          {t('retry')}
        </Button>
      </div>
    )
  if (tools.data.length === 0) return <p className="text-sm text-muted-foreground">{t('noTools')}</p>

  const who = (access: McpToolAccess) => {
    if (access.scope === 'everyone') return t('scope.everyone')
    const names =
      access.scope === 'groups'
        ? access.groupIds.map((id) => groups.find((g) => g.id === id)?.name)
        : access.agentIds.map((id) => agents.find((a) => a.id === id)?.name)
    return t(`scope.${access.scope}Named`, { names: names.filter(Boolean).join(', ') })
  }

  return (
    <>
      <ul className="grid gap-2" aria-label={t('toolsOf', { name: server.name })}>
        {tools.data.map((tool) => (
          <li key={tool.name} data-testid="mcp-tool-row" className="flex flex-wrap items-start gap-3 rounded-md border px-3 py-2">
            <div className="grid min-w-0 flex-1 basis-56 gap-1">
              <div className="flex flex-wrap items-center gap-1.5">
                <span className="font-mono text-sm font-medium [overflow-wrap:anywhere]">{tool.name}</span>
                {tool.access ? <Badge variant="success">{who(tool.access)}</Badge> : <Badge>{t('off')}</Badge>}
              </div>
              {tool.description && <p className="line-clamp-2 text-[13px] text-muted-foreground">{tool.description}</p>}
            </div>
            <div className="flex gap-2">
              <Button variant="outline" size="sm" onClick={() => setEditing(tool)} aria-label={t(tool.enabled ? 'changeTool' : 'enableTool', { name: tool.name })}>
                {tool.enabled ? t('change') : t('enable')}
              </Button>
              {tool.enabled && (
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={t('disableTool', { name: tool.name })}
                  disabled={disable.isPending}
                  onClick={() =>
                    disable.mutate(
                      { id: server.id, name: tool.name },
                      { onSuccess: () => toast.success(t('disabled', { name: tool.name })), onError: (e) => toast.error(errorMessage(t, e)) },
                    )
                  }
                >
                  {t('disable')}
                </Button>
              )}
            </div>
          </li>
        ))}
      </ul>
      <McpToolDialog server={server} tool={editing} groups={groups} agents={agents} onClose={() => setEditing(null)} />
    </>
  )
}
