import { TriangleAlert } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { LocalDate } from '../../../components/local-date'
import { Badge } from '../../../components/ui/badge'
import { Button } from '../../../components/ui/button'
import type { Provider } from '../api'
import { providerName } from '../../../lib/provider-name'
import { RegionBadge } from './model-badges'

/** One provider: name, hosting region, status, who accepted its terms, and enable or disable. */
export function ProviderRow(props: { provider: Provider; unreachable: boolean; onEnable: () => void; onDisable: () => void }) {
  const { t } = useTranslation('models')
  const { provider } = props
  const warningId = `provider-${provider.id}-unreachable`

  return (
    <li data-testid="provider-row" className="flex flex-wrap items-center gap-x-4 gap-y-2 px-5 py-3">
      <div className="grid min-w-0 flex-1 basis-60 gap-1">
        <div className="flex flex-wrap items-center gap-1.5">
          <span className="font-medium">{providerName(t, provider.id, provider.name)}</span>
          <RegionBadge region={provider.region} />
          {provider.custom && <Badge variant="info">{t('providers.ownEndpoint')}</Badge>}
        </div>
        {provider.permitted && provider.acceptedAt ? (
          <p className="text-[13px] text-muted-foreground">
            {t('providers.enabledBy', { name: provider.acceptedByName ?? '' })} <LocalDate iso={provider.acceptedAt} />
          </p>
        ) : (
          // Self-hosted servers come without terms of a provider to read.
          provider.termsUrl && <p className="text-[13px] text-muted-foreground">{t('providers.terms', { version: provider.termsVersion })}</p>
        )}
        {props.unreachable && (
          <p id={warningId} className="flex items-start gap-1.5 text-[13px] text-amber-800 dark:text-amber-300">
            <TriangleAlert aria-hidden className="mt-0.5 size-3.5 shrink-0" />
            {t('providers.unreachable')}
          </p>
        )}
      </div>
      <div className="flex items-center gap-3">
        <Badge variant={provider.permitted ? 'success' : 'neutral'}>
          {provider.permitted ? t('providers.enabled') : t('providers.disabled')}
        </Badge>
        {provider.permitted ? (
          <Button variant="outline" size="sm" aria-label={t('providers.disableNamed', { name: providerName(t, provider.id, provider.name) })} onClick={props.onDisable}>
            {t('providers.disable')}
          </Button>
        ) : (
          <Button size="sm" aria-label={t('providers.enableNamed', { name: providerName(t, provider.id, provider.name) })} onClick={props.onEnable}>
            {t('providers.enable')}
          </Button>
        )}
      </div>
    </li>
  )
}
