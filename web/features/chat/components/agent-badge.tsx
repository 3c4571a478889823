import { Bot } from 'lucide-react'
import { useTranslation } from 'react-i18next'

/** The agent a chat talks to; its model is the one replies come from. */
export function AgentBadge(props: { name: string; model: string | null }) {
  const { t } = useTranslation('chat')
  return (
    <span
      className="inline-flex h-8 max-w-[50vw] items-center gap-1.5 rounded-md border px-2.5 text-sm sm:max-w-xs"
      title={props.model ? t('agent.usesModel', { model: props.model }) : undefined}
      data-testid="chat-agent"
    >
      <Bot aria-hidden className="size-4 shrink-0 text-muted-foreground" />
      <span className="sr-only">{t('agent.label')}:</span>
      <span className="truncate font-medium">{props.name}</span>
      <span className="hidden truncate text-muted-foreground sm:inline">· {props.model ?? t('errors:NO_MODEL_FOUND')}</span>
    </span>
  )
}
