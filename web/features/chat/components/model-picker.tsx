import { Check, ChevronDown, TriangleAlert } from 'lucide-react'
import { DropdownMenu } from 'radix-ui'
import { useTranslation } from 'react-i18next'
import type { PermittedModel } from '../../../../src/api/models/schema'
import { cn } from '../../../lib/cn'
import { providerName } from '../../models/lib/provider-name'

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
          'inline-flex h-8 max-w-[60vw] items-center gap-1.5 rounded-md px-2.5 text-sm font-medium outline-none transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring disabled:pointer-events-none data-[state=open]:bg-accent sm:max-w-xs',
          !value && 'text-amber-700 dark:text-amber-400',
          disabled && 'opacity-60',
        )}
      >
        {!value && <TriangleAlert aria-hidden className="size-4 shrink-0" />}
        <span className="truncate">{value?.displayName ?? t('errors:NO_MODEL_FOUND')}</span>
        {models.length > 0 && <ChevronDown aria-hidden className="size-4 shrink-0 text-muted-foreground" />}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 max-h-[min(24rem,var(--radix-dropdown-menu-content-available-height))] w-72 max-w-[calc(100vw-1.5rem)] overflow-y-auto rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg"
        >
          <DropdownMenu.Label className="px-2 pb-1 pt-1.5 text-xs font-medium text-muted-foreground">{t('model.choose')}</DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={value?.id ?? ''}
            onValueChange={(id) => {
              const model = models.find((m) => m.id === id)
              if (model) onChange(model)
            }}
          >
            {models.map((model) => (
              <DropdownMenu.RadioItem
                key={model.id}
                value={model.id}
                className="relative flex cursor-default select-none items-start gap-2 rounded-md py-1.5 pl-2 pr-8 text-sm outline-none data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground"
              >
                <span className="grid min-w-0">
                  <span className="flex items-center gap-1.5">
                    <span className="truncate font-medium">{model.displayName}</span>
                    {model.isOrganizationDefault && (
                      <span className="shrink-0 rounded-full border px-1.5 text-[11px] leading-4 text-muted-foreground">{t('model.default')}</span>
                    )}
                  </span>
                  <span className="truncate text-xs text-muted-foreground">
                    {providerName(t, model.providerId, model.providerName)} · {t(`models:regions.${model.region}`)}
                  </span>
                </span>
                <DropdownMenu.ItemIndicator className="absolute right-2 top-2">
                  <Check aria-hidden className="size-4" />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}
