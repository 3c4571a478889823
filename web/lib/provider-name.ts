import type { TFunction } from 'i18next'

/**
 * A provider's name in the user's language. Catalogue providers are named by the server in
 * English; those with a descriptive rather than a brand name have a translation under
 * `chat:providerNames`. Brands and the organisation's own endpoints keep their name.
 */
export function providerName(t: TFunction, id: string, name: string): string {
  return t(`chat:providerNames.${id}`, { defaultValue: name })
}
