import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './support/test'
import { signUpAndSignIn, waitForHydration } from './support/session'
import { enableModels, startChat } from './support/chat'

const sidebar = (page: Page) => page.getByTestId('sidebar')

test.describe('desktop sidebar', () => {
  test('an admin sees every entry, the empty chat list and who is signed in; Upgrade is hidden when self-hosted', async ({
    page,
  }) => {
    const user = await signUpAndSignIn(page, { name: 'Grace Hopper', organizationName: 'Hopper & Co' })
    await page.goto('/chat')
    const nav = sidebar(page)
    await expect(nav.getByRole('link', { name: 'New Chat' })).toBeVisible()
    await expect(nav.getByRole('link', { name: 'Prompts' })).toBeVisible()
    await expect(nav.getByRole('link', { name: 'Agents' })).toBeVisible()
    await expect(nav.getByRole('heading', { name: 'Chats' })).toBeVisible()
    await expect(nav.getByText('Your chats will be listed here.')).toBeVisible()
    await expect(nav.getByRole('link', { name: 'Account Settings' })).toBeVisible()
    await expect(nav.getByRole('link', { name: 'Admin Settings' })).toBeVisible()
    await expect(nav.getByRole('button', { name: 'Sign out' })).toBeVisible()
    await expect(nav.getByText('Upgrade')).toHaveCount(0)
    const card = nav.getByTestId('sidebar-user')
    await expect(card).toContainText('Grace Hopper')
    await expect(card).toContainText(user.email)
    await expect(card).toContainText('Hopper & Co')

    // The entries come in the order of the spec.
    const names = await nav.locator('a, button').evaluateAll((els) => els.map((e) => e.textContent?.trim() || e.getAttribute('aria-label')))
    const order = ['New Chat', 'Prompts', 'Agents', 'Account Settings', 'Admin Settings', 'Sign out']
    expect(names.filter((n) => order.includes(n ?? ''))).toEqual(order)
  })

  test('the current page is highlighted as the visitor moves through the sidebar', async ({ page }) => {
    await signUpAndSignIn(page)
    await page.goto('/chat')
    await waitForHydration(page)
    const nav = sidebar(page)
    await expect(nav.getByRole('link', { name: 'New Chat' })).toHaveAttribute('aria-current', 'page')

    await nav.getByRole('link', { name: 'Prompts' }).click()
    await expect(page).toHaveURL(/\/prompts$/)
    await expect(nav.getByRole('link', { name: 'Prompts' })).toHaveAttribute('aria-current', 'page')
    await expect(nav.getByRole('link', { name: 'New Chat' })).not.toHaveAttribute('aria-current', 'page')

    await nav.getByRole('link', { name: 'Agents' }).click()
    await expect(page).toHaveURL(/\/agents$/)
    await expect(nav.getByRole('link', { name: 'Agents' })).toHaveAttribute('aria-current', 'page')

    await nav.getByRole('link', { name: 'Account Settings' }).click()
    await expect(page).toHaveURL(/\/settings\/account$/)
    await expect(nav.getByRole('link', { name: 'Account Settings' })).toHaveAttribute('aria-current', 'page')
  })

  test('collapsing leaves an icon rail that stays collapsed after a reload', async ({ page }) => {
    await signUpAndSignIn(page)
    await page.goto('/prompts')
    await waitForHydration(page)
    const nav = sidebar(page)
    await nav.getByRole('button', { name: 'Collapse sidebar' }).click()
    await expect(page.locator('html')).toHaveAttribute('data-sidebar', 'collapsed')
    await expect.poll(async () => (await nav.boundingBox())?.width).toBeLessThan(80)
    // Labels stay for screen readers; the entries keep their names.
    await expect(nav.getByRole('link', { name: 'Prompts' })).toBeVisible()

    await page.reload()
    await expect(page.locator('html')).toHaveAttribute('data-sidebar', 'collapsed')
    expect((await nav.boundingBox())?.width).toBeLessThan(80)
    await waitForHydration(page)
    await nav.getByRole('button', { name: 'Expand sidebar' }).click()
    await expect.poll(async () => (await nav.boundingBox())?.width).toBeGreaterThan(240)
    await expect(nav.getByText('Your chats will be listed here.')).toBeVisible()
  })

  test('signing out goes to /login, and protected pages send the visitor there again', async ({ page }) => {
    await signUpAndSignIn(page)
    await page.goto('/settings/account')
    await waitForHydration(page)
    await sidebar(page).getByRole('button', { name: 'Sign out' }).click()
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByRole('heading', { name: 'Sign in to Kontor' })).toBeVisible()
    expect((await page.request.get('/api/auth/me')).status()).toBe(401)

    await page.goto('/prompts')
    await expect(page).toHaveURL(/\/login\?redirect=%2Fprompts$/)
    await page.goto('/admin-settings/users')
    await expect(page).toHaveURL(/\/login\?redirect=/)
  })
})

/**
 * Holds the page's script (the entry, which the page also preloads) until `release` is called: the
 * page is on screen, and none of its buttons is hydrated yet.
 */
async function holdPageScript(page: Page) {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\/build\/entry-client-\w+\.js$/, async (route) => {
    await released
    await route.continue()
  })
  return release
}

/** How many clicks and forms the page's first script keeps (src/ssr/early-clicks.ts). */
const keptClicks = (page: Page) => page.evaluate(() => (window as { __kontorClicks?: unknown[] }).__kontorClicks?.length)

test.describe('clicks before the page\'s script has run (decision 0134)', () => {
  test('a button pressed before the script has loaded does what it says once it has, once; a link and a click with a modifier key are the browser\'s', async ({ page }) => {
    await signUpAndSignIn(page)
    const release = await holdPageScript(page)
    // A page with the early head (src/ssr/early-head.ts).
    await page.goto('/prompts', { waitUntil: 'commit' })
    const html = page.locator('html')
    const toggle = sidebar(page).getByRole('button', { name: 'Collapse sidebar' })
    // With a modifier key: not kept.
    await toggle.click({ modifiers: ['Control'] })
    expect(await keptClicks(page)).toBe(0)
    await expect(html).not.toHaveAttribute('data-early-click')
    // Pressed twice: kept once. Nothing happened yet, and the page says it is busy.
    await toggle.click()
    await toggle.click()
    await expect(html).toHaveAttribute('data-early-click', '')
    await expect(html).toHaveCSS('cursor', 'progress')
    await expect(html).not.toHaveAttribute('data-sidebar', 'collapsed')
    release()
    await expect(html).toHaveAttribute('data-sidebar', 'collapsed')
    await expect(html).not.toHaveAttribute('data-early-click')
    // Done once (twice would have expanded it again).
    await waitForHydration(page)
    await expect(html).toHaveAttribute('data-sidebar', 'collapsed')

    // A link goes before any script has run.
    const again = await holdPageScript(page)
    await page.goto('/prompts', { waitUntil: 'commit' })
    await sidebar(page).getByRole('link', { name: 'Agents' }).click()
    await expect(page).toHaveURL(/\/agents$/)
    again()
  })

  test('the sign-in form sent before the script has loaded signs in once it has, and the password never goes into an address', async ({ page }) => {
    const user = await signUpAndSignIn(page)
    await page.context().clearCookies()
    const addresses: string[] = []
    page.on('request', (request) => addresses.push(request.url()))
    const release = await holdPageScript(page)
    await page.goto('/login', { waitUntil: 'commit' })
    await page.getByLabel('E-mail').fill(user.email)
    await page.getByLabel('Password', { exact: true }).fill(user.password)
    // Sent by the browser, this form (no method="post") would have gone to /login?email=…&password=….
    await page.getByLabel('Password', { exact: true }).press('Enter')
    await expect(page.locator('html')).toHaveAttribute('data-early-click', '')
    release()
    await expect(page).toHaveURL(/\/chat$/)
    expect(addresses.filter((address) => address.includes(encodeURIComponent(user.password)) || address.includes(user.password))).toEqual([])
  })

  test('any other form sent before the script has loaded is stopped, not sent: its password goes into no address either', async ({ page }) => {
    await signUpAndSignIn(page)
    const addresses: string[] = []
    page.on('request', (request) => addresses.push(request.url()))
    const release = await holdPageScript(page)
    await page.goto('/settings/account', { waitUntil: 'commit' })
    const current = page.getByLabel('Current password')
    await current.fill('Typed-before-the-script-1')
    await current.press('Enter')
    // Nothing kept (the form does not say data-early-submit) and nothing sent: the page stays, with what was typed.
    expect(await keptClicks(page)).toBe(0)
    release()
    await waitForHydration(page)
    await expect(page).toHaveURL(/\/settings\/account$/)
    await expect(current).toHaveValue('Typed-before-the-script-1')
    expect(addresses.filter((address) => address.includes('Typed-before-the-script-1'))).toEqual([])
  })

  test('a form that says method="post" sent before the script has loaded posts to its page, as before', async ({ page }) => {
    const release = await holdPageScript(page)
    await page.goto('/register', { waitUntil: 'commit' })
    await page.getByLabel('E-mail').fill('ada@example.com')
    const posted = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/register')
    await page.getByLabel('E-mail').press('Enter')
    await posted
    await expect(page).toHaveURL(/\/register$/)
    await expect(page.locator('html')).not.toHaveAttribute('data-early-click')
    release()
  })

  test('a chat\'s menu pressed before the script has loaded opens once it has', async ({ page }) => {
    await signUpAndSignIn(page)
    await enableModels(page)
    const chat = await startChat(page)
    await chat.write('Hello there')
    await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
    const release = await holdPageScript(page)
    // An open chat has no early head: its rendered head carries the script.
    await page.reload({ waitUntil: 'commit' })
    await page.getByRole('button', { name: 'More chat actions' }).click()
    await expect(page.locator('html')).toHaveAttribute('data-early-click', '')
    await expect(page.getByRole('menu')).toHaveCount(0)
    release()
    // Radix opens a menu on the pointer's press: the click is done as a press, a release and a click.
    await expect(page.getByRole('menu', { name: 'More chat actions' })).toBeVisible()
    await expect(page.getByRole('menuitem', { name: 'Share in the organisation…' })).toBeVisible()
  })
})

test.describe('admin settings', () => {
  test('/admin-settings goes to Users and shows the tabs (API; no Billing when self-hosted; Mails outside production); Settings renames the organisation', async ({ page }) => {
    await signUpAndSignIn(page)
    await page.goto('/admin-settings')
    await expect(page).toHaveURL(/\/admin-settings\/users$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Settings' })).toBeVisible()
    const tabs = page.getByRole('navigation', { name: 'Admin Settings' })
    await expect(tabs.getByRole('link')).toHaveText(['Settings', 'Users', 'Groups', 'Models', 'API', 'MCP servers', 'Usage', 'Security', 'Audit log', 'Mails'])
    await expect(tabs.getByRole('link', { name: 'Users' })).toHaveAttribute('aria-current', 'page')
    await expect(page.getByRole('region', { name: 'Members' })).toBeVisible()

    await waitForHydration(page)
    await tabs.getByRole('link', { name: 'Models' }).click()
    await expect(page).toHaveURL(/\/admin-settings\/models$/)
    await expect(page.getByRole('region', { name: 'Providers' })).toBeVisible()

    // Settings: the organisation's, inside the admin area.
    await tabs.getByRole('link', { name: 'Settings' }).click()
    await expect(page).toHaveURL(/\/admin-settings\/organization$/)
    await expect(tabs.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page')
    const name = page.getByLabel('Organisation name')
    await expect(name).toHaveValue('Acme Analytics')
    await name.fill('  ')
    await page.getByRole('button', { name: 'Save name' }).click()
    await expect(page.getByText('Organisation name is required')).toBeVisible()
    await name.fill('Acme Research')
    await page.getByRole('button', { name: 'Save name' }).click()
    await expect(page.getByText("The organisation's name has been changed.")).toBeVisible()
    await expect(page.getByTestId('sidebar-user')).toContainText('Acme Research')
    await page.reload()
    await expect(page.getByLabel('Organisation name')).toHaveValue('Acme Research')

    await page.goto('/admin-settings/billing')
    await expect(page.getByRole('heading', { name: 'Not Found' })).toBeVisible()
  })
})

test.describe('narrow screens', () => {
  test.use({ viewport: { width: 390, height: 800 } })

  test('the sidebar is a drawer: the menu button opens it, Escape and navigation close it', async ({ page }) => {
    await signUpAndSignIn(page)
    await page.goto('/chat')
    await waitForHydration(page)
    await expect(sidebar(page)).toBeHidden()
    const drawer = page.getByRole('dialog')
    const menu = page.getByRole('button', { name: 'Open menu' })

    await menu.click()
    await expect(drawer).toBeVisible()
    await expect(drawer.getByRole('link', { name: 'Prompts' })).toBeVisible()
    await expect(drawer.getByRole('button', { name: 'Sign out' })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(drawer).toBeHidden()
    await expect(menu).toBeFocused()

    await menu.click()
    await drawer.getByRole('link', { name: 'Agents' }).click()
    await expect(page).toHaveURL(/\/agents$/)
    await expect(drawer).toBeHidden()

    await menu.click()
    await drawer.getByRole('button', { name: 'Close menu' }).click()
    await expect(drawer).toBeHidden()
  })
})

// One test per screen and theme: each signs up, loads one page and scans it, so it fits its budget on 2 cores.
test.describe('accessibility', () => {
  for (const theme of ['light', 'dark']) {
    for (const path of ['/chat', '/settings/general', '/settings/account', '/admin-settings/users']) {
      test(`${path} has no serious axe findings in the ${theme} theme`, async ({ page }) => {
        await signUpAndSignIn(page)
        await page.addInitScript((t) => localStorage.setItem('theme', t), theme)
        await page.goto(path)
        await waitForHydration(page)
        await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/)
        const results = await new AxeBuilder({ page }).analyze()
        const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
        expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([])
      })
    }
  }
})
