import { useSuspenseQuery } from '@tanstack/react-query'
import { PlugZap, Plus } from '../../../components/icons'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { confirm } from '../../../components/confirm-dialog'
import { Button } from '../../../components/ui/button'
import { useApi } from '../../../lib/use-api'
import { modelQueries, useUnpermitProvider, type Provider } from '../api'
import { providerName } from '../../../lib/provider-name'
import { ProviderRow } from './provider-row'
import { ProviderTermsDialog } from './provider-terms-dialog'
import { SectionCard } from '../../../components/section-card'
import { EmptyState } from '../../../components/empty-state'

/** The providers this organisation could use; enabling one goes through its terms, disabling through a confirmation. */
export function ProvidersSection(props: { onAddEndpoint: () => void }) {
  const { t } = useTranslation('models')
  const api = useApi()
  const providers = useSuspenseQuery(modelQueries.providers(api)).data
  const { unreachableProviders } = useSuspenseQuery(modelQueries.available(api)).data
  const unpermit = useUnpermitProvider()
  const [enabling, setEnabling] = useState<Provider | null>(null)

  const confirmDisable = (provider: Provider) =>
    confirm({
      title: t('providers.disableTitle', { name: providerName(t, provider.id, provider.name) }),
      description: t('providers.disableDescription', { name: providerName(t, provider.id, provider.name) }),
      confirmLabel: t('providers.disableConfirm'),
      destructive: true,
      action: () =>
        unpermit.mutateAsync(provider.id, {
          onSuccess: () => toast.success(t('providers.disabledToast', { name: providerName(t, provider.id, provider.name) })),
        }),
    })

  return (
    <SectionCard flush id="providers" title={t('providers.title')} description={t('providers.description')}>
      {providers.length === 0 ? (
        <EmptyState inset
          icon={<PlugZap />}
          title={t('providers.emptyTitle')}
          text={t('providers.emptyText')}
          action={
            <Button variant="outline" onClick={props.onAddEndpoint}>
              <Plus />
              {t('providers.addEndpoint')}
            </Button>
          }
        />
      ) : (
        <ul className="divide-y" aria-labelledby="providers-title">
          {providers.map((provider) => (
            <ProviderRow
              key={provider.id}
              provider={provider}
              unreachable={unreachableProviders.includes(provider.id)}
              onEnable={() => setEnabling(provider)}
              onDisable={() => confirmDisable(provider)}
            />
          ))}
        </ul>
      )}
      <ProviderTermsDialog provider={enabling} onClose={() => setEnabling(null)} />
    </SectionCard>
  )
}
