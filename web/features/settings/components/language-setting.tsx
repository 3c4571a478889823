import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { RadioCard, RadioGroup } from '../../../components/ui/radio-group'
import { errorMessage } from '../../../lib/error-message'
import { rememberLanguage, switchLanguage, toLanguage, type Language } from '../../../lib/i18n'
import { useChangeLocale } from '../api'
import { SectionCard } from '../../../components/section-card'

// Each language is named in itself, so it can be found whatever the current one is.
const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch' }

/**
 * Interface language (this browser, via cookie for server rendering) and the account's (e-mails,
 * and the member's other browsers from their next page load on).
 */
export function LanguageSetting() {
  const { t, i18n } = useTranslation('settings')
  const changeLocale = useChangeLocale()
  const current = toLanguage(i18n.language) ?? 'de'

  const choose = async (value: string) => {
    const lng = toLanguage(value)
    if (!lng || lng === current) return
    rememberLanguage(lng)
    await switchLanguage(i18n, lng)
    changeLocale.mutate(lng, {
      onSuccess: () => toast.success(i18n.t('settings:general.languageSaved')),
      onError: (error) => toast.error(errorMessage(i18n.t, error)),
    })
  }

  return (
    <SectionCard id="language" title={t('general.language')} description={t('general.languageHint')}>
      <RadioGroup value={current} onValueChange={choose} aria-label={t('general.language')} className="grid-cols-2 sm:max-w-md">
        {(Object.keys(LANGUAGE_NAMES) as Language[]).map((lng) => (
          <RadioCard key={lng} value={lng} lang={lng}>
            {LANGUAGE_NAMES[lng]}
          </RadioCard>
        ))}
      </RadioGroup>
    </SectionCard>
  )
}
