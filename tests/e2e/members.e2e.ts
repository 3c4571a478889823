import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './support/test'
import {
  acceptInNewContext,
  colleagueEmail,
  confirmDialog,
  inviteButton,
  inviteDialog,
  inviteLink,
  inviteRow,
  inviteViaDialog,
  memberRow,
  openUsers,
} from './support/members'
import { PASSWORD, signUpAndSignIn, waitForHydration } from './support/session'

const INVALID = 'Your invitation link is invalid. Please contact the administrator of the organization.'

test('an invited colleague joins as user, is promoted to admin and removed again', async ({ page, browser }) => {
  test.setTimeout(120_000) // a story over two browsers: invite, join, promote, remove
  const admin = await signUpAndSignIn(page, { name: 'Ada Lovelace', organizationName: 'Lovelace Labs' })
  await openUsers(page)
  await expect(memberRow(page, admin.email)).toContainText('(you)')
  await expect(memberRow(page, admin.email).getByRole('button', { name: /Remove/ })).toHaveCount(0)
  await expect(page.getByText('No invitations yet')).toBeVisible()

  const email = colleagueEmail()
  await inviteViaDialog(page, email, 'user')
  await expect(inviteRow(page, email)).toContainText('Pending')
  await expect(inviteRow(page, email)).toContainText('User')

  // The colleague, in a browser of their own, follows the link from the mail.
  const link = await inviteLink(email)
  const probe = await browser.newContext()
  const preview = await probe.newPage()
  await preview.goto(link)
  await expect(preview.getByRole('heading', { name: 'Join Lovelace Labs' })).toBeVisible()
  await expect(preview.getByLabel('E-mail', { exact: true })).toHaveValue(email)
  await expect(preview.getByLabel('E-mail', { exact: true })).toHaveAttribute('readonly', '')
  await probe.close()

  const colleague = await acceptInNewContext(browser, link, 'Bob Builder')
  const sidebar = colleague.getByTestId('sidebar')
  await expect(sidebar.getByRole('link', { name: 'New Chat' })).toBeVisible()
  await expect(sidebar.getByRole('link', { name: 'Admin Settings' })).toHaveCount(0)
  await colleague.goto('/admin-settings/users')
  await expect(colleague.getByRole('heading', { name: 'Not Found' })).toBeVisible()

  // The admin sees the new member and the accepted invitation, and promotes them.
  await openUsers(page)
  await expect(inviteRow(page, email)).toContainText('Accepted')
  const row = memberRow(page, email)
  await expect(row).toContainText('Bob Builder')
  await row.getByRole('combobox', { name: 'Role of Bob Builder' }).selectOption('admin')
  await expect(page.getByText('Bob Builder now has the role Admin.')).toBeVisible()
  await expect(row.getByRole('combobox')).toHaveValue('admin')

  await colleague.goto('/chat')
  await expect(sidebar.getByRole('link', { name: 'Admin Settings' })).toBeVisible()

  // Removing goes through the confirmation dialog; the colleague's session ends with it.
  await row.getByRole('button', { name: 'Remove Bob Builder' }).click()
  const dialog = confirmDialog(page)
  await expect(dialog).toContainText('Remove Bob Builder?')
  await dialog.getByRole('button', { name: 'Remove' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByText('Bob Builder has been removed.')).toBeVisible()
  await expect(row).toHaveCount(0)

  await colleague.goto('/chat')
  await expect(colleague).toHaveURL(/\/login/)
  await colleague.context().close()
})

test('the invite dialog checks its fields and refuses an existing member', async ({ page }) => {
  const admin = await signUpAndSignIn(page)
  await openUsers(page)
  await inviteButton(page).click()
  const dialog = inviteDialog(page)
  const email = dialog.getByLabel('E-mail', { exact: true })
  const send = dialog.getByRole('button', { name: 'Send invitation' })

  await send.click()
  await expect(dialog.getByText('Email is required')).toBeVisible()
  await expect(dialog.getByText('Role is required')).toBeVisible()
  await expect(email).toHaveAttribute('aria-invalid', 'true')

  await email.fill('not-an-address')
  await dialog.getByRole('radio', { name: /^User/ }).click()
  await send.click()
  await expect(dialog.getByText('Please enter a valid email address')).toBeVisible()
  await expect(dialog.getByText('Role is required')).toHaveCount(0)

  await email.fill(admin.email)
  await send.click()
  await expect(dialog.getByText('User already exists')).toBeVisible()

  // Escape closes the dialog; opening it again starts empty.
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await inviteButton(page).click()
  await expect(inviteDialog(page).getByLabel('E-mail', { exact: true })).toHaveValue('')
  await expect(inviteDialog(page).getByLabel('Language of the invitation e-mail')).toHaveValue('en')
  // Self-hosted there is no billing, so the Admin role does not speak of it.
  await expect(inviteDialog(page).getByRole('radio', { name: /Admin/ })).toContainText('Also manages members and models.')

  // In the cloud, an invitation without a free seat is refused; the dialog points to Billing.
  await page.route('**/api/invites', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({ status: 409, json: { code: 'INVITE_NOT_POSSIBLE', message: 'Invite not possible.', status: 409 } })
      : route.continue(),
  )
  await inviteDialog(page).getByLabel('E-mail', { exact: true }).fill(colleagueEmail())
  await inviteDialog(page).getByRole('radio', { name: /^User/ }).click()
  await inviteDialog(page).getByRole('button', { name: 'Send invitation' }).click()
  await expect(inviteDialog(page).getByRole('alert')).toContainText('Invite not possible.')
  await expect(inviteDialog(page).getByRole('link', { name: 'Go to Billing' })).toHaveAttribute('href', '/admin-settings/billing')
})

test('sending again replaces the link, and a revoked invitation shows as Rejected with a dead link', async ({ page }) => {
  test.setTimeout(120_000) // two invitations, each sent, opened and revoked
  await signUpAndSignIn(page)
  await openUsers(page)
  const email = colleagueEmail()
  await inviteViaDialog(page, email, 'admin')
  const first = await inviteLink(email)
  await expect(inviteRow(page, email)).toContainText('Admin')

  await inviteRow(page, email).getByRole('button', { name: `Send the invitation to ${email} again` }).click()
  await expect(page.getByText(`The invitation to ${email} has been sent again.`)).toBeVisible()
  const second = await inviteLink(email, 2)
  expect(second).not.toBe(first)

  await inviteRow(page, email).getByRole('button', { name: `Revoke the invitation to ${email}` }).click()
  const dialog = confirmDialog(page)
  await expect(dialog).toContainText('Revoke the invitation?')
  await dialog.getByRole('button', { name: 'Revoke' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(inviteRow(page, email)).toContainText('Rejected')
  await expect(inviteRow(page, email).getByRole('button')).toHaveCount(0)

  for (const link of [first, second]) {
    await page.goto(link)
    await expect(page.getByRole('heading', { name: 'Invitation not available' })).toBeVisible()
    await expect(page.getByText(INVALID)).toBeVisible()
  }
})

test('without mail delivery the dialog shows the link to pass on, with a copy button', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await signUpAndSignIn(page)
  // The e2e server mails every invitation; answer as a server without SMTP would.
  await page.route('**/api/invites', async (route) => {
    if (route.request().method() !== 'POST') return route.continue()
    const response = await route.fetch()
    const body = await response.json()
    await route.fulfill({ response, json: { ...body, acceptUrl: 'http://localhost/accept-invite?token=passed-on', mailSent: false } })
  })
  await openUsers(page)
  await inviteButton(page).click()
  const email = colleagueEmail()
  await inviteDialog(page).getByLabel('E-mail', { exact: true }).fill(email)
  await inviteDialog(page).getByRole('radio', { name: /^User/ }).click()
  await inviteDialog(page).getByRole('button', { name: 'Send invitation' }).click()

  const dialog = page.getByRole('dialog', { name: 'Pass on the invitation link' })
  await expect(dialog).toContainText('No e-mail was sent')
  await expect(dialog).toContainText(email)
  await expect(dialog.getByLabel('Invitation link')).toHaveValue('http://localhost/accept-invite?token=passed-on')
  await dialog.getByRole('button', { name: 'Copy' }).click()
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('http://localhost/accept-invite?token=passed-on')
  await dialog.getByRole('button', { name: 'Done' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByText('Invitation sent', { exact: true })).toHaveCount(0)
  await expect(inviteRow(page, email)).toContainText('Pending')
})

test('accepting checks the form, and refuses while signed in as someone else until signed out', async ({ page }) => {
  test.setTimeout(120_000) // the form's checks, then two users' sessions in turn
  await signUpAndSignIn(page, { organizationName: 'Fermat Freight' })
  await openUsers(page)
  const email = colleagueEmail()
  await inviteViaDialog(page, email, 'admin')

  // The admin's browser is still signed in when the link is opened there.
  await page.goto(await inviteLink(email))
  await waitForHydration(page)
  await expect(page.getByRole('heading', { name: 'Join Fermat Freight' })).toBeVisible()
  await expect(page.getByText('You join with the role Admin.')).toBeVisible()
  const name = page.getByLabel('Your name')
  const password = page.getByLabel('Password', { exact: true })
  const confirmation = page.getByLabel('Confirm password')
  const join = page.getByRole('button', { name: 'Join organisation' })

  await join.click()
  await expect(page.getByText('Name is required')).toBeVisible()
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible()
  await name.fill('Pierre Fermat')
  await password.fill('lowercase-only-1')
  await confirmation.fill('lowercase-only-1')
  await join.click()
  await expect(page.getByText('Invalid password. Must be at least 8 characters, uppercase, lowercase and numbers.')).toBeVisible()
  await password.fill(PASSWORD)
  await confirmation.fill(`${PASSWORD}x`)
  await join.click()
  await expect(page.getByText('Passwords do not match')).toBeVisible()

  await confirmation.fill(PASSWORD)
  await join.click()
  await expect(page.getByText('You are signed in as another user. Sign out first to accept this invitation.')).toBeVisible()
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page.getByRole('heading', { name: 'Join Fermat Freight' })).toBeVisible()
  await waitForHydration(page)
  await expect(page.getByRole('alert')).toHaveCount(0)
  await page.getByLabel('Your name').fill('Pierre Fermat')
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByLabel('Confirm password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Join organisation' }).click()
  await expect(page).toHaveURL(/\/chat$/)
  await expect(page.getByTestId('sidebar-user')).toContainText('Pierre Fermat')
  await expect(page.getByTestId('sidebar').getByRole('link', { name: 'Admin Settings' })).toBeVisible()

  // The used link now says so.
  await page.goto(await inviteLink(email))
  await expect(page.getByText('You have already accepted an invitation.')).toBeVisible()
})

test('the accept page shows the error screen for a garbage or missing token', async ({ page }) => {
  await page.goto('/accept-invite?token=garbage-token-123')
  await expect(page.getByRole('heading', { name: 'Invitation not available' })).toBeVisible()
  await expect(page.getByRole('alert')).toHaveText(INVALID)
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible()

  await page.goto('/accept-invite')
  await expect(page.getByText(INVALID)).toBeVisible()
})

test('the last admin cannot give up the role', async ({ page }) => {
  const admin = await signUpAndSignIn(page)
  await openUsers(page)
  // The only admin's role is locked, and says why on hover and keyboard focus.
  const select = memberRow(page, admin.email).getByRole('combobox')
  await expect(select).toBeDisabled()
  await expect(select).toHaveAccessibleDescription('You are the only admin. Make another member an admin before you give up the role.')
  await page.getByTestId('only-admin-role').focus()
  await expect(page.getByRole('tooltip')).toHaveText('You are the only admin. Make another member an admin before you give up the role.')
  await expect(select).toHaveValue('admin')
  // The server refuses it too, whatever the screen showed.
  const me = (await (await page.request.get('/api/auth/me')).json()) as { id: string }
  const refused = await page.request.patch(`/api/users/${me.id}/role`, { data: { role: 'user' } })
  expect(refused.status()).toBe(409)
  expect(await refused.json()).toMatchObject({ code: 'LAST_ADMIN', message: 'An organisation needs at least one admin.' })
  await page.reload()
  await expect(memberRow(page, admin.email).getByRole('combobox')).toHaveValue('admin')
})

test('a member sees the language of their account after joining and after signing in on another browser', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000) // joins, then signs in again in a second browser
  await signUpAndSignIn(page)
  await openUsers(page)
  const email = colleagueEmail()
  await inviteViaDialog(page, email, 'user', 'German')
  const link = await inviteLink(email)

  // The accept page follows this (English) browser; the account is German, and so is the chat.
  const colleague = await acceptInNewContext(browser, link, 'Clara Schumann')
  await expect(colleague.getByTestId('sidebar').getByRole('link', { name: 'Neuer Chat' })).toBeVisible()
  await expect(colleague.locator('html')).toHaveAttribute('lang', 'de')
  await colleague.context().close()

  const other = await (await browser.newContext()).newPage()
  await other.goto('/login')
  await waitForHydration(other)
  await expect(other.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible()
  await other.locator('#email').fill(email)
  await other.locator('#password').fill(PASSWORD)
  await other.locator('form button[type="submit"]').click()
  await expect(other).toHaveURL(/\/chat$/)
  await expect(other.getByTestId('sidebar').getByRole('link', { name: 'Neuer Chat' })).toBeVisible()
  await other.reload()
  await expect(other.getByTestId('sidebar').getByRole('link', { name: 'Neuer Chat' })).toBeVisible()
  await other.context().close()
})

test('the users page, the invite dialog and the accept page have no serious accessibility findings', async ({ page }) => {
  test.setTimeout(120_000) // three screens scanned
  await signUpAndSignIn(page)
  await openUsers(page)
  const email = colleagueEmail()
  await inviteViaDialog(page, email, 'user')
  const link = await inviteLink(email)
  const scan = async (where: string, target: Page) => {
    // As it stands, not mid-transition: a toast fading in or out has its colours blended with the page's.
    await target.emulateMedia({ reducedMotion: 'reduce' })
    const results = await new AxeBuilder({ page: target }).analyze()
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    expect(serious.map((v) => `${where} ${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([])
  }
  for (const theme of ['light', 'dark']) {
    await page.evaluate((value) => localStorage.setItem('theme', value), theme)
    await openUsers(page)
    await scan(`${theme} users`, page)
    await inviteButton(page).click()
    await inviteDialog(page).getByRole('button', { name: 'Send invitation' }).click()
    await expect(inviteDialog(page).getByText('Email is required')).toBeVisible()
    await scan(`${theme} invite dialog`, page)
    await page.keyboard.press('Escape')
  }
  await page.context().clearCookies()
  await page.goto(link)
  await scan('accept', page)
  await page.goto('/accept-invite?token=nope')
  await scan('accept invalid', page)
})
