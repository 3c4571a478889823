import { expect, test } from './support/test'
import { signUpAndSignIn, waitForHydration } from './support/session'

test('a signed-out visitor of a protected page lands on /login with the page to return to', async ({ page }) => {
  await page.goto('/settings/account')
  await expect(page).toHaveURL(/\/login\?redirect=%2Fsettings%2Faccount$/)
  await expect(page.getByRole('heading', { name: 'Sign in to Kontor' })).toBeVisible()
})

test('/ goes straight to /chat (and so to /login when signed out)', async ({ page }) => {
  await page.goto('/')
  await expect(page).toHaveURL(/\/login\?redirect=%2Fchat$/)
})

test('unknown pages say Not Found', async ({ page }) => {
  const response = await page.goto('/no-such-page')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Not Found' })).toBeVisible()
})

test('an expired session cookie on a signed-in page still lands on /login, through the page that had started', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'kontor.session_token', value: 'expired.signature', url: baseURL! }])
  await page.goto('/chat')
  await expect(page).toHaveURL(/\/login\?redirect=%2Fchat$/)
  await expect(page.getByRole('heading', { name: 'Sign in to Kontor' })).toBeVisible()
})

test('pages whose head leaves first hydrate without errors, in the stored theme', async ({ page }) => {
  const errors: string[] = []
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
  page.on('pageerror', (error) => errors.push(error.message))
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'))
  await signUpAndSignIn(page)
  for (const path of ['/chat', '/settings/general']) {
    await page.goto(path)
    await waitForHydration(page)
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
    // One document: the early head and the rendered page did not nest a second one.
    expect(await page.evaluate(() => document.querySelectorAll('html, head, body').length)).toBe(3)
    await expect(page.getByTestId('sidebar').getByRole('link', { name: 'Prompts' })).toBeVisible()
  }
  await page.getByTestId('sidebar').getByRole('link', { name: 'Prompts' }).click()
  await expect(page).toHaveURL(/\/prompts$/)
  // The page and its requests are done before the session goes: a request after it would be refused (401).
  await expect(page.getByRole('heading', { name: 'Prompts', exact: true })).toBeVisible()
  await page.waitForLoadState('networkidle')
  await page.context().clearCookies()
  await page.goto('/login')
  await waitForHydration(page)
  await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  expect(errors).toEqual([])
})
