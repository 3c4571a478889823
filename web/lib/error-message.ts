import type { TFunction } from 'i18next'
import { isApiError } from './api-client'

/** A translated sentence for any error: the code's translation, never raw server English. */
export function errorMessage(t: TFunction, error: unknown): string {
  // Details name what the message is about (a budget's scope as the key's context, its limit, its reset).
  if (isApiError(error)) return t(error.code, { ns: 'errors', defaultValue: t('UNKNOWN', { ns: 'errors' }), ...error.details, context: error.details?.scope })
  if (error instanceof TypeError) return t('NETWORK', { ns: 'errors' })
  return t('UNKNOWN', { ns: 'errors' })
}
