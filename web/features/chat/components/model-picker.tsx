import { ChevronDown, TriangleAlert } from 'lucide-react'
import { DropdownMenu } from 'radix-ui'
import { useTranslation } from 'react-i18next'
import type { PermittedModel } from '../../../../src/api/models/schema'
import { cn } from '../../../lib/cn'
import { providerName } from '../../../lib/provider-name'
import { PickerMenuContent, PickerRadioItem, pickerTrigger } from './picker-menu'

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
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        disabled={disabled || models.length === 0}
        data-testid="model-picker"
        aria-label={`${t('model.label')}: ${value?.displayName ?? t('errors:NO_MODEL_FOUND')}`}
        className={cn(
          pickerTrigger,
          'max-w-[60vw] font-medium',
          !value && 'text-amber-700 dark:text-amber-400',
          disabled && 'opacity-60',
        )}
      >
        {!value && <TriangleAlert aria-hidden className="size-4 shrink-0" />}
        <span className="truncate">{value?.displayName ?? t('errors:NO_MODEL_FOUND')}</span>
        {models.length > 0 && <ChevronDown aria-hidden className="size-4 shrink-0 text-muted-foreground" />}
      </DropdownMenu.Trigger>
      <PickerMenuContent label={t('model.choose')}>
        <DropdownMenu.RadioGroup
          value={value?.id ?? ''}
          onValueChange={(id) => {
            const model = models.find((m) => m.id === id)
            if (model) onChange(model)
          }}
        >
          {models.map((model) => (
            <PickerRadioItem key={model.id} value={model.id}>
              <span className="grid min-w-0">
                <span className="flex items-center gap-1.5">
                  <span className="truncate font-medium">{model.displayName}</span>
                  {model.isOrganizationDefault && (
                    <span className="shrink-0 rounded-full border px-1.5 text-[11px] leading-4 text-muted-foreground">{t('model.default')}</span>
                  )}
                </span>
                <span className="truncate text-xs text-muted-foreground">
                  {providerName(t, model.providerId, model.providerName)} · {t(`regions.${model.region}`)}
                </span>
              </span>
            </PickerRadioItem>
          ))}
        </DropdownMenu.RadioGroup>
      </PickerMenuContent>
    </DropdownMenu.Root>
  )
}
