import { expect, type Browser, type BrowserContextOptions, type Page } from '@playwright/test'
import { linkFrom, waitForMail } from './mailbox'
import { PASSWORD, waitForHydration } from './session'

export type Role = 'user' | 'admin'

/** A fresh address on a company-looking domain, unique per call. */
export const colleagueEmail = () => `u-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@acme.test`

/** Admin Settings → Users, hydrated so that clicks reach their handlers. */
export async function openUsers(page: Page) {
  await page.goto('/admin-settings/users')
  await waitForHydration(page)
  await expect(page.getByRole('region', { name: 'Members' })).toBeVisible()
}

export const inviteButton = (page: Page) => page.getByRole('button', { name: 'Invite member' }).first()
export const inviteDialog = (page: Page) => page.getByRole('dialog', { name: 'Invite a member' })
export const memberRow = (page: Page, email: string) => page.getByTestId('member-row').filter({ hasText: email })
export const inviteRow = (page: Page, email: string) => page.getByTestId('invite-row').filter({ hasText: email })
export const confirmDialog = (page: Page) => page.getByRole('alertdialog')

/** Sends an invitation through the dialog (English UI) and waits for the toast. */
export async function inviteViaDialog(page: Page, email: string, role: Role = 'user', language?: 'English' | 'German') {
  await inviteButton(page).click()
  const dialog = inviteDialog(page)
  await dialog.getByLabel('E-mail', { exact: true }).fill(email)
  await dialog.getByRole('radio', { name: role === 'admin' ? /^Admin/ : /^User/ }).click()
  if (language) await dialog.getByLabel('Language of the invitation e-mail').selectOption({ label: language })
  await dialog.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByText('Invitation sent', { exact: true })).toBeVisible()
  await expect(dialog).toHaveCount(0)
}

/** The accept link of the newest invitation mail the SMTP sink received for `email`. */
export async function inviteLink(email: string, count = 1) {
  return linkFrom(await waitForMail(email, { subject: /invited you|eingeladen/, count }), '/accept-invite')
}

/** Opens the link in its own browser context (a different person) and joins with a name and password. */
export async function acceptInNewContext(browser: Browser, link: string, name: string, password = PASSWORD) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(link)
  await waitForHydration(page)
  await page.getByLabel('Your name').fill(name)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByLabel('Confirm password').fill(password)
  await page.getByRole('button', { name: 'Join organisation' }).click()
  await expect(page).toHaveURL(/\/chat$/)
  return page
}

/**
 * A colleague whom the admin signed in on `page` invited (through the API) and who joined through
 * the mailed link, signed in in a browser context of their own.
 */
export async function invitedColleague(page: Page, browser: Browser, context: BrowserContextOptions = {}, name = 'Cleo Colleague') {
  const email = colleagueEmail()
  const invite = await page.request.post('/api/invites', { data: { email, role: 'user', locale: 'en' } })
  expect(invite.status(), await invite.text()).toBe(201)
  const token = new URL(await inviteLink(email)).searchParams.get('token')
  const colleague = await (await browser.newContext(context)).newPage()
  const joined = await colleague.request.post('/api/invites/accept', { data: { token, name, password: PASSWORD, passwordConfirmation: PASSWORD } })
  expect(joined.status(), await joined.text()).toBe(201)
  return colleague
}
