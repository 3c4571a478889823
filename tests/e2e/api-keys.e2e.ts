import { enableModels } from './support/chat'
import { signUpAndSignIn, waitForHydration } from './support/session'
import { expect, test } from './support/test'

// The flow's variant: the dark theme.
test.beforeEach(async ({ page }) => page.addInitScript(() => localStorage.setItem('theme', 'dark')))

test('Settings → API keys: a key is created and shown once, copied, used (last used shows) and revoked', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await signUpAndSignIn(page)
  await enableModels(page)
  await page.goto('/settings')
  await waitForHydration(page)
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API keys' }).click()
  await expect(page).toHaveURL(/\/settings\/api-keys$/)
  await expect(page.locator('html')).toHaveClass(/dark/)
  await expect(page.getByText('No API keys')).toBeVisible()

  await page.getByRole('button', { name: 'Create key' }).click()
  await expect(page.getByText('Please enter a name.')).toBeVisible()
  await page.getByLabel('Name', { exact: true }).fill('Laptop script')
  await page.getByLabel('Expires').selectOption('30')
  await page.getByRole('button', { name: 'Create key' }).click()

  const shown = page.getByTestId('new-api-key')
  await expect(shown).toHaveValue(/^kontor_[A-Za-z]{64}$/)
  const key = await shown.inputValue()
  await page.getByRole('button', { name: 'Copy' }).click()
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key)
  await page.getByRole('button', { name: 'Done' }).click()
  // Shown once: gone from the page, and the list has only its first characters.
  await expect(shown).toHaveCount(0)
  const row = page.getByTestId('api-key-row')
  await expect(row).toContainText('Laptop script')
  await expect(row).toContainText(`${key.slice(0, 11)}…`)
  await expect(page.getByText(key)).toHaveCount(0)
  await expect(row.getByTestId('api-key-last-used')).toHaveText('Never')

  // A call with the key; the list shows when it was last used.
  const call = await page.request.get('/v1/models', { headers: { authorization: `Bearer ${key}` } })
  expect(call.status()).toBe(200)
  expect((await call.json()).data.map((m: { id: string }) => m.id)).toEqual(['openai/gpt-4.1'])
  await page.reload()
  await expect(row.getByTestId('api-key-last-used').locator('time')).toBeVisible()

  await row.getByRole('button', { name: 'Revoke Laptop script' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click()
  await expect(page.getByText('“Laptop script” was revoked.')).toBeVisible()
  await expect(page.getByTestId('api-key-row')).toHaveCount(0)
  const refused = await page.request.get('/v1/models', { headers: { authorization: `Bearer ${key}` } })
  expect(refused.status()).toBe(401)
})
