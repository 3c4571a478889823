import { expect, test } from './support/test'
import { enableModels } from './support/chat'
import { signUpAndSignIn, waitForHydration } from './support/session'

// German, light, desktop.
test.use({ locale: 'de-DE' })

test('a confirmation whose action fails stays open and says why', async ({ page }) => {
  await signUpAndSignIn(page)
  await enableModels(page)
  const ids: string[] = []
  for (const title of ['Weg damit', 'Behalten']) {
    const id = ((await (await page.request.post('/api/threads', { data: {} })).json()) as { id: string }).id
    await page.request.patch(`/api/threads/${id}`, { data: { title } })
    ids.push(id)
  }
  await page.goto(`/chats/${ids[1]}`)
  await waitForHydration(page)
  await page.getByTestId('sidebar').getByRole('button', { name: 'Aktionen für den Chat: Weg damit', exact: true }).click()
  await page.getByRole('menuitem', { name: 'Löschen' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Diesen Chat löschen?' })
  await expect(dialog).toBeVisible()

  // Meanwhile the chat went (another tab deleted it): deleting it here fails.
  expect((await page.request.delete(`/api/threads/${ids[0]}`)).status()).toBe(204)
  await dialog.getByRole('button', { name: 'Chat löschen' }).click()
  await expect(dialog.getByRole('alert')).toHaveText('Der Chat konnte nicht gelöscht werden. Chat nicht gefunden')
  await expect(dialog).toBeVisible()
  // The dialog is where it is said: no toast repeats it.
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0)
  await expect(dialog.getByRole('button', { name: 'Chat löschen' })).toBeEnabled()
  await page.screenshot({ path: 'test-results/confirm-error-de-light.png' })

  await dialog.getByRole('button', { name: 'Abbrechen' }).click()
  await expect(dialog).toBeHidden()
})
