import { useSuspenseQuery } from '@tanstack/react-query'
import { useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { SectionCard } from '../../../components/section-card'
import { useApi } from '../../../lib/use-api'
import { apiKeyQueries } from '../api'
import { ApiKeysTable, NoApiKeys } from './api-keys-table'
import { CreateApiKey } from './create-api-key'

/** Settings → API keys: the caller's personal keys for the OpenAI-compatible API. */
export function ApiKeysPage() {
  const { t } = useTranslation('apiKeys')
  const api = useApi()
  const keys = useSuspenseQuery(apiKeyQueries.own(api)).data
  const { apiAccess } = useSuspenseQuery(apiKeyQueries.settings(api)).data
  // The server does not know the address the browser reached it by; hydration agrees on the path, then the browser adds it.
  const origin = useSyncExternalStore(noSubscription, () => location.origin, () => '')
  return (
    <div className="grid gap-6">
      <SectionCard id="api-keys-create" title={t('title')} description={t('description')}>
        <div className="grid gap-3">
          {!apiAccess && (
            <p role="note" className="rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm">
              {t('accessOff')}
            </p>
          )}
          <CreateApiKey disabled={!apiAccess} />
          <p className="text-[13px] text-muted-foreground">{t('usage', { url: `${origin}/v1` })}</p>
        </div>
      </SectionCard>
      <SectionCard id="api-keys-list" title={t('yourKeys')} flush>
        <ApiKeysTable keys={keys} labelledBy="api-keys-list-title" empty={<NoApiKeys text={t('emptyText')} />} />
      </SectionCard>
    </div>
  )
}

const noSubscription = () => () => {}
