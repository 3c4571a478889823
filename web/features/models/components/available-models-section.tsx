import { useSuspenseQuery } from '@tanstack/react-query'
import { Boxes, Plus, Search } from '../../../components/icons'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { Button } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { modelQueries, usePermitModel, type AvailableModel } from '../api'
import { matchesSearch } from '../format'
import { AvailableModelGroup } from './available-model-group'
import { SectionCard } from '../../../components/section-card'
import { EmptyState } from '../../../components/empty-state'

export const MODEL_SEARCH_ID = 'available-models-search'

/** Every model the available providers offer, grouped by provider, searchable by name. */
export function AvailableModelsSection(props: { onAddEndpoint: () => void }) {
  const { t } = useTranslation('models')
  const api = useApi()
  const { models } = useSuspenseQuery(modelQueries.available(api)).data
  const providers = useSuspenseQuery(modelQueries.providers(api)).data
  const permit = usePermitModel()
  const [query, setQuery] = useState('')

  const found = models.filter((m) => matchesSearch(m, query))
  const groups = providers
    .map((provider) => ({ provider, models: found.filter((m) => m.providerId === provider.id) }))
    .filter((group) => group.models.length > 0 || !query.trim())

  const enable = (model: AvailableModel) =>
    permit.mutate(model.modelId, {
      onSuccess: () => toast.success(t('available.enabledToast', { name: model.displayName })),
      onError: (error) => toast.error(errorMessage(t, error)),
    })

  const search = (
    <div className="relative w-full sm:w-56">
      <Search aria-hidden className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
      <Input
        id={MODEL_SEARCH_ID}
        type="search"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        placeholder={t('available.searchPlaceholder')}
        aria-label={t('available.search')}
        className="pl-8"
      />
    </div>
  )

  return (
    <SectionCard flush
      id="available-models"
      title={t('available.title')}
      description={t('available.description')}
      action={providers.length > 0 ? search : undefined}
    >
      {providers.length === 0 ? (
        <EmptyState inset
          icon={<Boxes />}
          title={t('available.emptyTitle')}
          text={t('available.emptyText')}
          action={
            <Button variant="outline" onClick={props.onAddEndpoint}>
              <Plus />
              {t('providers.addEndpoint')}
            </Button>
          }
        />
      ) : groups.length === 0 ? (
        <p role="status" className="px-5 py-8 text-center text-sm text-muted-foreground">
          {t('available.noMatch', { query: query.trim() })}
        </p>
      ) : (
        <div className="divide-y">
          {groups.map(({ provider, models: list }) => (
            <AvailableModelGroup
              key={provider.id}
              provider={provider}
              models={list}
              pendingModelId={permit.isPending ? permit.variables : undefined}
              onEnable={enable}
            />
          ))}
        </div>
      )}
    </SectionCard>
  )
}
