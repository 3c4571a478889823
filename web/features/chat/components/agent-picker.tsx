import { Bot, ChevronDown } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { cn } from '../../../lib/cn'
import { OnDemandTrigger } from '../../../lib/on-demand'
import type { AgentView as Agent } from '../../../../src/api/agents/schema'
import { chatMenus } from './chat-menus-part'
import { pickerTrigger } from './picker-styles'

type AgentPickerProps = {
  agents: Agent[]
  /** The chat's agent, or null: replies come from the model picked beside it. */
  value: { id: string; name: string } | null
  /** The model replies come from while an agent is set (its model), or null when that model is gone. */
  model: string | null
  onChange: (agentId: string | null) => void
  disabled?: boolean
}

/**
 * The agent of a chat, in the chat's header: none, or one of the user's agents. While an agent is
 * set its model answers, so the model picker gives way to the agent's model shown here.
 */
export function AgentPicker({ agents, value, model, onChange, disabled }: AgentPickerProps) {
  const { t } = useTranslation('chat')
  const trigger = (
    <button
      type="button"
      disabled={disabled}
      data-testid="agent-picker"
      aria-label={`${t('agent.label')}: ${value?.name ?? t('agent.none')}`}
      title={value && model ? t('agent.usesModel', { model }) : undefined}
      className={cn(pickerTrigger, 'min-w-0 max-w-[50vw] disabled:opacity-60', value ? 'border font-medium' : 'text-muted-foreground')}
    >
      <Bot aria-hidden className="size-4 shrink-0" />
      {value ? (
        <>
          <span className="truncate">{value.name}</span>
          <span className="hidden truncate font-normal text-muted-foreground sm:inline">· {model ?? t('errors:NO_MODEL_FOUND')}</span>
        </>
      ) : (
        <span className="truncate max-sm:sr-only">{t('agent.none')}</span>
      )}
      <ChevronDown aria-hidden className="size-4 shrink-0 text-muted-foreground" />
    </button>
  )
  return (
    <OnDemandTrigger
      part={chatMenus}
      opens="menu"
      trigger={trigger}
      render={(parts, triggerRef) => (
        <parts.AgentMenu trigger={trigger} triggerRef={triggerRef} agents={agents} value={value} onChange={onChange} />
      )}
    />
  )
}
