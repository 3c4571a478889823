import { colleagueEmail, inviteLink } from './support/members'
import { expect, test } from './support/test'
import { PASSWORD, signInViaApi, signUpAndSignIn, waitForHydration } from './support/session'

// This flow's variant: German, dark, desktop.
test.use({ locale: 'de-DE', colorScheme: 'dark' })

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'

test('Einstellungen → Konto lists where the user is signed in; signing out another browser ends it there at once', async ({ page, browser }) => {
  const admin = await signUpAndSignIn(page)
  // The same person in Firefox on another computer.
  const firefox = await browser.newContext({ userAgent: FIREFOX_LINUX, locale: 'de-DE' })
  const firefoxPage = await firefox.newPage()
  await signInViaApi(firefoxPage, admin.email, admin.password)

  await page.goto('/settings/account')
  await waitForHydration(page)
  const sessions = page.getByRole('region', { name: 'Wo Sie angemeldet sind' })
  const rows = sessions.getByTestId('session-row')
  await expect(rows).toHaveCount(2)
  await expect(rows.filter({ hasText: 'Dieser Browser' })).toContainText('jetzt aktiv')
  await expect(rows.filter({ hasText: 'Firefox 128 auf Linux' })).toContainText('zuletzt aktiv')
  await page.screenshot({ path: 'test-results/sessions-de-dark.png' })
  await sessions.getByRole('button', { name: 'Firefox 128 auf Linux abmelden' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Abmelden' }).click()
  await expect(page.getByText('Die Sitzung wurde abgemeldet.')).toBeVisible()
  await expect(rows).toHaveCount(1)
  // Firefox is signed out at once.
  await firefoxPage.goto('/chat')
  await expect(firefoxPage).toHaveURL(/\/login/)
  await firefox.close()
})

test('an admin signs a member out everywhere from the members list', async ({ page, browser }) => {
  await signUpAndSignIn(page)
  // A member signed in on a phone.
  const email = colleagueEmail()
  expect((await page.request.post('/api/invites', { data: { email, role: 'user' } })).status()).toBe(201)
  const phone = await browser.newContext({ locale: 'de-DE' })
  const phonePage = await phone.newPage()
  const token = new URL(await inviteLink(email)).searchParams.get('token')
  const accepted = await phonePage.request.post('/api/invites/accept', { data: { token, name: 'Mia Member', password: PASSWORD, passwordConfirmation: PASSWORD } })
  expect(accepted.status()).toBe(201)
  await page.goto('/admin-settings/users')
  await waitForHydration(page)
  await page.getByTestId('member-row').filter({ hasText: 'Mia Member' }).getByRole('button', { name: 'Mia Member überall abmelden' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Überall abmelden' }).click()
  await expect(page.getByText('Mia Member wurde von einer Sitzung abgemeldet.')).toBeVisible()
  await phonePage.goto('/chat')
  await expect(phonePage).toHaveURL(/\/login/)
  await phone.close()
})
