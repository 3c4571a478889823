import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './support/test'
import { chatPage, enableModels, seedMessages } from './support/chat'
import { signUpAndSignIn, waitForHydration } from './support/session'

/** A chat with a title and `count` seeded messages ("Message 1", "Reply 2: …", …); its id. */
async function seededChat(page: Page, title: string, count: number) {
  const id = ((await (await page.request.post('/api/threads', { data: {} })).json()) as { id: string }).id
  expect((await page.request.patch(`/api/threads/${id}`, { data: { title } })).status()).toBe(200)
  await seedMessages(id, count)
  return id
}

test('Ctrl+K, a few words, Enter: the chat opens scrolled to the message, far before its newest page', async ({ page }) => {
  // Signs up, seeds a long chat and scans the dialog: more than a short test.
  test.setTimeout(90_000)
  await signUpAndSignIn(page)
  await enableModels(page)
  // 120 messages: the chat opens with its newest 50 (71–120), and message 31 is well before them.
  const id = await seededChat(page, 'Long planning chat', 120)
  await seededChat(page, 'Another chat', 4)
  await page.goto('/chat')
  await waitForHydration(page)
  const chat = chatPage(page)
  await chat.composer.click()

  await page.keyboard.press('Control+k')
  const dialog = page.getByRole('dialog', { name: 'Search chats' })
  await expect(dialog).toBeVisible()
  const field = dialog.getByRole('combobox', { name: 'Search your chats' })
  await expect(field).toBeFocused()
  await field.fill('message 31')
  const results = dialog.getByRole('option')
  await expect(results).toHaveCount(1)
  await expect(results.first()).toContainText('Long planning chat')
  await expect(results.first()).toHaveAttribute('aria-selected', 'true')
  // The matching words are marked as text.
  await expect(results.first().locator('mark')).toHaveText(['Message', '31'])
  const axe = await new AxeBuilder({ page }).include('[role=dialog]').analyze()
  expect(axe.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical').map((x) => x.id)).toEqual([])
  await page.screenshot({ path: 'test-results/search-en-light-desktop.png' })

  await field.press('Enter')
  await expect(dialog).toBeHidden()
  await expect(page).toHaveURL(new RegExp(`/chats/${id}$`))
  const message = chat.userMessages.filter({ has: page.getByText('Message 31', { exact: true }) })
  await expect(message).toBeInViewport()
  // The newest message is not on screen: the list stayed at the one asked for.
  await expect(chat.replies.filter({ hasText: 'Reply 120:' })).not.toBeInViewport()

  // Ctrl+K opens and closes it; Escape closes it as well.
  await page.keyboard.press('Control+k')
  await expect(dialog).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
})

test('a result in the chat that is open (the page as the server rendered it) scrolls that chat to the message', async ({ page }) => {
  test.setTimeout(90_000)
  await signUpAndSignIn(page)
  await enableModels(page)
  const id = await seededChat(page, 'Long planning chat', 120)
  // Opened by its address (a reload, a link): the server renders it at its newest message.
  await page.goto(`/chats/${id}`)
  await waitForHydration(page)
  const chat = chatPage(page)
  // Read a little further up, then reloaded: the router keeps where each page was scrolled for the
  // tab (sessionStorage) and would carry the list's position over to the result's address.
  await chat.replies.filter({ hasText: 'Reply 120:' }).hover()
  await page.mouse.wheel(0, -400)
  await expect(chat.replies.filter({ hasText: 'Reply 120:' })).not.toBeInViewport()
  await page.reload()
  await waitForHydration(page)
  await chat.composer.click()
  await page.keyboard.press('Control+k')
  const dialog = page.getByRole('dialog', { name: 'Search chats' })
  await dialog.getByRole('combobox', { name: 'Search your chats' }).fill('message 31')
  await expect(dialog.getByRole('option')).toHaveCount(1)
  await page.keyboard.press('Enter')
  await expect(dialog).toBeHidden()
  const message = chat.userMessages.filter({ has: page.getByText('Message 31', { exact: true }) })
  await expect(message).toBeInViewport()
  await expect(chat.replies.filter({ hasText: 'Reply 120:' })).not.toBeInViewport()
})

test.describe('on a phone, in German and dark', () => {
  test.use({ locale: 'de-DE', viewport: { width: 390, height: 844 } })

  test('the sidebar entry opens the search; arrow keys choose a result and the chat opens at it', async ({ page }) => {
    await signUpAndSignIn(page)
    await enableModels(page)
    // The account's language is the page's.
    expect((await page.request.patch('/api/users/locale', { data: { locale: 'de' } })).status()).toBe(200)
    await page.addInitScript(() => localStorage.setItem('theme', 'dark'))
    const budget = await seededChat(page, 'Budget 2027', 6)
    const offsite = await seededChat(page, 'Offsite im Frühling', 6)
    await page.goto(`/chats/${budget}`)
    await waitForHydration(page)
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)

    await page.getByRole('button', { name: 'Menü öffnen' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Chats durchsuchen' }).click()
    const dialog = page.getByRole('dialog', { name: 'Chats durchsuchen' })
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText('Finden Sie einen Chat')
    const field = dialog.getByRole('combobox', { name: 'Ihre Chats durchsuchen' })
    // The last word counts as a beginning while it is typed: "Frü" finds "Frühling".
    await field.fill('offsite frü')
    const results = dialog.getByRole('option')
    await expect(results).toHaveCount(1)
    await expect(results.first()).toContainText('Offsite im Frühling')
    await field.fill('budget')
    await expect(results).toHaveCount(1)
    await field.fill('message 3')
    await expect(results).toHaveCount(2)
    await field.press('ArrowDown')
    await expect(results.nth(1)).toHaveAttribute('aria-selected', 'true')
    const chosen = (await results.nth(1).textContent()) ?? ''
    await page.screenshot({ path: 'test-results/search-de-dark-mobile.png' })
    await field.press('Enter')
    await expect(dialog).toBeHidden()
    await expect(page).toHaveURL(new RegExp(`/chats/${chosen.includes('Budget') ? budget : offsite}$`))
    await expect(chatPage(page).userMessages.filter({ has: page.getByText('Message 3', { exact: true }) })).toBeInViewport()

    // A search with nothing to find says so.
    await page.keyboard.press('Control+k')
    await field.fill('"NEAR(*)" xyzzy')
    await expect(dialog.getByRole('status')).toHaveText('Kein Chat passt zu „"NEAR(*)" xyzzy“.')
  })
})
