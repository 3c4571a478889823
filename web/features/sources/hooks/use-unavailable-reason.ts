import { useTranslation } from 'react-i18next'

/** Why files cannot be attached in this organisation (no embedding model), or null when they can. */
export function useUnavailableReason(isEmbeddingModelEnabled: boolean, isAdmin: boolean): string | null {
  const { t } = useTranslation('sources')
  if (isEmbeddingModelEnabled) return null
  return isAdmin ? t('unavailable.admin') : t('unavailable.user')
}
