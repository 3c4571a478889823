import { useSuspenseQuery } from '@tanstack/react-query'
import { KeyRound, Server, Trash2 } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { confirm } from '../../../components/confirm-dialog'
import { Badge } from '../../../components/ui/badge'
import { useApi } from '../../../lib/use-api'
import { modelQueries, useDeleteEndpoint, type Endpoint } from '../api'
import { EndpointForm } from './endpoint-form'
import { SectionCard } from '../../../components/section-card'
import { EmptyState } from '../../../components/empty-state'
import { IconAction } from '../../../components/icon-action'

/** The organisation's own OpenAI-compatible endpoints: listed without their keys, added below, removed after confirmation. */
export function EndpointsSection() {
  const { t } = useTranslation('models')
  const api = useApi()
  const endpoints = useSuspenseQuery(modelQueries.endpoints(api)).data
  const remove = useDeleteEndpoint()

  const confirmRemove = (endpoint: Endpoint) =>
    confirm({
      title: t('endpoints.removeTitle', { name: endpoint.name }),
      description: t('endpoints.removeDescription'),
      confirmLabel: t('endpoints.removeConfirm'),
      destructive: true,
      action: () =>
        remove.mutateAsync(endpoint.id, {
          onSuccess: () => toast.success(t('endpoints.removed', { name: endpoint.name })),
        }),
    })

  return (
    <SectionCard flush id="own-endpoints" title={t('endpoints.title')} description={t('endpoints.description')}>
      {endpoints.length === 0 ? (
        <EmptyState inset icon={<Server />} title={t('endpoints.emptyTitle')} text={t('endpoints.emptyText')} className="py-7" />
      ) : (
        <ul className="divide-y" aria-labelledby="own-endpoints-title">
          {endpoints.map((endpoint) => (
            <li key={endpoint.id} data-testid="endpoint-row" className="flex items-center gap-3 px-5 py-3">
              <div className="grid min-w-0 flex-1 gap-1">
                <div className="flex flex-wrap items-center gap-1.5">
                  <span className="font-medium [overflow-wrap:anywhere]">{endpoint.name}</span>
                  {endpoint.hasApiKey ? (
                    <Badge variant="success" className="gap-1">
                      <KeyRound aria-hidden className="size-3" />
                      {t('endpoints.keyStored')}
                    </Badge>
                  ) : (
                    <Badge>{t('endpoints.noKey')}</Badge>
                  )}
                </div>
                <span className="font-mono text-xs text-muted-foreground [overflow-wrap:anywhere]">{endpoint.baseUrl}</span>
              </div>
              <IconAction
                label={t('endpoints.remove', { name: endpoint.name })}
                side="left"
                destructive
                className="shrink-0"
                onClick={() => confirmRemove(endpoint)}
              >
                <Trash2 />
              </IconAction>
            </li>
          ))}
        </ul>
      )}
      <EndpointForm />
    </SectionCard>
  )
}
