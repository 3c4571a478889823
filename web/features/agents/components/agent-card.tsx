import { Link } from '@tanstack/react-router'
import { Bot, Copy, MessageSquare, Pencil, Share2, Trash2 } from '../../../components/icons'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { confirm } from '../../../components/confirm-dialog'
import { Badge } from '../../../components/ui/badge'
import { Button, buttonVariants } from '../../../components/ui/button'
import { Card } from '../../../components/ui/card'
import { providerName } from '../../../lib/provider-name'
import { errorMessage } from '../../../lib/error-message'
import { useCopyAgent, useDeleteAgent, useShareAgent, type Agent } from '../api'
import { IconAction } from '../../../components/icon-action'
import { ReadOnlyShareDialog, type ReadOnlySharing } from '../../../components/read-only-share-dialog'

/**
 * One agent: name, model, the start of its instructions, what it works with (tools, knowledge
 * collections, MCP tools), and what can be done with it. The owner
 * edits, shares and deletes it; an agent shared with the caller is read-only, "Make a copy" gives
 * them their own.
 */
export function AgentCard(props: { agent: Agent; onEdit: (agent: Agent) => void }) {
  const { t } = useTranslation('agents')
  const { agent } = props
  const remove = useDeleteAgent()
  const copy = useCopyAgent()
  const share = useShareAgent()
  const [sharing, setSharing] = useState(false)
  const id = `agent-${agent.id}`
  const shared = agent.sharedWithOrganization || agent.groups.length > 0

  const saveSharing = (choice: ReadOnlySharing) =>
    share.mutate(
      { id: agent.id, ...choice },
      {
        onSuccess: () => {
          toast.success(t('share.saved', { name: agent.name }))
          setSharing(false)
        },
        onError: (error) => toast.error(t('share.failed'), { description: errorMessage(t, error) }),
      },
    )
  const makeCopy = () =>
    copy.mutate(agent.id, {
      onSuccess: (created) => toast.success(t('copy.done', { name: created.name })),
      onError: (error) => toast.error(t('copy.failed'), { description: errorMessage(t, error) }),
    })

  const confirmDelete = () =>
    confirm({
      title: t('delete.title'),
      description: t('delete.description', { name: agent.name }),
      confirmLabel: t('delete.confirm'),
      destructive: true,
      action: () =>
        remove.mutateAsync(agent.id, {
          onSuccess: () => toast.success(t('delete.done', { name: agent.name })),
        }),
    })

  return (
    <Card role="article" aria-labelledby={`${id}-name`} data-testid="agent-card" className="flex min-w-0 flex-col gap-3 p-4 shadow-none">
      <div className="flex items-start gap-3">
        <span aria-hidden className="grid size-9 shrink-0 place-items-center rounded-lg bg-muted text-muted-foreground [&_svg]:size-[18px]">
          <Bot />
        </span>
        <div className="grid min-w-0 flex-1 gap-0.5">
          <h3 id={`${id}-name`} className="font-medium leading-snug [overflow-wrap:anywhere]">
            {agent.name}
          </h3>
          {agent.model && (
            <p className="truncate text-[13px] text-muted-foreground">
              {t('modelName', { model: agent.model.displayName, provider: providerName(t, agent.model.providerId, agent.model.providerName) })}
            </p>
          )}
        </div>
        <div className="-mr-1.5 -mt-0.5 flex shrink-0 gap-0.5">
          {agent.mine ? (
            <>
              <IconAction className="size-8" label={t('card.edit', { name: agent.name })} onClick={() => props.onEdit(agent)}>
                <Pencil />
              </IconAction>
              <IconAction className="size-8" label={t('card.share', { name: agent.name })} onClick={() => setSharing(true)}>
                <Share2 />
              </IconAction>
              <IconAction className="size-8" label={t('card.delete', { name: agent.name })} destructive onClick={confirmDelete}>
                <Trash2 />
              </IconAction>
            </>
          ) : (
            <IconAction className="size-8" label={t('card.copy', { name: agent.name })} disabled={copy.isPending} onClick={makeCopy}>
              <Copy />
            </IconAction>
          )}
        </div>
      </div>
      {agent.mine ? (
        shared && (
          <Badge className="w-fit whitespace-normal">
            {agent.sharedWithOrganization ? t('card.sharedWithOrganization') : t('card.sharedWithGroups', { groups: agent.groups.map((g) => g.name).join(', ') })}
          </Badge>
        )
      ) : (
        <p className="text-xs text-muted-foreground">{t('card.sharedBy', { name: agent.owner.name })}</p>
      )}
      {!agent.available && (
        <Badge variant="warning" className="w-fit whitespace-normal">
          {t('card.unavailable')}
        </Badge>
      )}
      <p className="line-clamp-3 whitespace-pre-line text-sm text-muted-foreground [overflow-wrap:anywhere]">{agent.instructions}</p>
      <AgentEquipment agent={agent} />
      <div className="mt-auto flex flex-wrap items-center justify-end gap-x-3 gap-y-2 pt-1">
        {agent.available ? (
          <Link to="/chat" search={{ agentId: agent.id }} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
            <MessageSquare />
            {t('card.chat')}
          </Link>
        ) : (
          <>
            <p id={`${id}-hint`} className="min-w-0 flex-1 basis-48 text-[13px] text-muted-foreground">
              {t('card.chatUnavailable')}
            </p>
            <Button variant="outline" size="sm" disabled aria-describedby={`${id}-hint`}>
              <MessageSquare />
              {t('card.chat')}
            </Button>
          </>
        )}
      </div>
      {agent.mine && sharing && (
        <ReadOnlyShareDialog
          title={t('share.title', { name: agent.name })}
          description={t('share.description')}
          current={agent}
          pending={share.isPending}
          onSave={saveSharing}
          open={sharing}
          onOpenChange={setSharing}
        />
      )}
    </Card>
  )
}

/** What the agent works with, one labelled line each: its built-in tools, its collections and the MCP tools an admin enabled for it. */
function AgentEquipment(props: { agent: Agent }) {
  const { t } = useTranslation('agents')
  const { agent } = props
  const rows: Array<[string, string]> = [[t('card.toolsLabel'), agent.tools.length ? agent.tools.map((tool) => t(`tools.${tool}`)).join(', ') : t('card.noTools')]]
  if (agent.collections.length) rows.push([t('card.collectionsLabel'), agent.collections.map((c) => c.name).join(', ')])
  if (agent.mcpTools.length) rows.push([t('card.mcpToolsLabel'), agent.mcpTools.map((m) => `${m.server} › ${m.tool}`).join(', ')])
  return (
    <dl className="grid gap-0.5 text-xs text-muted-foreground">
      {rows.map(([label, value]) => (
        <div key={label} className="flex min-w-0 gap-1.5">
          <dt className="shrink-0 font-medium text-foreground/80">{label}:</dt>
          <dd className="min-w-0 [overflow-wrap:anywhere]">{value}</dd>
        </div>
      ))}
    </dl>
  )
}
