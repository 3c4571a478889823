import { Link } from '@tanstack/react-router'
import { Bot, MessageSquare, Pencil, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { confirm } from '../../../components/confirm-dialog'
import { Badge } from '../../../components/ui/badge'
import { Button, buttonVariants } from '../../../components/ui/button'
import { Card } from '../../../components/ui/card'
import { providerName } from '../../../lib/provider-name'
import { useDeleteAgent, type Agent } from '../api'
import { IconAction } from '../../../components/icon-action'

/** One agent: name, model, the start of its instructions, and what can be done with it. */
export function AgentCard(props: { agent: Agent; onEdit: (agent: Agent) => void }) {
  const { t } = useTranslation('agents')
  const { agent } = props
  const remove = useDeleteAgent()
  const id = `agent-${agent.id}`

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
          <h2 id={`${id}-name`} className="font-medium leading-snug [overflow-wrap:anywhere]">
            {agent.name}
          </h2>
          {agent.model && (
            <p className="truncate text-[13px] text-muted-foreground">
              {t('modelName', { model: agent.model.displayName, provider: providerName(t, agent.model.providerId, agent.model.providerName) })}
            </p>
          )}
        </div>
        <div className="-mr-1.5 -mt-0.5 flex shrink-0 gap-0.5">
          <IconAction className="size-8" label={t('card.edit', { name: agent.name })} onClick={() => props.onEdit(agent)}>
            <Pencil />
          </IconAction>
          <IconAction className="size-8" label={t('card.delete', { name: agent.name })} destructive onClick={confirmDelete}>
            <Trash2 />
          </IconAction>
        </div>
      </div>
      {!agent.available && (
        <Badge variant="warning" className="w-fit whitespace-normal">
          {t('card.unavailable')}
        </Badge>
      )}
      <p className="line-clamp-3 whitespace-pre-line text-sm text-muted-foreground [overflow-wrap:anywhere]">{agent.instructions}</p>
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
    </Card>
  )
}
