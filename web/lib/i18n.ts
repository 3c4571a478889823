import i18next, { type i18n } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { resources, namespaces } from '../locales'

export type Language = 'en' | 'de'
export const LANGUAGES: Language[] = ['en', 'de']
export const FALLBACK_LANGUAGE: Language = 'de'
export const LANGUAGE_COOKIE = 'kontor-lang'

export const toLanguage = (value: string | null | undefined): Language | undefined =>
  LANGUAGES.find((l) => value?.toLowerCase().startsWith(l))

/** Cookie first, then the browser's Accept-Language, then German (spec section 9). */
export function detectLanguage(cookieHeader: string | null, acceptLanguage: string | null): Language {
  const fromCookie = cookieHeader?.match(new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=(\\w+)`))?.[1]
  if (toLanguage(fromCookie)) return toLanguage(fromCookie)!
  for (const part of acceptLanguage?.split(',') ?? []) {
    const lang = toLanguage(part.split(';')[0]?.trim())
    if (lang) return lang
  }
  return FALLBACK_LANGUAGE
}

/** One instance per SSR request and one in the browser; resources are bundled, so init is synchronous. */
export function createI18n(lng: Language): i18n {
  const instance = i18next.createInstance()
  instance.use(initReactI18next).init({
    resources,
    lng,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: LANGUAGES,
    ns: namespaces,
    defaultNS: 'common',
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  })
  return instance
}

export function rememberLanguage(lng: Language) {
  document.cookie = `${LANGUAGE_COOKIE}=${lng}; path=/; max-age=${60 * 60 * 24 * 365}; samesite=lax`
}

/**
 * After sign-in, shows the interface in the account's saved language, so a user sees their
 * own language on any browser; this browser remembers it from then on.
 */
export async function adoptAccountLanguage(instance: i18n, locale: Language) {
  if (toLanguage(instance.language) === locale) return
  rememberLanguage(locale)
  await instance.changeLanguage(locale)
  document.documentElement.lang = locale
}
