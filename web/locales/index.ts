import agentsDe from './de/agents.json'
import authDe from './de/auth.json'
import billingDe from './de/billing.json'
import chatDe from './de/chat.json'
import commonDe from './de/common.json'
import errorsDe from './de/errors.json'
import membersDe from './de/members.json'
import modelsDe from './de/models.json'
import promptsDe from './de/prompts.json'
import settingsDe from './de/settings.json'
import sourcesDe from './de/sources.json'
import toolsDe from './de/tools.json'
import validationDe from './de/validation.json'
import agentsEn from './en/agents.json'
import authEn from './en/auth.json'
import billingEn from './en/billing.json'
import chatEn from './en/chat.json'
import commonEn from './en/common.json'
import errorsEn from './en/errors.json'
import membersEn from './en/members.json'
import modelsEn from './en/models.json'
import promptsEn from './en/prompts.json'
import settingsEn from './en/settings.json'
import sourcesEn from './en/sources.json'
import toolsEn from './en/tools.json'
import validationEn from './en/validation.json'

export const resources = {
  en: { common: commonEn, errors: errorsEn, auth: authEn, settings: settingsEn, validation: validationEn, members: membersEn, models: modelsEn, chat: chatEn, prompts: promptsEn, agents: agentsEn, billing: billingEn, tools: toolsEn, sources: sourcesEn },
  de: { common: commonDe, errors: errorsDe, auth: authDe, settings: settingsDe, validation: validationDe, members: membersDe, models: modelsDe, chat: chatDe, prompts: promptsDe, agents: agentsDe, billing: billingDe, tools: toolsDe, sources: sourcesDe },
} as const

export const namespaces = Object.keys(resources.en) as Array<keyof (typeof resources)['en']>
