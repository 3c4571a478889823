import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './support/test'
import {
  availableGroup,
  confirmDialog,
  enableModel,
  enableProvider,
  FAKE_LLM_BASE_URL,
  openModels,
  permittedRow,
  providerRow,
  termsDialog,
} from './support/models'
import { signUpAndSignIn, waitForHydration } from './support/session'

test('an admin enables a provider and its models, picks the defaults, and disabling the provider takes its models away', async ({ page }) => {
  test.setTimeout(180_000) // a story: provider, models, defaults, then the provider disabled
  await signUpAndSignIn(page, { name: 'Ada Lovelace' })
  await openModels(page)

  // Nothing is enabled yet: the models of a disabled provider cannot be enabled.
  await expect(providerRow(page, 'OpenAI')).toContainText('USA')
  await expect(providerRow(page, 'OpenAI')).toContainText('Disabled')
  await expect(providerRow(page, 'Mistral AI')).toContainText('EU')
  await expect(page.getByText('No models enabled yet')).toBeVisible()
  await expect(page.getByText('No embedding model — sources in chats are unavailable.')).toBeVisible()
  const openai = availableGroup(page, 'OpenAI')
  await expect(openai).toContainText('Enable the provider first')
  await expect(openai.getByRole('button', { name: 'Enable GPT-4.1', exact: true })).toBeDisabled()

  // The terms dialog names the provider, its terms version and link, and needs the box ticked.
  await page.getByRole('button', { name: 'Enable OpenAI', exact: true }).click()
  const dialog = termsDialog(page, 'OpenAI')
  await expect(dialog).toContainText('2025-01')
  await expect(dialog.getByRole('link', { name: 'Read the additional terms' })).toHaveAttribute('href', /openai\.com/)
  const enable = dialog.getByRole('button', { name: 'Enable', exact: true })
  await expect(enable).toBeDisabled()
  await dialog.getByLabel('I accept the additional terms').check()
  await expect(enable).toBeEnabled()
  await enable.click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByText('OpenAI has been enabled.')).toBeVisible()
  await expect(providerRow(page, 'OpenAI')).toContainText('Enabled by Ada Lovelace on')
  await expect(openai).not.toContainText('Enable the provider first')

  // A chat model and an embedding model; the first embedding model becomes the organisation's.
  await enableModel(page, 'GPT-4.1', 'OpenAI')
  await enableModel(page, 'GPT-4o', 'OpenAI')
  await enableModel(page, 'Text Embedding 3 small', 'OpenAI')
  const gpt41 = permittedRow(page, 'GPT-4.1')
  await expect(gpt41).toContainText('OpenAI')
  await expect(gpt41).toContainText('Streaming')
  await expect(gpt41).toContainText('$2.00 / $8.00')
  await expect(permittedRow(page, 'Text Embedding 3 small')).toContainText('Embedding')
  await expect(page.getByRole('radio', { name: /Text Embedding 3 small/ })).toHaveAttribute('aria-checked', 'true')
  await expect(page.getByText('No embedding model — sources in chats are unavailable.')).toHaveCount(0)
  await expect(openai.getByTestId('available-model-row').filter({ hasText: 'GPT-4.1' }).first()).toContainText('Enabled')

  // The search filters the available models by name.
  await page.getByLabel('Search models').fill('mistral large')
  await expect(page.getByTestId('available-model-row')).toHaveCount(1)
  await expect(page.getByTestId('available-model-row')).toContainText('Mistral Large')
  await page.getByLabel('Search models').fill('')

  await permittedRow(page, 'GPT-4o').getByRole('button', { name: 'Make GPT-4o the organisation default' }).click()
  await expect(page.getByText('GPT-4o is now the organisation default.')).toBeVisible()
  await expect(permittedRow(page, 'GPT-4o')).toContainText('Default')
  await expect(gpt41).not.toContainText('Default')

  // A personal default in the general settings, kept after a reload.
  await page.goto('/settings/general')
  await waitForHydration(page)
  const select = page.getByRole('combobox', { name: 'Default model' })
  await expect(select.locator('option:checked')).toHaveText('Organisation default (GPT-4o)')
  await expect(select.locator('option')).toHaveText(['Organisation default (GPT-4o)', 'GPT-4.1 · OpenAI', 'GPT-4o · OpenAI'])
  await select.selectOption({ label: 'GPT-4.1 · OpenAI' })
  await expect(page.getByText('Default model saved')).toBeVisible()
  await page.reload()
  await expect(page.getByRole('combobox', { name: 'Default model' }).locator('option:checked')).toHaveText('GPT-4.1 · OpenAI')
  expect((await (await page.request.get('/api/models/default')).json()).displayName).toBe('GPT-4.1')

  // Disabling the provider goes through the confirmation dialog and takes its models along.
  await openModels(page)
  await page.getByRole('button', { name: 'Disable OpenAI', exact: true }).click()
  const confirmation = confirmDialog(page)
  await expect(confirmation).toContainText('All models of OpenAI are disabled too')
  await confirmation.getByRole('button', { name: 'Disable provider' }).click()
  await expect(confirmation).toHaveCount(0)
  await expect(page.getByTestId('permitted-model-row')).toHaveCount(0)
  await expect(page.getByText('No models enabled yet')).toBeVisible()
  await expect(providerRow(page, 'OpenAI')).toContainText('Disabled')
  await expect(openai.getByRole('button', { name: 'Enable GPT-4.1', exact: true })).toBeDisabled()

  await page.goto('/settings/general')
  await expect(page.getByText('Your organisation has not enabled a language model yet')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Choose models' })).toHaveAttribute('href', '/admin-settings/models')
})

test('disabling a single model goes through the confirmation dialog', async ({ page }) => {
  test.setTimeout(90_000) // enables a provider and a model before the dialog
  await signUpAndSignIn(page)
  await openModels(page)
  await enableProvider(page, 'Mistral AI')
  await enableModel(page, 'Mistral Small', 'Mistral AI')
  await permittedRow(page, 'Mistral Small').getByRole('button', { name: 'Disable Mistral Small' }).click()
  await confirmDialog(page).getByRole('button', { name: 'Cancel' }).click()
  await expect(permittedRow(page, 'Mistral Small')).toBeVisible()
  await permittedRow(page, 'Mistral Small').getByRole('button', { name: 'Disable Mistral Small' }).click()
  await confirmDialog(page).getByRole('button', { name: 'Disable model' }).click()
  await expect(page.getByText('Mistral Small has been disabled.')).toBeVisible()
  await expect(page.getByTestId('permitted-model-row')).toHaveCount(0)
  await expect(availableGroup(page, 'Mistral AI').getByRole('button', { name: 'Enable Mistral Small', exact: true })).toBeEnabled()
})

test('an own endpoint lists its models, never shows its key, and can be removed', async ({ page }) => {
  test.setTimeout(90_000) // adds an endpoint, lists its models, removes it
  await signUpAndSignIn(page)
  await openModels(page)
  const secret = `sk-own-${Date.now()}-do-not-show`

  const add = page.getByRole('button', { name: 'Add endpoint' })
  await add.click()
  await expect(page.getByText('Name is required')).toBeVisible()
  await page.getByLabel('Name', { exact: true }).fill('Office Ollama')
  await page.getByLabel('Base URL').fill('ftp://example.com')
  await add.click()
  await expect(page.getByText('Please enter an http(s) address')).toBeVisible()
  await page.getByLabel('Base URL').fill(FAKE_LLM_BASE_URL)
  await page.getByLabel('API key').fill(secret)
  await add.click()
  await expect(page.getByText('Office Ollama has been added.')).toBeVisible()
  await expect(page.getByLabel('API key')).toHaveValue('')

  const endpoint = page.getByTestId('endpoint-row').filter({ hasText: 'Office Ollama' })
  await expect(endpoint).toContainText('Key stored')
  await expect(endpoint).toContainText(FAKE_LLM_BASE_URL)
  await expect(providerRow(page, 'Office Ollama')).toContainText('Own endpoint')
  await expect(providerRow(page, 'Office Ollama')).toContainText('Self-hosted')
  const models = availableGroup(page, 'Office Ollama')
  await expect(models.getByTestId('available-model-row')).toHaveText([/fake-chat/, /fake-reasoner/, /fake-embedding/])
  await expect(models.getByRole('button', { name: 'Enable fake-chat', exact: true })).toBeDisabled()
  expect(await page.content()).not.toContain(secret)

  await enableProvider(page, 'Office Ollama')
  await enableModel(page, 'fake-chat', 'Office Ollama')
  await expect(permittedRow(page, 'fake-chat')).toContainText('Office Ollama')
  await expect(permittedRow(page, 'fake-chat')).toContainText('Streaming')

  await page.reload()
  await waitForHydration(page)
  expect(await page.content()).not.toContain(secret)
  expect(await (await page.request.get('/api/models/endpoints')).text()).not.toContain(secret)

  await endpoint.getByRole('button', { name: 'Remove Office Ollama' }).click()
  await confirmDialog(page).getByRole('button', { name: 'Remove endpoint' }).click()
  await expect(page.getByText('Office Ollama has been removed.')).toBeVisible()
  await expect(page.getByText('No own endpoints yet')).toBeVisible()
  await expect(providerRow(page, 'Office Ollama')).toHaveCount(0)
  await expect(page.getByTestId('permitted-model-row')).toHaveCount(0)
})

test('an endpoint that does not answer is shown as not reachable', async ({ page }) => {
  test.setTimeout(90_000) // adds an endpoint; its model list is asked for (and retried) before it shows as not reachable
  await signUpAndSignIn(page)
  await openModels(page)
  await page.getByLabel('Name', { exact: true }).fill('Broken box')
  await page.getByLabel('Base URL').fill('http://127.0.0.1:9/v1')
  await page.getByRole('button', { name: 'Add endpoint' }).click()
  await expect(providerRow(page, 'Broken box')).toContainText('Not reachable')
  await expect(availableGroup(page, 'Broken box')).toContainText('This provider offers no models right now.')
  await expect(page.getByTestId('endpoint-row').filter({ hasText: 'Broken box' })).toContainText('No key')
})

test('the models page, the terms dialog and the general settings have no serious accessibility findings', async ({ page }) => {
  test.setTimeout(240_000) // axe over a long page, twice; slow when the suite runs in parallel
  await signUpAndSignIn(page)
  await openModels(page)
  await enableProvider(page, 'OpenAI')
  await enableModel(page, 'o4-mini', 'OpenAI')
  await enableModel(page, 'Text Embedding 3 small', 'OpenAI')
  await page.request.post('/api/models/endpoints', { data: { name: 'Office Ollama', baseUrl: FAKE_LLM_BASE_URL, apiKey: 'sk-e2e' } })
  const scan = async (where: string, target: Page) => {
    // As it stands, not mid-transition: a toast fading in or out has its colours blended with the page's.
    await target.emulateMedia({ reducedMotion: 'reduce' })
    const results = await new AxeBuilder({ page: target }).analyze()
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    expect(serious.map((v) => `${where} ${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([])
  }
  for (const theme of ['light', 'dark']) {
    await page.evaluate((value) => localStorage.setItem('theme', value), theme)
    await openModels(page)
    await scan(`${theme} models`, page)
    await page.getByRole('button', { name: 'Enable Mistral AI', exact: true }).click()
    await expect(termsDialog(page, 'Mistral AI')).toBeVisible()
    await scan(`${theme} terms dialog`, page)
    await page.keyboard.press('Escape')
    await page.goto('/settings/general')
    await waitForHydration(page)
    await scan(`${theme} general settings`, page)
  }
})
