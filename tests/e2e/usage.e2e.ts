import { readFile } from 'node:fs/promises'
import { enableModels } from './support/chat'
import { signUpAndSignIn, waitForHydration } from './support/session'
import { expect, test } from './support/test'

// The flow's variant: a phone's screen.
test.use({ viewport: { width: 390, height: 844 } })

test('Admin Settings → Usage: a chat reply shows in the totals, the chart, the tables and the CSV download; a budget is set', async ({ page }) => {
  test.setTimeout(90_000) // a chat reply, two pages with the chart library, a download
  await signUpAndSignIn(page)
  await enableModels(page)
  const thread = await (await page.request.post('/api/threads', { data: {} })).json()
  const sent = await page.request.post(`/api/threads/${thread.id}/messages`, { data: { content: 'Hello there' } })
  expect(sent.status()).toBe(200)
  expect(await sent.text()).toContain('message_end')

  await page.goto('/admin-settings/usage')
  await waitForHydration(page)
  const totals = page.getByTestId('usage-totals')
  await expect(totals.getByText('Calls')).toBeVisible()
  await expect(totals).not.toContainText('–')
  // The chart is drawn (a canvas), and the table beside it has today's row.
  const overTime = page.getByRole('region', { name: 'Usage over time' })
  await expect(overTime.getByTestId('usage-chart').locator('canvas')).toBeVisible()
  await expect(overTime.getByRole('table', { name: 'Usage over time' }).getByTestId('usage-row')).toHaveCount(1)
  await overTime.getByLabel('Show').selectOption('tokens')
  await expect(overTime.getByTestId('usage-chart').locator('canvas')).toBeVisible()

  const breakdown = page.getByRole('region', { name: 'Breakdown' })
  await expect(breakdown.getByRole('table', { name: 'By user' })).toContainText('Ada Lovelace')
  await breakdown.getByLabel('By', { exact: true }).selectOption('model')
  await expect(breakdown.getByRole('table', { name: 'By model' })).toContainText('openai/gpt-4.1')
  await page.screenshot({ path: 'test-results/usage-390.png', fullPage: true })

  const download = page.waitForEvent('download')
  await breakdown.getByRole('link', { name: 'Download CSV' }).click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/^usage-model-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/)
  const lines = (await readFile((await file.path())!, 'utf8')).trimEnd().split('\r\n')
  expect(lines[0]).toBe('model,name,calls,estimated_calls,input_tokens,output_tokens,cost_usd')
  expect(lines[1]).toMatch(/^openai\/gpt-4\.1,,\d+,/)
  expect(lines.at(-1)).toMatch(/^total,,\d+,/)

  // A monthly budget for the organisation: a bad limit is refused, a good one listed with this month's spend.
  const budgets = page.getByRole('region', { name: 'Monthly budgets' })
  await expect(budgets).toContainText('No budgets')
  await budgets.getByLabel('Limit per month').fill('-5')
  await budgets.getByRole('button', { name: 'Save budget' }).click()
  await expect(budgets.getByRole('alert')).toContainText('Enter a limit above 0')
  await budgets.getByLabel('Limit per month').fill('25')
  await budgets.getByRole('button', { name: 'Save budget' }).click()
  await expect(budgets.getByTestId('budget-row')).toContainText('Organisation')
  await expect(budgets.getByTestId('budget-row')).toContainText('$25.00')

  // The member's own usage under Settings.
  await page.goto('/settings/usage')
  await waitForHydration(page)
  await expect(page.getByRole('region', { name: 'Your usage' }).getByTestId('usage-totals')).not.toContainText('–')
  await expect(page.getByRole('region', { name: 'By model' })).toContainText('openai/gpt-4.1')
})
