import { expect, type Page } from '@playwright/test'
import { waitForHydration } from './session'

const E2E_PORT = Number(process.env.E2E_PORT ?? 3210)

/** The e2e server's fake model provider (tests/support/e2e-server.ts), as an OpenAI-compatible base URL. */
export const FAKE_LLM_BASE_URL = `http://127.0.0.1:${E2E_PORT + 2}/v1`

/** Admin Settings → Models, hydrated so that clicks reach their handlers. */
export async function openModels(page: Page) {
  await page.goto('/admin-settings/models')
  await waitForHydration(page)
  await expect(page.getByRole('region', { name: 'Providers' })).toBeVisible()
}

export const providerRow = (page: Page, name: string) =>
  page.getByTestId('provider-row').filter({ has: page.getByText(name, { exact: true }) })
export const permittedRow = (page: Page, name: string) =>
  page.getByTestId('permitted-model-row').filter({ has: page.getByText(name, { exact: true }) })
export const availableGroup = (page: Page, provider: string) => page.getByRole('group', { name: provider, exact: true })
export const termsDialog = (page: Page, provider: string) => page.getByRole('dialog', { name: `Enable ${provider}` })
export const confirmDialog = (page: Page) => page.getByRole('alertdialog')

/** Enables a provider through its terms dialog (English UI). */
export async function enableProvider(page: Page, provider: string) {
  await page.getByRole('button', { name: `Enable ${provider}`, exact: true }).click()
  const dialog = termsDialog(page, provider)
  await dialog.getByLabel('I accept the additional terms').check()
  await dialog.getByRole('button', { name: 'Enable', exact: true }).click()
  await expect(dialog).toHaveCount(0)
  await expect(providerRow(page, provider)).toContainText('Enabled by')
}

/** Enables one model of a provider's group of available models and waits until the list says so. */
export async function enableModel(page: Page, displayName: string, provider: string) {
  const button = availableGroup(page, provider).getByRole('button', { name: `Enable ${displayName}`, exact: true })
  await button.click()
  await expect(button).toHaveCount(0)
  await expect(permittedRow(page, displayName)).toBeVisible()
}
