import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './support/test'
import { chatPage, enableModels, startChat } from './support/chat'
import { signUpAndSignIn, waitForHydration } from './support/session'

/** What a user reads, per language. */
const TEXT = {
  en: {
    openMenu: 'Open menu',
    actions: 'Chat actions',
    rename: 'Rename',
    titleField: 'Chat title',
    pin: 'Pin to top',
    unpin: 'Unpin',
    pinned: 'Pinned',
    select: 'Select several',
    selected: '2 selected',
    delete: 'Delete',
    dialog: 'Delete 2 chats?',
    confirm: 'Delete 2 chats',
    deleted: '2 chats deleted',
  },
  de: {
    openMenu: 'Menü öffnen',
    actions: 'Aktionen für den Chat',
    rename: 'Umbenennen',
    titleField: 'Titel des Chats',
    pin: 'Oben anheften',
    unpin: 'Lösen',
    pinned: 'Angeheftet',
    select: 'Mehrere auswählen',
    selected: '2 ausgewählt',
    delete: 'Löschen',
    dialog: '2 Chats löschen?',
    confirm: '2 Chats löschen',
    deleted: '2 Chats gelöscht',
  },
} as const

type Variant = { lang: keyof typeof TEXT; theme: 'light' | 'dark'; mobile: boolean }
const VARIANTS: Variant[] = [
  { lang: 'en', theme: 'light', mobile: false },
  { lang: 'de', theme: 'dark', mobile: false },
  { lang: 'en', theme: 'dark', mobile: true },
  { lang: 'de', theme: 'light', mobile: true },
]

/** Chats made through the API, oldest first, each with a title. */
async function seedChats(page: Page, titles: string[]) {
  const ids: string[] = []
  for (const title of titles) {
    const id = ((await (await page.request.post('/api/threads', { data: {} })).json()) as { id: string }).id
    expect((await page.request.patch(`/api/threads/${id}`, { data: { title } })).status()).toBe(200)
    ids.push(id)
  }
  return ids
}

const titleOf = async (page: Page, id: string) => ((await (await page.request.get(`/api/threads/${id}`)).json()) as { title: string | null }).title

for (const v of VARIANTS) {
  const name = `${v.lang}, ${v.theme}${v.mobile ? ', 390×844' : ''}`
  test.describe(`organising chats (${name})`, () => {
    // Each test signs up, seeds four chats and walks the sidebar (opened as a drawer on a phone): longer than most.
    test.describe.configure({ timeout: 120_000 })
    // The page's language follows the browser's (Accept-Language) when no language was chosen.
    test.use({ locale: v.lang === 'de' ? 'de-DE' : 'en-US', ...(v.mobile ? { viewport: { width: 390, height: 844 } } : {}) })

    test('rename from the header and the sidebar; the tab shows the title', async ({ page }) => {
      const { text, chat, sidebar, chatMenu, ids } = await openChats(page, v, ['Alpha', 'Beta', 'Gamma', 'Delta'])
      const [alpha, beta] = ids as [string, string]
      // The header's title is a field once clicked: Enter renames, the tab follows.
      await chat.title.getByRole('button').click()
      const headerField = page.getByRole('textbox', { name: text.titleField })
      await expect(headerField).toHaveValue('Alpha')
      await headerField.fill('Quarterly   plan')
      await headerField.press('Enter')
      await expect(chat.title).toHaveText('Quarterly plan')
      await expect(page).toHaveTitle('Quarterly plan · Kontor')
      await expect.poll(() => titleOf(page, alpha)).toBe('Quarterly plan')
      // Escape gives up.
      await chat.title.getByRole('button').click()
      await headerField.fill('Never mind')
      await headerField.press('Escape')
      await expect(chat.title).toHaveText('Quarterly plan')
      await page.screenshot({ path: `test-results/organise-${v.lang}-${v.theme}-${v.mobile ? 'mobile' : 'desktop'}-header.png` })

      // Rename from the sidebar's menu: the field takes the link's place, with the focus.
      const bar = await sidebar()
      await expect(bar.getByRole('link', { name: 'Quarterly plan', exact: true })).toBeVisible()
      await (await chatMenu('Beta')).getByRole('menuitem', { name: text.rename }).click()
      const listField = bar.getByRole('textbox', { name: text.titleField })
      await expect(listField).toBeFocused()
      await listField.fill('Budget 2027')
      await listField.press('Enter')
      await expect(bar.getByRole('link', { name: 'Budget 2027', exact: true })).toBeVisible()
      await expect.poll(() => titleOf(page, beta)).toBe('Budget 2027')

    })

    test('pin to the top (kept after a reload), choose several and delete them together, unpin', async ({ page }) => {
      const { text, sidebar, chatMenu, closeSidebar, ids } = await openChats(page, v, ['Quarterly plan', 'Budget 2027', 'Gamma', 'Delta'])
      const [, beta, gamma, delta] = ids as [string, string, string, string]
      let bar = await sidebar()
      // Pin the oldest chat: it leads the list under its own heading, also after a reload.
      const links = bar.locator('a[href^="/chats/"]')
      await expect(links.first()).toHaveText('Delta')
      await (await chatMenu('Gamma')).getByRole('menuitem', { name: text.pin }).click()
      await expect(bar.getByRole('heading', { name: text.pinned })).toBeVisible()
      await expect(links.first()).toHaveText('Gamma')
      await page.screenshot({ path: `test-results/organise-${v.lang}-${v.theme}-${v.mobile ? 'mobile' : 'desktop'}-pinned.png` })
      await page.reload()
      await waitForHydration(page)
      bar = await sidebar()
      await expect(bar.locator('a[href^="/chats/"]').first()).toHaveText('Gamma')
      await expect(bar.getByRole('heading', { name: text.pinned })).toBeVisible()

      // Choose two chats, delete them together after confirming.
      await (await chatMenu('Budget 2027')).getByRole('menuitem', { name: text.select }).click()
      await expect(bar.getByRole('checkbox', { name: 'Budget 2027' })).toBeChecked()
      await bar.getByRole('checkbox', { name: 'Delta' }).check()
      const toolbar = bar.getByRole('toolbar')
      await expect(toolbar).toContainText(text.selected)
      await page.screenshot({ path: `test-results/organise-${v.lang}-${v.theme}-${v.mobile ? 'mobile' : 'desktop'}-select.png` })
      const axe = await new AxeBuilder({ page }).analyze()
      const serious = axe.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')
      expect(serious.map((x) => `${x.id}: ${x.nodes.map((n) => n.target).join(', ')}`)).toEqual([])
      await toolbar.getByRole('button', { name: text.delete, exact: true }).click()
      const dialog = page.getByRole('alertdialog')
      await expect(dialog).toContainText(text.dialog)
      await dialog.getByRole('button', { name: text.confirm }).click()
      await expect(page.getByText(text.deleted)).toBeVisible()
      bar = await sidebar()
      await expect(bar.getByRole('toolbar')).toHaveCount(0)
      await expect(bar.locator('a[href^="/chats/"]')).toHaveCount(2)
      for (const id of [beta, delta]) expect((await page.request.get(`/api/threads/${id}`)).status()).toBe(404)
      expect((await page.request.get(`/api/threads/${gamma}`)).status()).toBe(200)

      // Unpin: the chat goes back to its place by activity.
      await (await chatMenu('Gamma')).getByRole('menuitem', { name: text.unpin }).click()
      await expect(bar.getByRole('heading', { name: text.pinned })).toHaveCount(0)
      await expect(bar.locator('a[href^="/chats/"]')).toHaveText(['Gamma', 'Quarterly plan'])
      await closeSidebar()
    })
  })
}

/** Signed in with four chats (oldest first), on the first one, in the variant's language, theme and size. */
async function openChats(page: Page, v: Variant, titles: string[]) {
  const text = TEXT[v.lang]
  await signUpAndSignIn(page)
  await enableModels(page)
  await page.addInitScript((theme) => localStorage.setItem('theme', theme), v.theme)
  const ids = await seedChats(page, titles)
  await page.goto(`/chats/${ids[0]}`)
  await waitForHydration(page)
  await expect(page.locator('html')).toHaveClass(v.theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/)
  await expect(page).toHaveTitle(`${titles[0]} · Kontor`)
  const chat = chatPage(page)
  /** The sidebar, opened as a drawer on a narrow screen. */
  const sidebar = async () => {
    if (!v.mobile) return chat.sidebar
    const drawer = page.getByRole('dialog')
    if (!(await drawer.isVisible())) await page.getByRole('button', { name: text.openMenu }).click()
    await expect(drawer).toBeVisible()
    return drawer
  }
  const closeSidebar = async () => {
    if (v.mobile) await page.keyboard.press('Escape')
  }
  const chatMenu = async (title: string) => {
    const bar = await sidebar()
    await bar.getByRole('button', { name: `${text.actions}: ${title}`, exact: true }).click()
    return page.getByRole('menu')
  }
  return { text, chat, sidebar, closeSidebar, chatMenu, ids }
}

test('a first reply that is stopped still titles the chat from the message, in the header, the sidebar and the tab', async ({ page }) => {
  test.setTimeout(120_000)
  await signUpAndSignIn(page)
  await enableModels(page)
  const chat = await startChat(page)
  await chat.write('[[fake:tokens=400]] [[fake:delay=50]] Plan the offsite')
  const id = await chat.threadId()
  await expect(chat.lastReply.getByTestId('assistant-content')).not.toBeEmpty()
  await chat.stop.click()
  await expect(chat.lastReply).toHaveAttribute('data-status', 'stopped')
  const expected = '[[fake:tokens=400]] [[fake:delay=50]] Plan the of…'
  await expect(chat.title).toHaveText(expected)
  await expect(chat.sidebar.getByRole('link', { name: expected, exact: true })).toBeVisible()
  await expect(page).toHaveTitle(`${expected} · Kontor`)
  await expect.poll(() => titleOf(page, id)).toBe(expected)
})
