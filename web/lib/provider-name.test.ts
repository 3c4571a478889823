import { expect, test } from 'bun:test'
import { allStrings } from '../locales/all'
import { createI18n } from './i18n'
import { providerName } from './provider-name'

test("a descriptive catalogue name is shown in the user's language; brands and own endpoints keep theirs", () => {
  const de = createI18n('de', allStrings)
  expect(providerName(de.t, 'ollama', 'Self-hosted (OpenAI-compatible)')).toBe('Selbst gehostet (OpenAI-kompatibel)')
  expect(providerName(de.t, 'openai', 'OpenAI')).toBe('OpenAI')
  expect(providerName(de.t, 'a1b2c3d4-endpoint', 'Unser Rechenzentrum')).toBe('Unser Rechenzentrum')
  expect(providerName(createI18n('en', allStrings).t, 'ollama', 'Self-hosted (OpenAI-compatible)')).toBe('Self-hosted (OpenAI-compatible)')
})
