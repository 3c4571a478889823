import type { Page } from '@playwright/test'
import { expect, test } from './support/test'
import { signInViaApi, signUpAndSignIn, waitForHydration } from './support/session'

const openAccount = async (page: Page) => {
  await page.goto('/settings/account')
  await waitForHydration(page)
}

test('/settings goes to General, and the tabs lead to Account', async ({ page }) => {
  await signUpAndSignIn(page)
  await page.goto('/settings')
  await expect(page).toHaveURL(/\/settings\/general$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible()
  const tabs = page.getByRole('navigation', { name: 'Settings' })
  await expect(tabs.getByRole('link', { name: 'General' })).toHaveAttribute('aria-current', 'page')
  await waitForHydration(page)
  await tabs.getByRole('link', { name: 'Account' }).click()
  await expect(page).toHaveURL(/\/settings\/account$/)
  await expect(page.getByLabel('Name', { exact: true })).toBeVisible()
})

test.describe('account', () => {
  test('shows name and e-mail; a new name shows in the sidebar and is kept after a reload', async ({ page }) => {
    const user = await signUpAndSignIn(page, { name: 'Ada Lovelace' })
    await openAccount(page)
    await expect(page.getByLabel('E-mail')).toHaveValue(user.email)
    const name = page.getByLabel('Name', { exact: true })
    await expect(name).toHaveValue('Ada Lovelace')

    await name.fill('   ')
    await page.getByRole('button', { name: 'Save name' }).click()
    await expect(page.getByText('Name is required')).toBeVisible()
    await expect(name).toHaveAttribute('aria-invalid', 'true')

    await name.fill('Ada King')
    await page.getByRole('button', { name: 'Save name' }).click()
    await expect(page.getByText('Your name has been changed.')).toBeVisible()
    await expect(page.getByTestId('sidebar-user')).toContainText('Ada King')

    await page.reload()
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Ada King')
    await expect(page.getByTestId('sidebar-user')).toContainText('Ada King')
  })

  test('changing the password checks the form, refuses a wrong current password and then works', async ({ page }) => {
    const user = await signUpAndSignIn(page)
    await openAccount(page)
    const current = page.getByLabel('Current password')
    const next = page.getByLabel('New password', { exact: true })
    const confirmation = page.getByLabel('Confirm new password')
    const submit = page.getByRole('button', { name: 'Change password' })

    await current.fill(user.password)
    await next.fill('Short1')
    await confirmation.fill('Short1')
    await submit.click()
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible()

    await next.fill('alllowercase1')
    await confirmation.fill('alllowercase1')
    await submit.click()
    await expect(page.getByText('Invalid password. Must be at least 8 characters, uppercase, lowercase and numbers.')).toBeVisible()

    await next.fill('NewSecret456')
    await confirmation.fill('NewSecret457')
    await submit.click()
    await expect(page.getByText('Passwords do not match')).toBeVisible()

    await current.fill('WrongSecret123')
    await confirmation.fill('NewSecret456')
    await submit.click()
    await expect(page.getByText('Current password is incorrect')).toBeVisible()
    await expect(current).toHaveAttribute('aria-invalid', 'true')

    await current.fill(user.password)
    await submit.click()
    await expect(page.getByText('Your password has been changed.')).toBeVisible()
    await expect(current).toHaveValue('')

    // This session goes on; a new sign-in needs the new password.
    await page.reload()
    await expect(page.getByLabel('Current password')).toBeVisible()
    await page.getByTestId('sidebar').getByRole('button', { name: 'Sign out' }).click()
    await expect(page).toHaveURL(/\/login$/)
    const old = await page.request.post('/api/auth/login', { data: { email: user.email, password: user.password } })
    expect(old.status()).toBe(401)
    await waitForHydration(page)
    await page.locator('#email').fill(user.email)
    await page.locator('#password').fill('NewSecret456')
    await page.locator('form button[type="submit"]').click()
    await expect(page).toHaveURL(/\/chat$/)
    await expect(page.getByTestId('sidebar-user')).toContainText(user.email)
  })
})

test.describe('general', () => {
  test('dark theme is applied at once and, after a reload, before the first paint', async ({ page }) => {
    await signUpAndSignIn(page)
    await page.goto('/settings/general')
    await waitForHydration(page)
    await expect(page.getByRole('radio', { name: 'Light' })).toBeChecked()
    await page.getByRole('radio', { name: 'Dark' }).click()
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark')

    // Record the class when the document is parsed, before any script of the app has run.
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        ;(window as unknown as { darkAtLoad: boolean }).darkAtLoad = document.documentElement.classList.contains('dark')
      })
    })
    await page.reload()
    await page.waitForFunction(() => 'darkAtLoad' in window)
    expect(await page.evaluate(() => (window as unknown as { darkAtLoad: boolean }).darkAtLoad)).toBe(true)
    await waitForHydration(page)
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
    await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked()

    await page.getByRole('radio', { name: 'Light' }).click()
    await expect(page.locator('html')).not.toHaveClass(/\bdark\b/)
    await page.reload()
    await expect(page.locator('html')).not.toHaveClass(/\bdark\b/)
  })

  test('a theme whose save a reload cut off stays in this browser, and the next page saves it to the account', async ({ page }) => {
    await signUpAndSignIn(page)
    await page.goto('/settings/general')
    await waitForHydration(page)
    const me = async () => (await (await page.request.get('/api/auth/me')).json()) as { theme: string | null }
    await page.getByRole('radio', { name: 'Dark' }).click()
    await expect.poll(async () => (await me()).theme).toBe('dark')

    // The next save does not arrive, as when a reload cuts it off.
    await page.route('**/api/users/theme', (route) => route.abort())
    const cutOff = page.waitForEvent('requestfailed', (request) => request.url().includes('/api/users/theme'))
    await page.getByRole('radio', { name: 'Light' }).click()
    await cutOff
    await expect(page.locator('html')).not.toHaveClass(/\bdark\b/)
    expect((await me()).theme).toBe('dark')
    await page.unroute('**/api/users/theme')

    // The page carries the account's dark theme, and this browser keeps its light one.
    await page.reload()
    await expect(page.locator('html')).not.toHaveClass(/\bdark\b/)
    await expect.poll(async () => (await me()).theme).toBe('light')
    await expect.poll(() => page.evaluate(() => localStorage.getItem('theme-unsaved'))).toBeNull()
    await page.reload()
    await waitForHydration(page)
    await expect(page.locator('html')).not.toHaveClass(/\bdark\b/)
    await expect(page.getByRole('radio', { name: 'Light' })).toBeChecked()
  })

  test('switching to Deutsch changes the interface and the account language, and lasts after a reload', async ({ page }) => {
    await signUpAndSignIn(page)
    await page.goto('/settings/general')
    await waitForHydration(page)
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    await page.getByRole('radio', { name: 'Deutsch' }).click()

    await expect(page.getByRole('heading', { level: 1, name: 'Einstellungen' })).toBeVisible()
    await expect(page.getByTestId('sidebar').getByRole('link', { name: 'Kontoeinstellungen' })).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('lang', 'de')
    await expect(page.getByText('Sprache geändert')).toBeVisible()
    await expect.poll(async () => (await (await page.request.get('/api/auth/me')).json()).locale).toBe('de')

    await page.reload()
    await expect(page.locator('html')).toHaveAttribute('lang', 'de')
    await expect(page.getByRole('heading', { level: 1, name: 'Einstellungen' })).toBeVisible()
    await expect(page.getByRole('radio', { name: 'Deutsch' })).toBeChecked()
    await expect(page.getByTestId('sidebar').getByRole('button', { name: 'Abmelden' })).toBeVisible()

    await waitForHydration(page)
    await page.getByRole('radio', { name: 'English' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible()
    await expect.poll(async () => (await (await page.request.get('/api/auth/me')).json()).locale).toBe('en')
  })
})

test("a language and theme picked on one browser reach the member's other browser on its next page load", async ({ page, browser }) => {
  const user = await signUpAndSignIn(page)
  const other = await browser.newContext({ locale: 'en-US' })
  try {
    const elsewhere = await other.newPage()
    await signInViaApi(elsewhere, user.email, user.password)
    await elsewhere.goto('/chat')
    await expect(elsewhere.locator('html')).toHaveAttribute('lang', 'en')
    await expect(elsewhere.locator('html')).not.toHaveClass(/\bdark\b/)

    await page.goto('/settings/general')
    await waitForHydration(page)
    await page.getByRole('radio', { name: 'Dark' }).click()
    await page.getByRole('radio', { name: 'Deutsch' }).click()
    await expect(page.getByText('Sprache geändert')).toBeVisible()
    await expect.poll(async () => (await (await page.request.get('/api/auth/me')).json()).theme).toBe('dark')

    // The other browser still has English in its cookie and light in its storage: the account wins.
    await elsewhere.reload()
    await expect(elsewhere.locator('html')).toHaveAttribute('lang', 'de')
    await expect(elsewhere.locator('html')).toHaveClass(/\bdark\b/)
    await expect(elsewhere.getByRole('link', { name: 'Neuer Chat' }).first()).toBeVisible()
    await waitForHydration(elsewhere)
    // It remembers both from now on, also on the sign-in page once signed out.
    expect(await elsewhere.evaluate(() => localStorage.getItem('theme'))).toBe('dark')
    expect((await other.cookies()).find((c) => c.name === 'kontor-lang')?.value).toBe('de')
  } finally {
    await other.close()
  }
})
