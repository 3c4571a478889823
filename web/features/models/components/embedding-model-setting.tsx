import { useQuery } from '@tanstack/react-query'
import { TriangleAlert } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { RadioCard, RadioGroup } from '../../../components/ui/radio-group'
import { errorMessage } from '../../../lib/error-message'
import { modelQueries, useSetEmbeddingModel, type PermittedModel } from '../api'
import { useApi } from '../../../lib/use-api'
import { providerName } from '../../../lib/provider-name'

const NONE = 'none'

/** The organisation's one embedding model (or none), chosen among its enabled embedding models. */
export function EmbeddingModelSetting(props: { models: PermittedModel[] }) {
  const { t } = useTranslation('models')
  const setEmbedding = useSetEmbeddingModel()
  const chosen = props.models.find((m) => m.isEmbeddingModel)
  const api = useApi()
  const progress = useQuery(modelQueries.embeddingProgress(api)).data

  const choose = (value: string) => {
    if (value === (chosen?.id ?? NONE)) return
    setEmbedding.mutate(value === NONE ? null : value, {
      onSuccess: () => toast.success(t('embedding.saved')),
      onError: (error) => toast.error(errorMessage(t, error)),
    })
  }

  return (
    <div role="group" aria-labelledby="embedding-model-title" className="grid gap-3 border-t bg-muted/20 px-5 py-4">
      <div className="grid gap-1">
        <h3 id="embedding-model-title" className="text-sm font-semibold">
          {t('embedding.title')}
        </h3>
        <p className="text-sm text-muted-foreground">{t('embedding.description')}</p>
      </div>
      {props.models.length > 0 && (
        <RadioGroup
          value={chosen?.id ?? NONE}
          onValueChange={choose}
          disabled={setEmbedding.isPending}
          aria-label={t('embedding.title')}
          className="sm:grid-cols-2"
        >
          {props.models.map((model) => (
            <RadioCard key={model.id} value={model.id}>
              <span className="grid min-w-0 gap-0.5">
                <span className="font-medium [overflow-wrap:anywhere]">{model.displayName}</span>
                <span className="text-[13px] text-muted-foreground">{providerName(t, model.providerId, model.providerName)}</span>
              </span>
            </RadioCard>
          ))}
          <RadioCard value={NONE}>{t('embedding.none')}</RadioCard>
        </RadioGroup>
      )}
      {chosen && progress && !progress.done && progress.files > 0 && (
        <p role="status" data-testid="embedding-progress" className="text-sm text-muted-foreground">
          {t('embedding.progress', { filesDone: progress.filesDone, files: progress.files, percent: Math.floor((100 * progress.chunksDone) / Math.max(progress.chunks, 1)) })}
        </p>
      )}
      {!chosen && (
        <p data-testid="no-embedding-model" className="flex items-start gap-2 rounded-md border border-amber-600/30 bg-amber-500/10 px-3 py-2 text-sm text-amber-900 dark:text-amber-200">
          <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>
            {t('embedding.noneWarning')}
            {props.models.length === 0 && <> {t('embedding.noneAvailable')}</>}
          </span>
        </p>
      )}
    </div>
  )
}
