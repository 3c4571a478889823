import { Check, Lock } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { Badge } from '../../../components/ui/badge'
import { Button } from '../../../components/ui/button'
import { cn } from '../../../lib/cn'
import type { AvailableModel, Provider } from '../api'
import { formatContextWindow, formatPrice } from '../format'
import { providerName } from '../../../lib/provider-name'
import { ModelFlags, RegionBadge } from './model-badges'

/**
 * One provider's models. While the provider is disabled they are greyed out and cannot be
 * enabled (the API refuses it too), and the header says what to do first.
 */
export function AvailableModelGroup(props: {
  provider: Provider
  models: AvailableModel[]
  pendingModelId?: string
  onEnable: (model: AvailableModel) => void
}) {
  const { t, i18n } = useTranslation('models')
  const { provider } = props
  const headingId = `available-${provider.id}-title`
  const hintId = `available-${provider.id}-hint`

  const details = (model: AvailableModel) => {
    const context = formatContextWindow(model.contextWindow, i18n.language)
    const price = model.price && `${formatPrice(model.price.input, i18n.language)} / ${formatPrice(model.price.output, i18n.language)}`
    return [context && t('contextWindow', { size: context }), price].filter(Boolean).join(' · ')
  }

  return (
    <div role="group" aria-labelledby={headingId} data-testid="available-group">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 bg-muted/40 px-5 py-2">
        <h3 id={headingId} className="text-sm font-semibold">
          {providerName(t, provider.id, provider.name)}
        </h3>
        <RegionBadge region={provider.region} />
        {!provider.permitted && (
          <span id={hintId} className="flex items-center gap-1 text-[13px] text-muted-foreground">
            <Lock aria-hidden className="size-3.5" />
            {t('available.providerDisabled')}
          </span>
        )}
      </div>
      {props.models.length === 0 ? (
        <p className="border-t px-5 py-3 text-sm text-muted-foreground">{t('available.noModels')}</p>
      ) : (
        <ul className="divide-y border-t">
          {props.models.map((model) => (
            <li key={model.modelId} data-testid="available-model-row" className="flex items-center gap-4 px-5 py-2.5">
              <div className={cn('grid min-w-0 flex-1 gap-1', !provider.permitted && 'text-muted-foreground')}>
                <div className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
                  <span className="font-medium [overflow-wrap:anywhere]">{model.displayName}</span>
                  {model.displayName !== model.model && (
                    <span className="font-mono text-xs text-muted-foreground [overflow-wrap:anywhere]">{model.model}</span>
                  )}
                </div>
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <ModelFlags model={model} />
                  {details(model) && <span className="text-[13px] text-muted-foreground">{details(model)}</span>}
                </div>
              </div>
              {model.permittedId ? (
                <Badge variant="success" className="shrink-0 gap-1">
                  <Check aria-hidden className="size-3" />
                  {t('available.enabled')}
                </Badge>
              ) : (
                <Button
                  variant="outline"
                  size="sm"
                  className="shrink-0"
                  aria-label={t('available.enableNamed', { name: model.displayName })}
                  aria-describedby={provider.permitted ? undefined : hintId}
                  disabled={!provider.permitted || props.pendingModelId === model.modelId}
                  onClick={() => props.onEnable(model)}
                >
                  {t('available.enable')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
