import { readFileSync } from 'node:fs'
import { expect, test } from './support/test'
import { makeDocx } from '../support/documents'
import { makeScan, makeScannedPdf, scanSize } from '../support/scans'
import { enableModels, llmRequests } from './support/chat'
import { invitedColleague } from './support/members'
import { signUpAndSignIn, waitForHydration } from './support/session'

// One flow in a variant of its own: German, dark, on a phone.
test.use({ locale: 'de-DE', viewport: { width: 390, height: 844 } })

test('a collection is created, filled, attached in the composer and cited with collection, file and page', async ({ page }) => {
  // Text recognition of the scanned page takes a few seconds of a core that other tests share.
  test.setTimeout(150_000)
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'))
  await signUpAndSignIn(page)
  await enableModels(page, ['openai/gpt-4.1', 'openai/text-embedding-3-small'])

  // The Knowledge page is in the navigation (a drawer on a phone).
  await page.goto('/chat')
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Menü öffnen' }).click()
  await page.getByRole('link', { name: 'Wissen', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Wissen' })).toBeVisible()
  await expect(page.getByText('Noch keine Sammlungen')).toBeVisible()

  await page.getByRole('button', { name: 'Neue Sammlung' }).click()
  await page.getByLabel('Name').fill('Hafen')
  await page.getByLabel('Beschreibung').fill('Alles über den Hafen')
  await page.getByRole('button', { name: 'Sammlung anlegen' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Hafen' })).toBeVisible()
  // Renamed from its page.
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Details bearbeiten' }).click()
  const details = page.getByRole('dialog', { name: 'Sammlung bearbeiten' })
  await expect(details.getByLabel('Beschreibung')).toHaveValue('Alles über den Hafen')
  await details.getByLabel('Name').fill('Hafenhandbuch')
  await details.getByRole('button', { name: 'Speichern' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Hafenhandbuch' })).toBeVisible()
  await expect(page.locator('html')).toHaveClass(/dark/)

  // A two-page PDF; its second page, a scan without a text layer, holds the answer.
  const scan = ['Kranhandbuch, zweiter Teil', 'Der Kran hebt höchstens 12 Tonnen.', 'Die Prüfung erfolgt jedes Jahr im März.']
  const pdf = makeScannedPdf([{ text: ['Kranhandbuch', 'Allgemeines zum Kai.'] }, { scan: makeScan(scan, 'jpeg'), ...scanSize(scan) }])
  const chooser = page.waitForEvent('filechooser')
  await page.getByTestId('collection-upload').click()
  await (await chooser).setFiles({ name: 'kran.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdf) })
  const file = page.getByTestId('collection-file').filter({ hasText: 'kran.pdf' })
  await expect(file.locator('[data-status]')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 })
  await expect(file).toContainText('Bereit · 2 Seiten')
  await expect(page.getByRole('heading', { name: 'Freigabe' })).toBeVisible()

  // The Knowledge page finds it by name or description.
  await page.getByRole('link', { name: 'Wissen' }).first().click()
  const search = page.getByRole('searchbox', { name: 'Sammlungen durchsuchen' })
  await search.fill('hafen alles')
  await expect(page.getByTestId('collection-card')).toHaveCount(1)
  await search.fill('Flughafen')
  await expect(page.getByTestId('collection-card')).toHaveCount(0)
  await expect(page.getByText('Keine Sammlung passt zu „Flughafen“.')).toBeVisible()

  // A new chat: the collection is attached from the composer before the first message.
  await page.goto('/chat')
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Wissenssammlungen' }).click()
  await page.getByRole('menuitemcheckbox', { name: /Hafenhandbuch/ }).click()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('collection-chip')).toHaveText('Hafenhandbuch')

  const composer = page.getByRole('textbox', { name: 'Nachricht' })
  await composer.fill(
    '[[fake:tool=source_query:{"query":"Kran hebt Tonnen"}]] ' +
      '[[fake:after-tool=Der Kran hebt höchstens 12 Tonnen (Hafenhandbuch › kran.pdf, pp. 1–2).]] Wie viel hebt der Kran?',
  )
  await composer.press('Enter')
  const reply = page.getByTestId('assistant-message').last()
  await expect(reply).toHaveAttribute('data-status', 'complete', { timeout: 30_000 })
  // The chat keeps the collection: its page shows the chip it got from the server.
  await expect(page).toHaveURL(/\/chats\/[\w-]+$/)
  await expect(page.getByTestId('collection-chip')).toHaveText('Hafenhandbuch')

  // The model got the passage with the citation to use: collection, file and pages.
  const toolMessage = (await llmRequests()).flatMap((r) => r.body?.messages ?? []).find((m) => m.role === 'tool' && String(m.content).includes('12 Tonnen'))
  expect(String(toolMessage?.content)).toContain('Cite as: (Hafenhandbuch › kran.pdf, pp. 1–2)')
  expect(String(toolMessage?.content)).toContain('Recognised text (OCR of a scan or picture)')

  // The citation in the answer opens the passage, named by collection and file.
  const citation = reply.getByRole('button', { name: 'Zitierte Textstelle (Hafenhandbuch › kran.pdf, pp. 1–2) anzeigen' })
  await citation.click()
  const passage = page.getByTestId('citation-passage')
  await expect(passage).toContainText('Hafenhandbuch › kran.pdf')
  await expect(passage).toContainText('Der Kran hebt höchstens 12 Tonnen.')
  // Its text was read from the scan, and the citation says so.
  await expect(passage.getByTestId('recognised-text')).toHaveText('erkannter Text')
  await expect(passage).toContainText('S. 1–2 · erkannter Text')
})

test.describe('a collection shared with the organisation (English, desktop)', () => {
  test.use({ locale: 'en-US', viewport: { width: 1280, height: 800 } })

  test("a real PDF and a Word document are uploaded and shared; a colleague attaches the collection in a chat of their own and gets a cited answer", async ({ page, browser }) => {
    test.setTimeout(90_000) // two people in two browsers, and two files processed on a core that other tests share
    await signUpAndSignIn(page)
    await enableModels(page, ['openai/gpt-4.1', 'openai/text-embedding-3-small'])
    await page.goto('/knowledge')
    await waitForHydration(page)
    await page.getByRole('button', { name: 'New collection' }).first().click()
    await page.getByLabel('Name').fill('Desktop standards')
    await page.getByRole('button', { name: 'Create collection' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Desktop standards' })).toBeVisible()
    await waitForHydration(page)

    // A specification from Debian's documentation (17 pages, made by DocBook) and a Word document, chosen together.
    const docx = makeDocx([{ heading: 1, text: 'Onboarding' }, 'New laptops are handed out by the service desk on the first working day.'])
    const chooser = page.waitForEvent('filechooser')
    await page.getByTestId('collection-upload').click()
    await (await chooser).setFiles([
      { name: 'shared-mime-info-spec.pdf', mimeType: 'application/pdf', buffer: readFileSync(new URL('../fixtures/third-party/shared-mime-info-spec.pdf', import.meta.url)) },
      { name: 'onboarding.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: Buffer.from(docx) },
    ])
    const pdfRow = page.getByTestId('collection-file').filter({ hasText: 'shared-mime-info-spec.pdf' })
    const docxRow = page.getByTestId('collection-file').filter({ hasText: 'onboarding.docx' })
    await expect(pdfRow.locator('[data-status]')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 })
    await expect(pdfRow).toContainText('Ready · 17 pages')
    await expect(docxRow.locator('[data-status]')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 })

    // Shared with everyone in the organisation, as readers.
    const sharing = page.getByRole('region', { name: 'Sharing' })
    await sharing.getByLabel('Everyone in the organisation').selectOption({ label: 'Reader' })
    await sharing.getByRole('button', { name: 'Save sharing' }).click()
    await expect(page.getByText('Sharing saved')).toBeVisible()

    // A colleague of the same organisation, in a browser of their own.
    const colleague = await invitedColleague(page, browser, { locale: 'en-US' })

    // The collection is under "Shared with me", read-only for them.
    await colleague.goto('/knowledge')
    const card = colleague.getByRole('region', { name: 'Shared with me' }).getByTestId('collection-card')
    await expect(card).toContainText('Desktop standards')
    await expect(card).toContainText('2 files · Reader · Ada Lovelace')

    // They attach it to a new chat from the composer and ask.
    await colleague.goto('/chat')
    await waitForHydration(colleague)
    await colleague.getByRole('button', { name: 'Knowledge collections' }).click()
    await colleague.getByRole('menuitemcheckbox', { name: /Desktop standards/ }).click()
    await colleague.keyboard.press('Escape')
    await expect(colleague.getByTestId('collection-chip')).toHaveText('Desktop standards')
    const composer = colleague.getByRole('textbox', { name: 'Message' })
    const cited = '(Desktop standards › shared-mime-info-spec.pdf, p. 14)'
    await composer.fill(
      '[[fake:tool=source_query:{"query":"user.mime_type extended attribute"}]] ' +
        `[[fake:after-tool=A file's MIME type may be stored in its user.mime_type extended attribute ${cited}.]] Where can a file keep its MIME type?`,
    )
    await composer.press('Enter')
    const reply = colleague.getByTestId('assistant-message').last()
    await expect(reply).toHaveAttribute('data-status', 'complete', { timeout: 30_000 })

    // The citation opens the passage of the real PDF, on its page.
    await reply.getByRole('button', { name: `Show the cited passage ${cited}` }).click()
    const passage = colleague.getByTestId('citation-passage')
    await expect(passage).toContainText('Desktop standards › shared-mime-info-spec.pdf')
    await expect(passage).toContainText('user.mime_type extended attribute')

    // The Word document is searched too, in the same chat.
    await composer.fill(
      '[[fake:tool=source_query:{"query":"laptops service desk"}]] ' +
        '[[fake:after-tool=The service desk hands out laptops on the first day (Desktop standards › onboarding.docx, chunk 1).]] Who hands out laptops?',
    )
    await composer.press('Enter')
    const second = colleague.getByTestId('assistant-message').nth(1)
    await expect(second).toHaveAttribute('data-status', 'complete', { timeout: 30_000 })
    await second.getByRole('button', { name: 'Show the cited passage (Desktop standards › onboarding.docx, chunk 1)' }).click()
    await expect(colleague.getByTestId('citation-passage')).toContainText('New laptops are handed out by the service desk on the first working day.')
    await colleague.context().close()
  })
})
