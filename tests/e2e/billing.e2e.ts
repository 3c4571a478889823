import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './support/test'
import {
  BILLING_INFO,
  CLOUD_BASE_URL,
  enableChatModel,
  inviteViaApi,
  registerCloudAdmin,
  sendChatMessage,
  subscribeViaApi,
  TRIAL_MESSAGES,
} from './support/cloud'
import { waitForHydration } from './support/session'

// Subscriptions exist in cloud mode only: these tests run against the cloud server.
test.use({ baseURL: CLOUD_BASE_URL })

const REQUIRED_MESSAGES = [
  'Company name is required',
  'Street is required',
  'House number is required',
  'Postal code is required',
  'City is required',
  'Country is required',
  'Number of seats is required',
]

/** Admin Settings → Billing: its parts, by what an admin sees. */
function billingPage(page: Page) {
  const subscribeForm = page.getByRole('region', { name: 'Subscribe' })
  return {
    subscribeForm,
    subscription: page.getByRole('region', { name: /^Subscription/ }),
    seats: page.getByRole('region', { name: 'Seats' }),
    upgradeEntry: page.getByTestId('sidebar').getByRole('link', { name: 'Upgrade' }),
    confirmDialog: page.getByRole('alertdialog'),
    async open() {
      await page.goto('/admin-settings/billing')
      await waitForHydration(page)
    },
    async setSeats(seats: number) {
      const input = this.seats.getByLabel('Number of seats')
      // Right after hydration the form may still take its saved value: type until the field holds ours.
      await expect(async () => {
        await input.fill(String(seats))
        await expect(input).toHaveValue(String(seats), { timeout: 500 })
      }).toPass()
      await this.seats.getByRole('button', { name: 'Change seats' }).click()
    },
  }
}

/** The date as the page shows it (medium style, en-US, the browser's time zone). */
const shownDate = (page: Page, iso: string) =>
  page.evaluate((value) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date(value)), iso)

test('the trial runs out, the admin subscribes from Billing, chats again and buys seats for a colleague', async ({ page }) => {
  test.setTimeout(120_000) // one long story: trial, subscribe, chat, seats, invite
  await registerCloudAdmin(page)
  const modelId = await enableChatModel(page)

  // The trial: two messages, counted down above the composer, then sending is refused until the
  // organisation subscribes.
  const notice = page.getByTestId('trial-notice')
  await page.goto('/chat')
  await waitForHydration(page)
  await expect(notice).toContainText(`${TRIAL_MESSAGES} trial messages left`)
  await page.getByRole('textbox', { name: 'Message' }).fill('Hello there')
  await page.getByRole('button', { name: 'Send message' }).click()
  await expect(notice).toContainText(`${TRIAL_MESSAGES - 1} trial message left`)
  await expect(page.getByTestId('assistant-message').last()).toHaveAttribute('data-status', 'complete')
  for (let i = 1; i < TRIAL_MESSAGES; i++) expect((await sendChatMessage(page, modelId)).status).toBe(200)
  const refused = await sendChatMessage(page, modelId)
  expect(refused.status).toBe(402)
  expect(JSON.parse(refused.body)).toMatchObject({ code: 'SUBSCRIPTION_REQUIRED' })

  const billing = billingPage(page)
  await page.goto('/chat')
  await waitForHydration(page)
  await expect(notice).toContainText('You need to upgrade to a paid plan to use this feature.')
  await expect(billing.upgradeEntry).toBeVisible()
  await billing.upgradeEntry.click()
  await expect(page).toHaveURL(/\/admin-settings\/billing$/)
  await expect(billing.upgradeEntry).toHaveAttribute('aria-current', 'page')

  // The price, explained.
  await expect(page.getByTestId('price-explained')).toHaveText('€15.00 per user per month, billed yearly, paid by invoice')

  // An empty form names every required field.
  const form = billing.subscribeForm
  await form.getByRole('button', { name: 'Subscribe' }).click()
  for (const message of REQUIRED_MESSAGES) await expect(form.getByText(message, { exact: true })).toBeVisible()
  await expect(form.getByLabel('Company name')).toHaveAttribute('aria-invalid', 'true')

  await form.getByLabel('Company name').fill(BILLING_INFO.companyName)
  await form.getByLabel('Street').fill(BILLING_INFO.street)
  await form.getByLabel('House number').fill(BILLING_INFO.houseNumber)
  await form.getByLabel('Postal code').fill(BILLING_INFO.postalCode)
  await form.getByLabel('City').fill(BILLING_INFO.city)
  await form.getByLabel('Country').fill(BILLING_INFO.country)
  // The yearly total follows the seats as they are typed.
  await form.getByLabel('Number of seats').fill('4')
  await expect(form.getByTestId('yearly-total')).toContainText('€720.00')
  await form.getByLabel('Number of seats').fill('1')
  await expect(form.getByTestId('yearly-total')).toContainText('1 seat × €15.00 × 12 months')
  await expect(form.getByTestId('yearly-total')).toContainText('€180.00')
  await form.getByRole('button', { name: 'Subscribe' }).click()

  await expect(billing.subscription.getByTestId('subscription-status')).toHaveText('Active')
  await expect(billing.subscription.getByTestId('subscription-yearly-total')).toHaveText('€180.00')
  await expect(billing.seats.getByTestId('seats-total')).toHaveText('1')
  await expect(billing.seats.getByTestId('seats-used')).toHaveText('1')
  await expect(billing.seats.getByTestId('seats-available')).toHaveText('0')
  await expect(page.getByTestId('billing-address')).toContainText('Acme Corp GmbH')
  await expect(billing.upgradeEntry).toHaveCount(0)

  // Chatting works again.
  expect((await sendChatMessage(page, modelId)).status).toBe(200)

  // One seat, taken by the admin: no room for a colleague until the seats are raised.
  expect(await inviteViaApi(page)).toMatchObject({ status: 409, code: 'INVITE_NOT_POSSIBLE' })
  await billing.setSeats(3)
  await expect(billing.seats.getByTestId('seats-total')).toHaveText('3')
  await expect(billing.seats.getByTestId('seats-available')).toHaveText('2')
  await expect(billing.subscription.getByTestId('subscription-yearly-total')).toHaveText('€540.00')
  expect((await inviteViaApi(page)).status).toBe(201)

  await page.goto('/admin-settings/users')
  await expect(page.getByTestId('invite-row')).toHaveCount(1)
})

test('seats cannot go below those in use; cancelling keeps the plan until its end and Reactivate restores it', async ({ page }) => {
  await registerCloudAdmin(page)
  await subscribeViaApi(page, 2)
  expect((await inviteViaApi(page)).status).toBe(201)
  const billing = billingPage(page)
  await billing.open()
  await expect(billing.seats.getByTestId('seats-used')).toHaveText('2')

  await billing.setSeats(1)
  await expect(billing.seats.getByText(/^Too many used seats/)).toBeVisible()
  await expect(billing.seats.getByTestId('seats-total')).toHaveText('2')

  // Cancel: a destructive confirmation that says what it means.
  const { nextRenewalAt } = (await (await page.request.get('/api/subscriptions')).json()) as { nextRenewalAt: string }
  const endDate = await shownDate(page, nextRenewalAt)
  await billing.subscription.getByRole('button', { name: 'Cancel subscription' }).click()
  const dialog = billing.confirmDialog
  await expect(dialog).toContainText('Cancel the subscription?')
  await expect(dialog).toContainText('can keep using Kontor until')
  await dialog.getByRole('button', { name: 'Cancel subscription' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(billing.subscription.getByTestId('subscription-status')).toHaveText('Cancelled')
  await expect(billing.subscription.getByTestId('subscription-state')).toHaveText(`Cancelled, ends on ${endDate}`)
  await expect(billing.seats.getByRole('button', { name: 'Change seats' })).toHaveCount(0)
  // Still usable until the end date: no Upgrade.
  await expect(billing.upgradeEntry).toHaveCount(0)

  await billing.subscription.getByRole('button', { name: 'Reactivate' }).click()
  await expect(dialog).toContainText('Reactivate the subscription?')
  await dialog.getByRole('button', { name: 'Reactivate' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(billing.subscription.getByTestId('subscription-status')).toHaveText('Active')
  await expect(billing.subscription.getByTestId('subscription-renews')).toHaveText(endDate)
  await expect(billing.seats.getByRole('button', { name: 'Change seats' })).toBeVisible()
})

test('the billing information is edited in a dialog', async ({ page }) => {
  await registerCloudAdmin(page)
  await subscribeViaApi(page, 1)
  const billing = billingPage(page)
  await billing.open()
  await page.getByRole('region', { name: 'Billing information' }).getByRole('button', { name: 'Edit' }).click()
  const dialog = page.getByRole('dialog', { name: 'Edit billing information' })
  await expect(dialog.getByLabel('Company name')).toHaveValue(BILLING_INFO.companyName)
  await dialog.getByLabel('City').fill('')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog.getByText('City is required', { exact: true })).toBeVisible()
  await dialog.getByLabel('City').fill('Hamburg')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByTestId('billing-address')).toContainText('10115 Hamburg')
})

test('the billing screens have no serious axe findings, in both themes', async ({ page }) => {
  test.setTimeout(180_000) // four screens scanned in two themes
  await registerCloudAdmin(page)
  const billing = billingPage(page)
  const scan = async (where: string) => {
    const results = await new AxeBuilder({ page }).include('main').analyze()
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    expect(serious.map((v) => `${where} ${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([])
  }
  await page.goto('/chat')
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => localStorage.setItem('theme', t), theme)
    await billing.open()
    await billing.subscribeForm.getByRole('button', { name: 'Subscribe' }).click()
    await expect(billing.subscribeForm.getByText('Company name is required')).toBeVisible()
    await scan(`${theme} subscribe`)
  }
  await subscribeViaApi(page, 1)
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => localStorage.setItem('theme', t), theme)
    await billing.open()
    await scan(`${theme} subscription`)
  }
})
