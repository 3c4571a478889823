import { readFileSync } from 'node:fs'
import { strFromU8, unzipSync } from 'fflate'
import type { Download, Page } from '@playwright/test'
import { expect, test } from './support/test'
import { enableModels, startChat } from './support/chat'
import { signUpAndSignIn, waitForHydration } from './support/session'

// This flow's variant: German, dark, desktop (the shortcuts test takes English, light, 390×844).
test.use({ locale: 'de-DE' })

const REPLY = 'Für $x_1 + x_2$ zahlen Sie $5 und $10 im Monat.'

const saved = async (download: Download) => readFileSync((await download.path())!, 'utf8')

async function downloadFrom(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()])
  return download
}

test('a chat downloads as Markdown and JSON from its header and prints without the app around it; Settings download all data as a ZIP', async ({ page }) => {
  await signUpAndSignIn(page)
  await enableModels(page)
  // The exported Markdown speaks the account's language.
  expect((await page.request.patch('/api/users/locale', { data: { locale: 'de' } })).status()).toBe(200)
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'))
  const chat = await startChat(page)
  // The message field by its id: its label is German here.
  const composer = page.locator('#chat-composer')
  await composer.fill(`[[fake:text=${REPLY}]] [[fake:title=Formeln und Preise]] Was kostet das?`)
  await composer.press('Enter')
  const id = await chat.threadId()
  await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
  await expect(chat.title).toHaveText('Formeln und Preise')
  // Inline math is typeset; the prices stay text.
  await expect(chat.lastReply.locator('.katex')).toHaveCount(1)
  await expect(chat.lastReply).toContainText('zahlen Sie $5 und $10 im Monat.')

  const menu = page.getByRole('button', { name: 'Weitere Chat-Aktionen' })
  await menu.click()
  const markdown = await downloadFrom(page, () => page.getByRole('menuitem', { name: 'Als Markdown herunterladen' }).click())
  expect(markdown.suggestedFilename()).toBe('formeln-und-preise.md')
  const md = await saved(markdown)
  expect(md.startsWith('# Formeln und Preise\n')).toBe(true)
  expect(md).toContain('## Sie\n\n[[fake:text=')
  expect(md).toContain(`## Assistent (openai/gpt-4.1)\n\n${REPLY}`)

  await menu.click()
  const json = await downloadFrom(page, () => page.getByRole('menuitem', { name: 'Als JSON herunterladen' }).click())
  expect(json.suggestedFilename()).toBe('formeln-und-preise.json')
  expect(JSON.parse(await saved(json))).toMatchObject({
    format: 'kontor-chat',
    chat: { id, title: 'Formeln und Preise' },
    messages: [{ role: 'user' }, { role: 'assistant', content: REPLY, status: 'complete' }],
  })

  // Printed (and so saved as PDF): the conversation on a light page, without sidebar, composer or buttons.
  await expect(menu).toBeVisible()
  await page.emulateMedia({ media: 'print' })
  await expect(chat.sidebar).toBeHidden()
  await expect(composer).toBeHidden()
  await expect(menu).toBeHidden()
  await expect(page.getByRole('button', { name: 'Kopieren' })).toHaveCount(0)
  await expect(chat.title).toBeVisible()
  await expect(chat.lastReply.locator('.katex')).toBeVisible()
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)')
  await page.screenshot({ path: 'test-results/export-print-de-dark.png', fullPage: true })
  await page.emulateMedia({ media: 'screen' })
  await expect(chat.sidebar).toBeVisible()
  await expect(composer).toBeVisible()

  // Everything of the user's, from the account settings.
  await page.goto('/settings/account')
  await waitForHydration(page)
  const zip = await downloadFrom(page, () => page.getByRole('link', { name: 'Alle meine Daten herunterladen' }).click())
  expect(zip.suggestedFilename()).toMatch(/^kontor-export-\d{4}-\d\d-\d\d\.zip$/)
  const files = unzipSync(new Uint8Array(readFileSync((await zip.path())!)))
  const index = JSON.parse(strFromU8(files['index.json']!))
  expect(index.chats).toMatchObject([{ id, title: 'Formeln und Preise' }])
  expect(strFromU8(files[index.chats[0].markdown]!)).toContain(REPLY)
  expect(Object.keys(files)).toEqual(expect.arrayContaining(['prompts.json', 'agents.json']))
})
