import { useSuspenseQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { SectionCard } from '../../../components/section-card'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { apiKeyQueries, useUpdateApiSettings } from '../api'
import { ApiKeysTable, NoApiKeys } from './api-keys-table'

/** Admin → API: the organisation's switch for API access, and every key of its members. */
export function ApiAccessPage() {
  const { t } = useTranslation('apiKeys')
  const api = useApi()
  const { apiAccess } = useSuspenseQuery(apiKeyQueries.settings(api)).data
  const keys = useSuspenseQuery(apiKeyQueries.organization(api)).data
  const update = useUpdateApiSettings()

  const toggle = (on: boolean) =>
    update.mutate(
      { apiAccess: on },
      { onSuccess: () => toast.success(on ? t('admin.switchedOn') : t('admin.switchedOff')), onError: (error) => toast.error(errorMessage(t, error)) },
    )

  return (
    <div className="grid gap-6">
      <SectionCard id="api-access" title={t('admin.accessTitle')} description={t('admin.accessText')}>
        <label className="flex items-center gap-3 text-sm font-medium">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={apiAccess}
            disabled={update.isPending}
            onChange={(event) => toggle(event.currentTarget.checked)}
          />
          {t('admin.accessLabel')}
        </label>
      </SectionCard>
      <SectionCard id="api-keys-all" title={t('admin.keysTitle')} description={t('admin.keysText')} flush>
        <ApiKeysTable keys={keys} showOwner labelledBy="api-keys-all-title" empty={<NoApiKeys text={t('admin.emptyText')} />} />
      </SectionCard>
    </div>
  )
}
