import { expect, type APIRequestContext, type Page } from '@playwright/test'
import { linkFrom, waitForMail } from './mailbox'
import { waitForHydration } from './session'

/** Meets the password rule (8+ characters, upper and lower case, digits). */
export const PASSWORD = 'Kontor-Test-2024'

/** A fresh address on a company-looking domain, unique per call. */
export const uniqueEmail = (prefix = 'u') => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@acme.test`

export type Account = { email: string; name: string; organization: string; password: string }

const newAccount = (overrides: Partial<Account> = {}): Account => ({
  email: uniqueEmail(),
  name: 'Ada Lovelace',
  organization: 'Acme Analytics',
  password: PASSWORD,
  ...overrides,
})

/** Fills and sends the register form (fields found by id, so it works in either language). */
export async function registerViaUi(page: Page, overrides: Partial<Account> = {}): Promise<Account> {
  const account = newAccount(overrides)
  await page.goto('/register')
  // Sent before the page's script ran, the form posts to the page itself and comes back empty.
  await waitForHydration(page)
  await fillRegisterForm(page, account)
  await page.locator('form button[type="submit"]').click()
  return account
}

export async function fillRegisterForm(page: Page, a: Partial<Account> & { confirmation?: string; terms?: boolean }) {
  if (a.email !== undefined) await page.locator('#email').fill(a.email)
  if (a.name !== undefined) await page.locator('#name').fill(a.name)
  if (a.organization !== undefined) await page.locator('#organizationName').fill(a.organization)
  if (a.password !== undefined) await page.locator('#password').fill(a.password)
  const confirmation = a.confirmation ?? a.password
  if (confirmation !== undefined) await page.locator('#passwordConfirmation').fill(confirmation)
  if (a.terms ?? true) await page.locator('#termsAccepted').check()
}

/** Registers through the API (own request context, so the page stays signed out). */
export async function registerViaApi(request: APIRequestContext, overrides: Partial<Account> = {}): Promise<Account> {
  const a = newAccount(overrides)
  const res = await request.post('/api/auth/register', {
    data: {
      email: a.email,
      name: a.name,
      organizationName: a.organization,
      password: a.password,
      passwordConfirmation: a.password,
      termsAccepted: true,
      locale: 'en',
    },
  })
  expect(res.status(), await res.text()).toBe(201)
  return a
}

/** A registered account whose address is confirmed through the link in its mail. */
export async function createVerifiedAccount(request: APIRequestContext, overrides: Partial<Account> = {}) {
  const account = await registerViaApi(request, overrides)
  const token = new URL(linkFrom(await waitForMail(account.email), '/confirm-email')).searchParams.get('token')
  const res = await request.post('/api/users/confirm-email', { data: { token } })
  expect(res.status(), await res.text()).toBe(200)
  return account
}

export async function signInViaUi(page: Page, email: string, password: string) {
  await page.locator('#email').fill(email)
  await page.locator('#password').fill(password)
  await page.locator('form button[type="submit"]').click()
}
