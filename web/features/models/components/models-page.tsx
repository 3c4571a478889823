import { useTranslation } from 'react-i18next'
import { AvailableModelsSection, MODEL_SEARCH_ID } from './available-models-section'
import { ENDPOINT_NAME_ID } from './endpoint-form'
import { EndpointsSection } from './endpoints-section'
import { PermittedModelsSection } from './permitted-models-section'
import { ProvidersSection } from './providers-section'
import { RowsSkeleton } from '../../../components/rows-skeleton'
import { SectionCard } from '../../../components/section-card'

/** Moves to another section's first field, e.g. from an empty list to where its first action is. */
function jumpTo(fieldId: string) {
  const field = document.getElementById(fieldId)
  field?.scrollIntoView({ behavior: 'smooth', block: 'center' })
  field?.focus({ preventScroll: true })
}

/** Admin Settings → Models: providers, the enabled models, what could be enabled, and own endpoints. */
export function ModelsPage() {
  const addEndpoint = () => jumpTo(ENDPOINT_NAME_ID)
  return (
    <div className="grid gap-6">
      <ProvidersSection onAddEndpoint={addEndpoint} />
      <PermittedModelsSection onChooseModels={() => jumpTo(MODEL_SEARCH_ID)} />
      <AvailableModelsSection onAddEndpoint={addEndpoint} />
      <EndpointsSection />
    </div>
  )
}

/** The page while its lists load (the route's pending view). */
export function ModelsPageSkeleton() {
  const { t } = useTranslation('models')
  const loading = t('common:loading')
  return (
    <div className="grid gap-6">
      <SectionCard flush id="providers" title={t('providers.title')} description={t('providers.description')}>
        <RowsSkeleton rows={2} label={loading} />
      </SectionCard>
      <SectionCard flush id="permitted-models" title={t('permitted.title')} description={t('permitted.description')}>
        <RowsSkeleton label={loading} />
      </SectionCard>
      <SectionCard flush id="available-models" title={t('available.title')} description={t('available.description')}>
        <RowsSkeleton rows={4} label={loading} />
      </SectionCard>
    </div>
  )
}
