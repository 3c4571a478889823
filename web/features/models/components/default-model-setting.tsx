import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { Cpu } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { NativeSelect } from '../../../components/ui/native-select'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { sessionQueries } from '../../../lib/session'
import { modelQueries, useSetUserDefault } from '../api'
import { providerName } from '../../../lib/provider-name'
import { modelListQueries } from '../../../lib/model-lists'
import { SectionCard } from '../../../components/section-card'

const ORGANIZATION_DEFAULT = ''

/** The member's own default model for new chats, or the organisation's (no personal default). */
export function DefaultModelSetting() {
  const { t } = useTranslation('models')
  const api = useApi()
  const models = useSuspenseQuery(modelListQueries.languageModels(api)).data
  const own = useSuspenseQuery(modelQueries.userDefault(api)).data.model
  const me = useSuspenseQuery(sessionQueries.me(api)).data
  const save = useSetUserDefault()
  // What "Organisation default" resolves to: the organisation's choice, else the first enabled model.
  const organizationDefault = models.find((m) => m.isOrganizationDefault) ?? models[0]
  const value = save.isPending ? (save.variables ?? ORGANIZATION_DEFAULT) : (own?.id ?? ORGANIZATION_DEFAULT)

  const choose = (next: string) => {
    if (next === value) return
    save.mutate(next === ORGANIZATION_DEFAULT ? null : next, {
      onSuccess: () => toast.success(t('userDefault.saved')),
      onError: (error) => toast.error(errorMessage(t, error)),
    })
  }

  return (
    <SectionCard flush id="default-model" title={t('userDefault.title')} description={t('userDefault.description')}>
      <div className="px-5 py-4">
        {models.length === 0 ? (
          <div className="flex items-start gap-3">
            <div aria-hidden className="grid size-9 shrink-0 place-items-center rounded-full bg-muted text-muted-foreground [&_svg]:size-4">
              <Cpu />
            </div>
            <div className="grid gap-1 text-sm">
              <p className="font-medium">{t('userDefault.noneTitle')}</p>
              <p className="text-muted-foreground">
                {t('userDefault.noneText')}{' '}
                {me.role === 'admin' ? (
                  <Link to="/admin-settings/models" className="font-medium text-foreground underline underline-offset-4">
                    {t('userDefault.noneAdmin')}
                  </Link>
                ) : (
                  t('userDefault.noneUser')
                )}
              </p>
            </div>
          </div>
        ) : (
          <NativeSelect
            id="default-model-select"
            aria-labelledby="default-model-title"
            value={value}
            disabled={save.isPending}
            onChange={(event) => choose(event.target.value)}
            className="sm:max-w-md"
          >
            <option value={ORGANIZATION_DEFAULT}>
              {organizationDefault
                ? t('userDefault.organizationNamed', { name: organizationDefault.displayName })
                : t('userDefault.organization')}
            </option>
            {models.map((model) => (
              <option key={model.id} value={model.id}>
                {model.displayName} · {providerName(t, model.providerId, model.providerName)}
              </option>
            ))}
          </NativeSelect>
        )}
      </div>
    </SectionCard>
  )
}
