import { expect, test } from './support/test'

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
