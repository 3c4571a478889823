import { Link } from '@tanstack/react-router'
import { Bot, ChevronDown, Settings2 } from 'lucide-react'
import { DropdownMenu } from 'radix-ui'
import { useTranslation } from 'react-i18next'
import { cn } from '../../../lib/cn'
import type { AgentView as Agent } from '../../../../src/api/agents/schema'
import { PickerMenuContent, PickerRadioItem, pickerItem, pickerTrigger } from './picker-menu'

/** The radio value of "No agent" (agent ids are UUIDs). */
const NONE = 'none'

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
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        disabled={disabled}
        data-testid="agent-picker"
        aria-label={`${t('agent.label')}: ${value?.name ?? t('agent.none')}`}
        title={value && model ? t('agent.usesModel', { model }) : undefined}
        className={cn(
          pickerTrigger,
          'min-w-0 max-w-[50vw] disabled:opacity-60',
          value ? 'border font-medium' : 'text-muted-foreground',
        )}
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
      </DropdownMenu.Trigger>
      <PickerMenuContent label={t('agent.choose')}>
        <DropdownMenu.RadioGroup value={value?.id ?? NONE} onValueChange={(id) => onChange(id === NONE ? null : id)}>
          <PickerRadioItem value={NONE}>
            <span className="grid min-w-0">
              <span className="truncate font-medium">{t('agent.none')}</span>
              <span className="text-xs text-muted-foreground">{t('agent.noneHint')}</span>
            </span>
          </PickerRadioItem>
          {agents.map((agent) => (
            <PickerRadioItem key={agent.id} value={agent.id} disabled={!agent.available && agent.id !== value?.id}>
              <span className="grid min-w-0">
                <span className="truncate font-medium">{agent.name}</span>
                <span className="truncate text-xs text-muted-foreground">
                  {agent.available && agent.model ? agent.model.displayName : t('agent.unavailable')}
                </span>
              </span>
            </PickerRadioItem>
          ))}
        </DropdownMenu.RadioGroup>
        {agents.length === 0 && <p className="px-2 py-1.5 text-sm text-muted-foreground">{t('agent.empty')}</p>}
        <DropdownMenu.Separator className="-mx-1 my-1 h-px bg-border" />
        <DropdownMenu.Item asChild className={cn(pickerItem, 'items-center')}>
          <Link to="/agents">
            <Settings2 aria-hidden className="size-4 shrink-0 text-muted-foreground" />
            {t('agent.manage')}
          </Link>
        </DropdownMenu.Item>
      </PickerMenuContent>
    </DropdownMenu.Root>
  )
}
