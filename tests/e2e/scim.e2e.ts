import { signUpAndSignIn, waitForHydration } from './support/session'
import { expect, test } from './support/test'

// The flow's variant: German on a phone (390×844).
test.use({ locale: 'de-DE', viewport: { width: 390, height: 844 } })

test('Administration → Sicherheit: a SCIM token is created and shown once, provisions a member, and is revoked', async ({ page }) => {
  await signUpAndSignIn(page)
  await page.goto('/admin-settings/security')
  await waitForHydration(page)
  await expect(page.getByRole('heading', { name: 'SCIM-Bereitstellung' })).toBeVisible()
  await expect(page.getByText('Keine SCIM-Tokens')).toBeVisible()

  await page.getByRole('button', { name: 'Token erstellen' }).click()
  await expect(page.getByText('Bitte geben Sie einen Namen ein.')).toBeVisible()
  await page.getByLabel('Name', { exact: true }).fill('Entra ID')
  await page.getByRole('button', { name: 'Token erstellen' }).click()

  const shown = page.getByTestId('new-scim-token')
  await expect(shown).toHaveValue(/^kontor_scim_[A-Za-z0-9_-]{43}$/)
  const token = await shown.inputValue()
  await page.getByRole('button', { name: 'Fertig' }).click()
  // Shown once: gone from the page; the list has only its first characters.
  await expect(shown).toHaveCount(0)
  const row = page.getByTestId('scim-token-row')
  await expect(row).toContainText('Entra ID')
  await expect(row).toContainText(`${token.slice(0, 16)}…`)
  await expect(row).toContainText('Nie')
  await expect(page.getByText(token)).toHaveCount(0)

  // The identity provider provisions a member with it; the list shows the token's last use.
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' }
  const userName = `scim-${Date.now()}@acme.test`
  const created = await page.request.post('/scim/v2/Users', {
    headers,
    data: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName, displayName: 'Grace Hopper', active: true },
  })
  expect(created.status(), await created.text()).toBe(201)
  await page.reload()
  await waitForHydration(page)
  await expect(row.locator('time')).toHaveCount(2)

  await row.getByRole('button', { name: 'Entra ID widerrufen' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Widerrufen' }).click()
  await expect(page.getByText('„Entra ID“ wurde widerrufen.')).toBeVisible()
  await expect(page.getByTestId('scim-token-row')).toHaveCount(0)
  const refused = await page.request.get('/scim/v2/Users', { headers })
  expect(refused.status()).toBe(401)
})
