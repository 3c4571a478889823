import AxeBuilder from '@axe-core/playwright'
import { expect, test } from './support/test'
import {
  createVerifiedAccount,
  fillRegisterForm,
  PASSWORD,
  registerViaApi,
  registerViaUi,
  signInViaUi,
  uniqueEmail,
} from './support/account'
import { linkFrom, mailsTo, waitForMail } from './support/mailbox'
import { signUpAndSignIn, waitForHydration } from './support/session'

const CONFIRM_SUBJECT = /Confirm your e-mail address/

test.describe('registration and e-mail confirmation', () => {
  test('register, open the confirm link from the mail, sign in and reach the chat', async ({ page }) => {
    const account = await registerViaUi(page)

    await expect(page).toHaveURL(/\/email-confirm\?email=/)
    await expect(page.getByRole('heading', { name: 'Confirm your e-mail address' })).toBeVisible()
    await expect(page.getByText(account.email)).toBeVisible()

    const mail = await waitForMail(account.email, { subject: CONFIRM_SUBJECT })
    await page.goto(linkFrom(mail, '/confirm-email'))
    await expect(page).toHaveURL(/\/login\?emailVerified=true$/)
    await expect(page.getByText('Your e-mail address is confirmed. You can sign in now.')).toBeVisible()

    await signInViaUi(page, account.email, account.password)
    await expect(page).toHaveURL(/\/chat$/)
  })

  test('an unverified user is sent to /email-confirm and can have the mail sent again, within the limit', async ({
    page,
  }) => {
    const account = await registerViaUi(page)
    await expect(page).toHaveURL(/\/email-confirm/)
    await waitForMail(account.email, { subject: CONFIRM_SUBJECT })

    await page.goto('/chat')
    await expect(page).toHaveURL(/\/email-confirm$/)

    // Without the address in the URL, the page asks for it.
    await page.getByRole('button', { name: 'Send the e-mail again' }).click()
    await expect(page.getByText('Email is required')).toBeVisible()
    await page.getByLabel('E-mail').fill(account.email)
    await page.getByRole('button', { name: 'Send the e-mail again' }).click()
    await expect(page.getByText('We sent you a new confirmation e-mail.')).toBeVisible()
    await waitForMail(account.email, { subject: CONFIRM_SUBJECT, count: 2 })

    // Three confirmation mails per address per 15 minutes: the third passes, the fourth is refused.
    await page.getByRole('button', { name: 'Send the e-mail again' }).click()
    await waitForMail(account.email, { subject: CONFIRM_SUBJECT, count: 3 })
    await page.getByRole('button', { name: 'Send the e-mail again' }).click()
    await expect(
      page.getByText('Too many confirmation email requests. Please wait a few minutes and try again.'),
    ).toBeVisible()
    expect(await mailsTo(account.email)).toHaveLength(3)
  })

  test('"I have confirmed" checks again and goes on to the chat once the link was opened', async ({ page, context }) => {
    const account = await registerViaUi(page)
    await expect(page).toHaveURL(/\/email-confirm/)

    await page.getByRole('button', { name: 'I have confirmed my e-mail' }).click()
    await expect(page.getByText('Your e-mail address is not confirmed yet.', { exact: false })).toBeVisible()

    const mail = await waitForMail(account.email, { subject: CONFIRM_SUBJECT })
    const other = await context.newPage()
    await other.goto(linkFrom(mail, '/confirm-email'))
    await expect(other).toHaveURL(/\/login\?emailVerified=true$/)
    await other.close()

    await page.getByRole('button', { name: 'I have confirmed my e-mail' }).click()
    await expect(page).toHaveURL(/\/chat$/)
  })

  test('a used or broken confirm link shows an error screen', async ({ page, request }) => {
    const account = await registerViaApi(request)
    const link = linkFrom(await waitForMail(account.email, { subject: CONFIRM_SUBJECT }), '/confirm-email')
    await page.goto(link)
    await expect(page).toHaveURL(/\/login\?emailVerified=true$/)

    await page.goto(link)
    await expect(page.getByRole('heading', { name: 'Confirmation failed' })).toBeVisible()
    await expect(page.getByText('Invalid confirmation link.')).toBeVisible()

    await page.goto('/confirm-email?token=not-a-token')
    await expect(page.getByText('Invalid confirmation link.')).toBeVisible()
    await page.getByRole('link', { name: 'Back to sign in' }).click()
    await expect(page).toHaveURL(/\/login$/)
  })

  test('a signed-in user who opens /login goes on to the chat or where the link pointed; signed out, the form shows', async ({ page }) => {
    await signUpAndSignIn(page)
    await page.goto('/login')
    await expect(page).toHaveURL(/\/chat$/)
    await page.goto('/login?redirect=%2Fprompts')
    await expect(page).toHaveURL(/\/prompts$/)
    await page.goto(`/login?redirect=${encodeURIComponent('//evil.example/x')}`)
    await expect(page).toHaveURL(/\/chat$/)
    await waitForHydration(page)
    await page.getByTestId('sidebar').getByRole('button', { name: 'Sign out' }).click()
    await expect(page).toHaveURL(/\/login$/)
    await page.goto('/login')
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible()
  })

  test('sign out from /email-confirm goes back to the sign-in page', async ({ page }) => {
    await registerViaUi(page)
    await expect(page).toHaveURL(/\/email-confirm/)
    await page.getByRole('button', { name: 'Sign out and back to sign in' }).click()
    await expect(page).toHaveURL(/\/login$/)
    await page.goto('/chat')
    await expect(page).toHaveURL(/\/login\?redirect=%2Fchat$/)
  })
})

test.describe('password reset', () => {
  test('forgot password: the mailed link sets a new password, the old one stops working, the link works once', async ({
    page,
    request,
  }) => {
    const account = await createVerifiedAccount(request)
    const newPassword = 'Fresh-Start-99'

    await page.goto('/login')
    await waitForHydration(page)
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await expect(page).toHaveURL(/\/password\/forgot$/)
    // The address changes at once, but the sign-in page stays until the forgot page's code has
    // loaded, and it has an "E-mail" field too: typed before the forgot page is shown, the address
    // went into the sign-in form and the forgot form was sent empty.
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible()
    await page.getByLabel('E-mail').fill(account.email)
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await expect(page.getByText(`If an account exists for ${account.email}`)).toBeVisible()

    const link = linkFrom(await waitForMail(account.email, { subject: /Reset your Kontor password/ }), '/password/reset')
    await page.goto(link)
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible()
    await waitForHydration(page)
    await page.getByLabel('New password').fill('short')
    await page.getByLabel('Confirm password').fill('other')
    await page.getByRole('button', { name: 'Save new password' }).click()
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible()
    await expect(page.getByText('Passwords do not match')).toBeVisible()

    await page.getByLabel('New password').fill(newPassword)
    await page.getByLabel('Confirm password').fill(newPassword)
    await page.getByRole('button', { name: 'Save new password' }).click()
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByText('Your password has been changed.', { exact: false })).toBeVisible()

    await signInViaUi(page, account.email, account.password)
    await expect(page.getByText('Invalid email or password')).toBeVisible()
    await signInViaUi(page, account.email, newPassword)
    await expect(page).toHaveURL(/\/chat$/)

    await page.goto(link)
    await waitForHydration(page)
    await page.getByLabel('New password').fill('Another-Try-77')
    await page.getByLabel('Confirm password').fill('Another-Try-77')
    await page.getByRole('button', { name: 'Save new password' }).click()
    await expect(page.getByText('Invalid token')).toBeVisible()
    await page.getByRole('link', { name: 'Request a new link' }).click()
    await expect(page).toHaveURL(/\/password\/forgot$/)
  })

  test('forgot password answers the same for an unknown address and sends nothing', async ({ page }) => {
    const email = uniqueEmail('nobody')
    await page.goto('/password/forgot')
    // Typed before the form hydrated, the address would be lost (the browser submits the bare form).
    await waitForHydration(page)
    await page.getByLabel('E-mail').fill(email)
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await expect(page.getByText(`If an account exists for ${email}`)).toBeVisible()
    expect(await mailsTo(email)).toHaveLength(0)
  })

  test('the reset page without a token says the link is invalid', async ({ page }) => {
    await page.goto('/password/reset')
    await expect(page.getByText('Invalid token')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Request a new link' })).toBeVisible()
  })
})

test.describe('register form validation', () => {
  test('an empty form names every missing field', async ({ page }) => {
    await page.goto('/register')
    // Sent before the page's script runs, the form would post to the page and open it again, empty.
    await waitForHydration(page)
    await page.getByRole('button', { name: 'Create organisation' }).click()
    const expected = {
      email: 'Email is required',
      name: 'Name is required',
      organizationName: 'Organisation name is required',
      password: 'Password must be at least 8 characters',
      termsAccepted: 'Please accept the terms and the privacy policy',
    }
    for (const [field, message] of Object.entries(expected)) {
      await expect(page.locator(`#${field}-error`)).toHaveText(message)
    }
    await expect(page.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true')
    await expect(page).toHaveURL(/\/register$/)
  })

  test('mismatched passwords, a weak password and a bad address are refused', async ({ page }) => {
    await page.goto('/register')
    await waitForHydration(page)
    await fillRegisterForm(page, {
      email: uniqueEmail(),
      name: 'Ada',
      organization: 'Acme',
      password: PASSWORD,
      confirmation: `${PASSWORD}x`,
    })
    await page.getByRole('button', { name: 'Create organisation' }).click()
    await expect(page.getByText('Passwords do not match')).toBeVisible()

    await fillRegisterForm(page, { email: 'not-an-address', password: 'password1', terms: false })
    await page.getByRole('button', { name: 'Create organisation' }).click()
    await expect(page.getByText('Please enter a valid email address')).toBeVisible()
    await expect(
      page.getByText('Invalid password. Must be at least 8 characters, uppercase, lowercase and numbers.'),
    ).toBeVisible()
    await expect(page).toHaveURL(/\/register$/)
  })

  test('a taken address is refused with "Email already exists"', async ({ page, request }) => {
    const existing = await registerViaApi(request)
    await registerViaUi(page, { email: existing.email })
    await expect(page.getByText('Email already exists')).toBeVisible()
    await expect(page.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true')
    await expect(page).toHaveURL(/\/register$/)
  })
})

test.describe('German interface', () => {
  test.use({ locale: 'de-DE' })

  test('sign-in and register pages speak German, and so does the confirmation mail', async ({ page }) => {
    await page.goto('/login')
    await expect(page.getByRole('heading', { name: 'Bei Kontor anmelden' })).toBeVisible()
    await expect(page.getByLabel('Passwort')).toBeVisible()
    await page.getByRole('link', { name: 'Organisation anlegen' }).click()

    await expect(page).toHaveURL(/\/register$/)
    await expect(page.getByRole('heading', { name: 'Organisation anlegen' })).toBeVisible()
    await expect(page.getByLabel('Name der Organisation')).toBeVisible()
    await page.getByRole('button', { name: 'Organisation anlegen' }).click()
    await expect(page.getByText('E-Mail ist erforderlich')).toBeVisible()
    await expect(page.getByText('Das Passwort muss mindestens 8 Zeichen lang sein')).toBeVisible()

    const email = uniqueEmail('de')
    await fillRegisterForm(page, { email, name: 'Grete Müller', organization: 'Müller GmbH', password: PASSWORD })
    await page.getByRole('button', { name: 'Organisation anlegen' }).click()
    await expect(page.getByRole('heading', { name: 'E-Mail-Adresse bestätigen' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'E-Mail erneut senden' })).toBeVisible()
    await waitForMail(email, { subject: /Bestätigen Sie Ihre E-Mail-Adresse/ })
  })
})

test.describe('accessibility', () => {
  for (const path of ['/register', '/email-confirm?email=a%40acme.test', '/password/forgot', '/password/reset?token=t']) {
    test(`${path} has no serious axe findings`, async ({ page }) => {
      await page.goto(path)
      const results = await new AxeBuilder({ page }).analyze()
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([])
    })
  }
})
