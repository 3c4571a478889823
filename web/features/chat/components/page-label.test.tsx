import { expect, test } from 'bun:test'
import { renderToString } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { allStrings } from '../../../locales/all'
import { createI18n } from '../../../lib/i18n'
import { PageLabel } from './page-label'

const label = (locale: 'en' | 'de', passage: Parameters<typeof PageLabel>[0]['passage']) =>
  renderToString(
    <I18nextProvider i18n={createI18n(locale, allStrings)}>
      <PageLabel passage={passage} />
    </I18nextProvider>,
  ).replace(/<!-- -->/g, '')

test('a passage read by OCR says so after its page, in English and German; others show the page alone', () => {
  const scanned = { page: 2, pageEnd: 2, citation: '(scan.pdf, p. 2)', recognised: true }
  expect(label('en', scanned)).toBe('p. 2 · <span data-testid="recognised-text">recognised text</span>')
  expect(label('de', scanned)).toBe('S. 2 · <span data-testid="recognised-text">erkannter Text</span>')
  expect(label('en', { ...scanned, recognised: false })).toBe('p. 2')
  // Replies stored before OCR have no mark.
  expect(label('en', { page: 1, pageEnd: 3, citation: '(a.pdf, pp. 1–3)' })).toBe('pp. 1–3')
})
