import { ChevronDown, TriangleAlert } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import type { PermittedModel } from '../../../../src/api/models/schema'
import { cn } from '../../../lib/cn'
import { OnDemandTrigger } from '../../../lib/on-demand'
import { chatMenus } from './chat-menus-part'
import { pickerTrigger } from './picker-styles'

type ModelPickerProps = {
  models: PermittedModel[]
  /** The chosen model, or null: none chosen or the chosen one is no longer usable ('No model found'). */
  value: PermittedModel | null
  onChange: (model: PermittedModel) => void
  disabled?: boolean
}

/** The model of a chat, in the chat's header: every permitted language model with its provider and hosting region. */
export function ModelPicker({ models, value, onChange, disabled }: ModelPickerProps) {
  const { t } = useTranslation('chat')
  const trigger = (
    <button
      type="button"
      disabled={disabled || models.length === 0}
      data-testid="model-picker"
      aria-label={`${t('model.label')}: ${value?.displayName ?? t('errors:NO_MODEL_FOUND')}`}
      className={cn(pickerTrigger, 'max-w-[60vw] font-medium', !value && 'text-amber-700 dark:text-amber-400', disabled && 'opacity-60')}
    >
      {!value && <TriangleAlert aria-hidden className="size-4 shrink-0" />}
      <span className="truncate">{value?.displayName ?? t('errors:NO_MODEL_FOUND')}</span>
      {models.length > 0 && <ChevronDown aria-hidden className="size-4 shrink-0 text-muted-foreground" />}
    </button>
  )
  return (
    <OnDemandTrigger
      part={chatMenus}
      opens="menu"
      trigger={trigger}
      render={(parts, triggerRef) => (
        <parts.ModelMenu trigger={trigger} triggerRef={triggerRef} models={models} value={value} onChange={onChange} />
      )}
    />
  )
}
