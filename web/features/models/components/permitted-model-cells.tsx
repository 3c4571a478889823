import { Star } from '../../../components/icons'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Badge } from '../../../components/ui/badge'
import { TableCell } from '../../../components/ui/table'
import type { PermittedModel } from '../api'
import { formatContextWindow, formatPrice } from '../format'
import { providerName } from '../../../lib/provider-name'
import { ModelFlags, RegionBadge } from './model-badges'

/**
 * The cells of one enabled model. Capabilities sit under the name; narrow screens fold context
 * and price in there too rather than squeezing columns into 390 px.
 * `isDefault`: 'chosen' by an admin, or 'implicit' (the first language model while none is chosen).
 */
export function PermittedModelCells(props: { model: PermittedModel; isDefault?: 'chosen' | 'implicit'; access?: ReactNode; children: ReactNode }) {
  const { t, i18n } = useTranslation('models')
  const { model } = props
  const context = formatContextWindow(model.contextWindow, i18n.language)
  const price = model.price && `${formatPrice(model.price.input, i18n.language)} / ${formatPrice(model.price.output, i18n.language)}`

  return (
    <>
      <TableCell className="min-w-44">
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="font-medium [overflow-wrap:anywhere]">{model.displayName}</span>
          {props.isDefault && (
            <Badge
              variant={props.isDefault === 'chosen' ? 'success' : 'neutral'}
              title={props.isDefault === 'implicit' ? t('permitted.implicitDefault') : undefined}
              className="gap-1"
            >
              <Star aria-hidden className="size-3 fill-current" />
              {t('permitted.default')}
            </Badge>
          )}
        </div>
        <div className="mt-1 flex flex-wrap items-center gap-1.5 text-[13px] text-muted-foreground">
          <span>{providerName(t, model.providerId, model.providerName)}</span>
          <RegionBadge region={model.region} />
          <ModelFlags model={model} />
          {props.access}
        </div>
        {(context || price) && (
          <p className="mt-1 text-[13px] text-muted-foreground sm:hidden">
            {[context && t('contextWindow', { size: context }), price].filter(Boolean).join(' · ')}
          </p>
        )}
      </TableCell>
      <TableCell className="hidden whitespace-nowrap text-right tabular-nums text-muted-foreground sm:table-cell">{context ?? '—'}</TableCell>
      <TableCell className="hidden whitespace-nowrap text-right tabular-nums sm:table-cell">
        {price ?? <span className="text-muted-foreground">—</span>}
        {model.priceOverridden && <span className="block text-[12px] text-muted-foreground">{t('price.own')}</span>}
      </TableCell>
      <TableCell>{props.children}</TableCell>
    </>
  )
}
