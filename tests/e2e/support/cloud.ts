import { expect, type Page } from '@playwright/test'
import { PASSWORD } from './session'

/** The cloud-mode server of the suite (tests/support/e2e-cloud-server.ts): use with `test.use({ baseURL: CLOUD_BASE_URL })`. */
export const CLOUD_BASE_URL = `http://localhost:${Number(process.env.E2E_PORT ?? 3210) + 3}`

/** The chat trial of the cloud server (KONTOR_TRIAL_MESSAGES). */
export const TRIAL_MESSAGES = 2

/** A company address (free-mail domains are refused in the cloud), unique per call. */
export const companyEmail = (prefix = 'u') => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@acme-corp.test`

export const BILLING_INFO = {
  companyName: 'Acme Corp GmbH',
  subText: 'Finance department',
  street: 'Hauptstraße',
  houseNumber: '12a',
  postalCode: '10115',
  city: 'Berlin',
  country: 'Germany',
  vatNumber: 'DE123456789',
}

/**
 * A new cloud organisation with a fresh admin, signed in in the page's browser context. Without
 * SMTP the address counts as confirmed and registration signs in at once.
 */
export async function registerCloudAdmin(page: Page, overrides: { name?: string; organizationName?: string } = {}) {
  const email = companyEmail('admin')
  const res = await page.request.post('/api/auth/register', {
    data: {
      email,
      name: overrides.name ?? 'Grace Hopper',
      organizationName: overrides.organizationName ?? 'Acme Corp',
      password: PASSWORD,
      passwordConfirmation: PASSWORD,
      termsAccepted: true,
      locale: 'en',
    },
  })
  expect(res.status(), await res.text()).toBe(201)
  expect((await page.request.get('/api/auth/me')).status()).toBe(200)
  return { email }
}

/** Enables the (fake) OpenAI provider and one of its models; returns the permitted model's id. */
export async function enableChatModel(page: Page) {
  const provider = await page.request.post('/api/models/providers/permitted', { data: { providerId: 'openai', termsAccepted: true } })
  expect(provider.status(), await provider.text()).toBeLessThan(300)
  const model = await page.request.post('/api/models/permitted', { data: { modelId: 'openai/gpt-4.1' } })
  expect(model.status(), await model.text()).toBeLessThan(300)
  return ((await model.json()) as { id: string }).id
}

/** Starts a chat and sends one message through the API, reading the streamed reply to its end. */
export async function sendChatMessage(page: Page, modelId: string, content = 'Hello there') {
  const thread = await page.request.post('/api/threads', { data: { modelId } })
  expect(thread.status(), await thread.text()).toBe(201)
  const { id } = (await thread.json()) as { id: string }
  const res = await page.request.post(`/api/threads/${id}/messages`, { data: { content } })
  return { status: res.status(), body: await res.text() }
}

/** Subscribes straight through the API. */
export async function subscribeViaApi(page: Page, noOfSeats: number) {
  const res = await page.request.post('/api/subscriptions', { data: { ...BILLING_INFO, noOfSeats } })
  expect(res.status(), await res.text()).toBe(201)
}

/** Invites a colleague through the API; returns the answer's status and error code (if any). */
export async function inviteViaApi(page: Page, email = companyEmail('colleague')) {
  const res = await page.request.post('/api/invites', { data: { email, role: 'user', locale: 'en' } })
  const body = (await res.json()) as { code?: string; acceptUrl?: string }
  return { status: res.status(), code: body.code, acceptUrl: body.acceptUrl }
}
