import i18next, { type i18n } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { loadStrings, manageNamespaces, namespaces, publicNamespaces, type Strings, type StringsPart } from '../locales'

export type Language = 'en' | 'de'
export const LANGUAGES: Language[] = ['en', 'de']
export const FALLBACK_LANGUAGE: Language = 'de'
export const LANGUAGE_COOKIE = 'kontor-lang'

export const toLanguage = (value: string | null | undefined): Language | undefined =>
  LANGUAGES.find((l) => value?.toLowerCase().startsWith(l))

const cookieLanguage = (cookieHeader: string | null) => cookieHeader?.match(new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=(\\w+)`))?.[1]

/** Cookie first, then the browser's Accept-Language, then German (spec section 9). */
export function detectLanguage(cookieHeader: string | null, acceptLanguage: string | null): Language {
  const fromCookie = cookieLanguage(cookieHeader)
  if (toLanguage(fromCookie)) return toLanguage(fromCookie)!
  for (const part of acceptLanguage?.split(',') ?? []) {
    const lang = toLanguage(part.split(';')[0]?.trim())
    if (lang) return lang
  }
  return FALLBACK_LANGUAGE
}

/**
 * One instance per SSR request and one in the browser, given the strings it starts with (the
 * parts of the page's language that page needs: src/ssr/render.tsx, web/entry-client.tsx), so
 * init is synchronous. German is the fallback language; English has every German key
 * (locales.test.ts), so an English page never needs the German strings.
 */
export function createI18n(lng: Language, strings: Partial<Record<Language, Partial<Strings>>>): i18n {
  const instance = i18next.createInstance()
  instance.use(initReactI18next).init({
    resources: strings,
    lng,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: LANGUAGES,
    ns: namespaces,
    defaultNS: 'common',
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    // Components translate again when strings arrive (the error messages come after a sign-in
    // page is interactive), so nothing shown before keeps a key in place of its text.
    react: { bindI18nStore: 'added' },
  })
  return instance
}

/** The cookie that keeps a browser's language for a year (set by the page, or by the server for a member's account language). */
export const languageCookie = (lng: Language) => `${LANGUAGE_COOKIE}=${lng}; path=/; max-age=${60 * 60 * 24 * 365}; samesite=lax`

/** Whether a Cookie header already names `lng` as the language. */
export const cookieMatches = (cookieHeader: string | null, lng: Language) => cookieLanguage(cookieHeader) === lng

export function rememberLanguage(lng: Language) {
  document.cookie = languageCookie(lng)
}

/**
 * After sign-in, shows the interface in the account's saved language, so a user sees their
 * own language on any browser; this browser remembers it from then on.
 */
export async function adoptAccountLanguage(instance: i18n, locale: Language) {
  if (toLanguage(instance.language) === locale) return
  rememberLanguage(locale)
  await switchLanguage(instance, locale)
}

/** A namespace of each part, to tell whether an instance holds that part of a language. */
const marker: Record<StringsPart, string> = {
  public: publicNamespaces[0],
  errors: 'errors',
  app: namespaces.find((ns) => ns !== 'errors' && !(publicNamespaces as readonly string[]).includes(ns) && !(manageNamespaces as readonly string[]).includes(ns))!,
  manage: manageNamespaces[0],
}

/** Adds one part of a language's strings to the instance, fetching its chunk (on the server, importing its module) unless it holds them already. */
async function loadPart(instance: i18n, lng: Language, part: StringsPart) {
  if (instance.hasResourceBundle(lng, marker[part])) return
  const strings = await loadStrings[lng][part]()
  for (const [ns, bundle] of Object.entries(strings)) instance.addResourceBundle(lng, ns, bundle, true, true)
}

/**
 * The error messages in the page's language: the browser loads them before it hydrates a page,
 * or right after for a page whose first render shows none (`staticData.errorStrings`); the root
 * route awaits them before any page the browser navigates to, and the browser's API client before
 * it hands on a failed request's answer (web/entry-client.tsx).
 */
export function ensureErrorStrings(instance: i18n) {
  return loadPart(instance, toLanguage(instance.language) ?? FALLBACK_LANGUAGE, 'errors')
}

/**
 * The strings of the signed-in screens in the page's language: the app's layout awaits them
 * before its first page, and the browser before it hydrates such a page (web/entry-client.tsx).
 */
export function ensureAppStrings(instance: i18n) {
  return loadPart(instance, toLanguage(instance.language) ?? FALLBACK_LANGUAGE, 'app')
}

/**
 * The strings of the settings and administration screens in the page's language: their layouts
 * (and the two-factor set-up) await them, and the browser before it hydrates such a page.
 */
export function ensureManageStrings(instance: i18n) {
  return loadPart(instance, toLanguage(instance.language) ?? FALLBACK_LANGUAGE, 'manage')
}

/** Shows the interface in `lng`, first fetching the parts of its strings this page uses if it has not loaded them yet. */
export async function switchLanguage(instance: i18n, lng: Language) {
  const current = toLanguage(instance.language) ?? FALLBACK_LANGUAGE
  const parts = (['public', 'errors', 'app', 'manage'] as const).filter((part) => part === 'public' || instance.hasResourceBundle(current, marker[part]))
  await Promise.all(parts.map((part) => loadPart(instance, lng, part)))
  await instance.changeLanguage(lng)
  document.documentElement.lang = lng
}
