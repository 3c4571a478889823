import { enableModels } from './support/chat'
import { signUpAndSignIn, waitForHydration } from './support/session'
import { expect, test } from './support/test'

// The flow's variant: German, dark theme.
test.use({ locale: 'de-DE' })
test.beforeEach(async ({ page }) => page.addInitScript(() => localStorage.setItem('theme', 'dark')))

test('Admin Settings → Einstellungen sets how long chats are kept; Settings → Konto deletes all of one’s chats', async ({ page }) => {
  await signUpAndSignIn(page)
  await enableModels(page)
  for (const title of ['Reiseplanung', 'Quartalszahlen']) {
    const created = await page.request.post('/api/threads', { data: {} })
    expect(created.status()).toBe(201)
    expect((await page.request.patch(`/api/threads/${(await created.json()).id}`, { data: { title } })).status()).toBe(200)
  }

  await page.goto('/admin-settings/organization')
  await waitForHydration(page)
  await expect(page.locator('html')).toHaveClass(/dark/)
  const retention = page.getByRole('region', { name: 'Aufbewahrung von Daten' })
  await expect(retention.getByLabel('Chats aufbewahren')).toHaveValue('forever')
  await retention.getByLabel('Chats aufbewahren').selectOption({ label: 'Nach einer Anzahl von Tagen löschen' })
  const days = retention.getByLabel('Tage nach der letzten Nachricht des Chats')
  await days.fill('0')
  await retention.getByRole('button', { name: 'Aufbewahrung speichern' }).click()
  await expect(retention.getByText('Geben Sie eine ganze Zahl von Tagen zwischen 1 und 3650 ein')).toBeVisible()
  await expect(days).toHaveAttribute('aria-invalid', 'true')
  await days.fill('90')
  await retention.getByRole('button', { name: 'Aufbewahrung speichern' }).click()
  await expect(page.getByText('Die Aufbewahrungsfristen wurden gespeichert.')).toBeVisible()
  expect(await (await page.request.get('/api/organization/retention')).json()).toEqual({ chatDays: 90, fileDays: null })
  await page.screenshot({ path: 'test-results/retention-de-dark.png' })

  await expect(retention.getByRole('button', { name: 'Aufbewahrung speichern' })).toBeDisabled()
  await expect(retention.getByLabel('Dateien von Chats und Wissenssammlungen aufbewahren')).toHaveValue('forever')

  await page.goto('/settings/account')
  await waitForHydration(page)
  const chatLinks = page.locator('a[href^="/chats/"]')
  await expect(chatLinks).toHaveText(['Quartalszahlen', 'Reiseplanung'])
  await page.getByRole('region', { name: 'Alle Chats löschen' }).getByRole('button', { name: 'Alle Chats löschen' }).click()
  const dialog = page.getByRole('alertdialog')
  await expect(dialog).toContainText('Das kann nicht rückgängig gemacht werden.')
  await dialog.getByRole('button', { name: 'Alle Chats löschen' }).click()
  await expect(page.getByText('Alle Ihre Chats wurden gelöscht.')).toBeVisible()
  await expect(dialog).toBeHidden()
  await expect(page.getByText('Ihre Chats erscheinen hier.')).toBeVisible()
  await expect(chatLinks).toHaveCount(0)
  expect((await (await page.request.get('/api/threads')).json()).threads).toEqual([])
})
