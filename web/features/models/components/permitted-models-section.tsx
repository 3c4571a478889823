import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { CircleDollarSign, Cpu, Star, Trash2, UsersRound } from '../../../components/icons'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { confirm } from '../../../components/confirm-dialog'
import { Button } from '../../../components/ui/button'
import { Table, TableBody, TableHead, TableHeader, TableRow } from '../../../components/ui/table'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { modelQueries, useSetOrganizationDefault, useUnpermitModel, type AdminPermittedModel, type PermittedModel } from '../api'
import { AccessBadge, ModelAccessDialog } from './model-access-dialog'
import { ModelPriceDialog } from './model-price-dialog'
import { EmbeddingModelSetting } from './embedding-model-setting'
import { PermittedModelCells } from './permitted-model-cells'
import { SectionCard } from '../../../components/section-card'
import { EmptyState } from '../../../components/empty-state'
import { IconAction } from '../../../components/icon-action'

/** The organisation's enabled models: which one is the default, which one embeds sources, and disabling. */
export function PermittedModelsSection(props: { onChooseModels: () => void }) {
  const { t } = useTranslation('models')
  const api = useApi()
  const models = useSuspenseQuery(modelQueries.permitted(api)).data
  const unpermit = useUnpermitModel()
  const setDefault = useSetOrganizationDefault()
  const [accessFor, setAccessFor] = useState<AdminPermittedModel | null>(null)
  const [priceFor, setPriceFor] = useState<AdminPermittedModel | null>(null)
  const groups = useQuery(modelQueries.groups(api)).data
  const groupNames = new Map(groups?.map((g) => [g.id, g.name]))
  // Until an admin chooses, new chats use the first enabled language model (docs/decisions/0014).
  const implicitDefault = models.some((m) => m.isOrganizationDefault) ? undefined : models.find((m) => !m.embedding)
  const defaultKind = (model: PermittedModel) =>
    model.isOrganizationDefault ? 'chosen' : model.id === implicitDefault?.id ? 'implicit' : undefined

  const makeDefault = (model: PermittedModel) =>
    setDefault.mutate(model.id, {
      onSuccess: () => toast.success(t('permitted.defaultSet', { name: model.displayName })),
      onError: (error) => toast.error(errorMessage(t, error)),
    })

  const confirmDisable = (model: PermittedModel) =>
    confirm({
      title: t('permitted.disableTitle', { name: model.displayName }),
      description: t('permitted.disableDescription', { name: model.displayName }),
      confirmLabel: t('permitted.disableConfirm'),
      destructive: true,
      action: () =>
        unpermit.mutateAsync(model.id, {
          onSuccess: () => toast.success(t('permitted.disabledToast', { name: model.displayName })),
        }),
    })

  return (
    <SectionCard flush id="permitted-models" title={t('permitted.title')} description={t('permitted.description')}>
      {models.length === 0 ? (
        <EmptyState inset
          icon={<Cpu />}
          title={t('permitted.emptyTitle')}
          text={t('permitted.emptyText')}
          action={
            <Button variant="outline" onClick={props.onChooseModels}>
              {t('permitted.chooseModels')}
            </Button>
          }
        />
      ) : (
        <Table aria-labelledby="permitted-models-title">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>{t('permitted.model')}</TableHead>
              <TableHead className="hidden text-right sm:table-cell">{t('permitted.context')}</TableHead>
              <TableHead className="hidden text-right sm:table-cell">
                {t('permitted.price')}
                <span className="block font-normal">{t('permitted.priceHint')}</span>
              </TableHead>
              <TableHead className="w-px">
                <span className="sr-only">{t('permitted.actions')}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {models.map((model) => (
              <TableRow key={model.id} data-testid="permitted-model-row">
                <PermittedModelCells model={model} isDefault={defaultKind(model)} access={<AccessBadge model={model} groupNames={groupNames} />}>
                  <div className="flex justify-end gap-0.5">
                    <IconAction side="left" label={t('price.open', { name: model.displayName })} onClick={() => setPriceFor(model)}>
                      <CircleDollarSign />
                    </IconAction>
                    {!model.embedding && (
                      <IconAction side="left" label={t('access.open', { name: model.displayName })} onClick={() => setAccessFor(model)}>
                        <UsersRound />
                      </IconAction>
                    )}
                    {!model.embedding && !model.isOrganizationDefault && (
                      <IconAction side="left" label={t('permitted.makeDefault', { name: model.displayName })} disabled={setDefault.isPending} onClick={() => makeDefault(model)}>
                        <Star />
                      </IconAction>
                    )}
                    <IconAction side="left" label={t('permitted.disable', { name: model.displayName })} destructive onClick={() => confirmDisable(model)}>
                      <Trash2 />
                    </IconAction>
                  </div>
                </PermittedModelCells>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <EmbeddingModelSetting models={models.filter((m) => m.embedding)} />
      <ModelAccessDialog model={accessFor} onClose={() => setAccessFor(null)} />
      <ModelPriceDialog model={priceFor} onClose={() => setPriceFor(null)} />
    </SectionCard>
  )
}
