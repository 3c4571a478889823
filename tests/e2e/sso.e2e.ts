import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, startOidcProvider } from '../support/oidc-provider'
import { startSamlIdp } from '../support/saml-idp'
import { signUpAndSignIn, waitForHydration } from './support/session'
import { expect, test } from './support/test'

// The flow's variant: a phone-sized window (390×844).
test.use({ viewport: { width: 390, height: 844 } })

test('Admin → Security: an admin configures OpenID Connect; a new colleague signs in at the provider and lands in /chat as a member', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000) // two people in two browsers, and the provider's pages
  const idp = await startOidcProvider({ redirectPrefix: `${baseURL}/api/auth/sso/callback/` })
  try {
    const domain = `sso-${crypto.randomUUID().slice(0, 8)}.example`
    await signUpAndSignIn(page)
    await page.goto('/admin-settings/security')
    await waitForHydration(page)
    await expect(page.getByRole('heading', { name: 'Single sign-on' })).toBeVisible()
    await page.getByLabel('Issuer URL').fill(idp.issuer)
    await page.getByLabel('Client ID').fill(OIDC_CLIENT_ID)
    await page.getByLabel('Client secret').fill(OIDC_CLIENT_SECRET)
    await page.getByLabel('E-mail domains (comma-separated)').fill(domain)
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText('Single sign-on saved')).toBeVisible()
    await expect(page.getByRole('list', { name: 'Domains' })).toContainText(`${domain}Verified`)
    await expect(page.getByLabel('Client secret')).toHaveAttribute('placeholder', 'Stored — leave empty to keep it')

    // A colleague who has no account yet.
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const colleague = await context.newPage()
    await colleague.goto('/login')
    await waitForHydration(colleague)
    await colleague.getByLabel('E-mail').fill(`grace@${domain}`)
    await colleague.getByLabel('E-mail').blur()
    await colleague.getByRole('button', { name: 'Continue with single sign-on' }).click()

    // The provider's own pages.
    await expect(colleague).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`))
    await colleague.getByPlaceholder('Enter any login').fill(`grace@${domain}`)
    await colleague.getByPlaceholder('and password').fill('anything')
    await colleague.getByRole('button', { name: 'Sign-in' }).click()
    await colleague.getByRole('button', { name: 'Continue' }).click()

    await expect(colleague).toHaveURL(/\/chat$/)
    const me = await colleague.request.get('/api/auth/me')
    expect(await me.json()).toMatchObject({ email: `grace@${domain}`, role: 'user', emailVerified: true })
    await context.close()
  } finally {
    await idp.close()
  }
})

test.describe('SAML (dark)', () => {
  test.use({ colorScheme: 'dark', viewport: { width: 1280, height: 800 } })

  test("Admin → Security: an admin configures SAML 2.0 from the provider's metadata; a new colleague signs in at the provider and lands in /chat", async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000) // two people in two browsers, and the provider's page
    const idp = await startSamlIdp()
    try {
      const domain = `saml-${crypto.randomUUID().slice(0, 8)}.example`
      await signUpAndSignIn(page)
      await page.goto('/admin-settings/security')
      await waitForHydration(page)
      await page.getByLabel('Protocol').selectOption('saml')
      // What to register at the provider is shown before anything is saved.
      await expect(page.getByText('/api/auth/sso/saml2/sp/acs/')).toBeVisible()
      await page.getByLabel('Identity provider metadata (XML)').fill(idp.metadata)
      await page.getByLabel('E-mail domains (comma-separated)').fill(domain)
      await page.getByRole('button', { name: 'Save' }).click()
      await expect(page.getByText('Single sign-on saved')).toBeVisible()
      await expect(page.getByText(`Signs in at ${idp.ssoUrl}`)).toBeVisible()

      const context = await browser.newContext({ colorScheme: 'dark' })
      const colleague = await context.newPage()
      await colleague.goto('/login')
      await waitForHydration(colleague)
      await colleague.getByLabel('E-mail').fill(`ada@${domain}`)
      await colleague.getByLabel('E-mail').blur()
      await colleague.getByRole('button', { name: 'Continue with single sign-on' }).click()

      // The provider's page; its answer is a form posted back to Kontor from the provider's site.
      await expect(colleague).toHaveURL(new RegExp(`^${idp.ssoUrl}\\?SAMLRequest=`))
      await colleague.getByLabel('E-mail').fill(`ada@${domain}`)
      await colleague.getByRole('button', { name: 'Sign in' }).click()

      await expect(colleague).toHaveURL(/\/chat$/)
      const me = await colleague.request.get('/api/auth/me')
      expect(await me.json()).toMatchObject({ email: `ada@${domain}`, role: 'user', emailVerified: true })
      await context.close()
    } finally {
      await idp.close()
    }
  })
})
