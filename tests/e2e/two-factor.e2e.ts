import { totpCode } from '../support/totp'
import { expect, test } from './support/test'
import { signUpAndSignIn, waitForHydration } from './support/session'

test.describe('authenticator app', () => {
  // This flow's variant: English, light, desktop.
  test.use({ locale: 'en-US', colorScheme: 'light' })

  test('an admin requires two factors, sets up an authenticator app when sent to, and signs in again with a code', async ({ page }) => {
    const admin = await signUpAndSignIn(page)
    await page.goto('/admin-settings/security')
    await waitForHydration(page)
    await page.getByRole('checkbox', { name: 'Require two factors for password users' }).click()
    // The admin has no second factor either: sent to set one up, and nothing else opens.
    await expect(page).toHaveURL(/\/two-factor\/setup$/)
    expect((await page.request.get('/api/threads')).status()).toBe(403)
    await waitForHydration(page)
    const card = page.getByRole('region', { name: 'Two-factor authentication' })
    await card.getByTestId('totp-password').fill(admin.password)
    await card.getByRole('button', { name: 'Set up app' }).click()
    const secret = await card.getByTestId('totp-secret').inputValue()
    await expect(card.getByTestId('totp-uri')).toHaveValue(/^otpauth:\/\/totp\/Kontor:/)
    await card.getByTestId('totp-code').fill(totpCode(secret))
    await card.getByRole('button', { name: 'Confirm' }).click()
    await expect(card.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10)
    await card.getByRole('button', { name: 'I have saved them' }).click()
    await expect(card.getByText('10 recovery codes left.')).toBeVisible()
    await page.getByRole('button', { name: 'Continue to Kontor' }).click()
    await expect(page).toHaveURL(/\/chat$/)

    await waitForHydration(page)
    await page.getByTestId('sidebar').getByRole('button', { name: 'Sign out' }).click()
    await expect(page).toHaveURL(/\/login$/)
    await waitForHydration(page)
    await page.locator('#email').fill(admin.email)
    await page.locator('#password').fill(admin.password)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(page.getByText('Enter the six-digit code from your authenticator app.')).toBeVisible()
    await page.getByLabel('Code').fill(totpCode(secret))
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page).toHaveURL(/\/chat$/)
  })
})

test.describe('passkey', () => {
  // This flow's variant: German, dark, desktop.
  test.use({ locale: 'de-DE', colorScheme: 'dark' })

  test('a member adds a passkey in Einstellungen → Konto and signs in with it, without and after the password', async ({ page }) => {
    const user = await signUpAndSignIn(page)
    // Kontor's dark theme is the account's choice (the browser's preference alone does not switch it).
    expect((await page.request.patch('/api/users/theme', { data: { theme: 'dark' } })).status()).toBe(200)
    // Chromium's virtual authenticator stands in for the device's (it answers at once, user verified).
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('WebAuthn.enable')
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    })

    await page.goto('/settings/account')
    await waitForHydration(page)
    const card = page.getByRole('region', { name: 'Zwei-Faktor-Authentifizierung' })
    await card.getByTestId('passkey-name').fill('Arbeitslaptop')
    await card.getByRole('button', { name: 'Passkey hinzufügen' }).click()
    await expect(card.getByTestId('passkey').filter({ hasText: 'Arbeitslaptop' })).toBeVisible()
    await card.screenshot({ path: 'test-results/two-factor-settings-de-dark.png' })

    // Without a password.
    await page.request.post('/api/auth/logout')
    await page.goto('/login')
    await waitForHydration(page)
    await page.getByRole('button', { name: 'Mit Passkey anmelden' }).click()
    await expect(page).toHaveURL(/\/chat$/)

    // After the password, the passkey is the second step.
    await page.request.post('/api/auth/logout')
    await page.goto('/login')
    await waitForHydration(page)
    await page.locator('#email').fill(user.email)
    await page.locator('#password').fill(user.password)
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
    await expect(page.getByText('Bestätigen Sie mit Ihrem Passkey, um die Anmeldung abzuschließen.')).toBeVisible()
    await page.screenshot({ path: 'test-results/two-factor-passkey-de-dark.png' })
    await page.getByRole('button', { name: 'Passkey verwenden' }).click()
    await expect(page).toHaveURL(/\/chat$/)
  })
})
