import authDe from './de/auth.json'
import commonDe from './de/common.json'
import errorsDe from './de/errors.json'
import membersDe from './de/members.json'
import settingsDe from './de/settings.json'
import validationDe from './de/validation.json'
import authEn from './en/auth.json'
import commonEn from './en/common.json'
import errorsEn from './en/errors.json'
import membersEn from './en/members.json'
import settingsEn from './en/settings.json'
import validationEn from './en/validation.json'

export const resources = {
  en: { common: commonEn, errors: errorsEn, auth: authEn, settings: settingsEn, validation: validationEn, members: membersEn },
  de: { common: commonDe, errors: errorsDe, auth: authDe, settings: settingsDe, validation: validationDe, members: membersDe },
} as const

export const namespaces = Object.keys(resources.en) as Array<keyof (typeof resources)['en']>
