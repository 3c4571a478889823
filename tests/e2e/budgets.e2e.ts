import { enableModels, startChat } from './support/chat'
import { signUpAndSignIn, waitForHydration } from './support/session'
import { expect, test } from './support/test'

// The flow's variant: English, dark, desktop.
test.use({ locale: 'en-US' })

test("a chat shows the budget notice from 80%, refuses sending at 100% naming the limit and its reset; Settings → Usage shows the member's limit", async ({ page }) => {
  await signUpAndSignIn(page)
  await enableModels(page)
  // One reply's worth of tokens spent, then an organisation budget of tokens set so that this is 85% of it.
  const thread = await (await page.request.post('/api/threads', { data: {} })).json()
  const sent = await page.request.post(`/api/threads/${thread.id}/messages`, { data: { content: 'Hello there' } })
  expect(await sent.text()).toContain('message_end')
  expect((await page.request.put('/api/budgets', { data: { scope: 'organization', metric: 'tokens', limit: 1e9 } })).status()).toBe(200)
  const [{ spent }] = await (await page.request.get('/api/budgets/own')).json()
  expect(spent).toBeGreaterThan(0)
  const limit = Math.ceil(spent / 0.85)
  expect((await page.request.put('/api/budgets', { data: { scope: 'organization', metric: 'tokens', limit } })).status()).toBe(200)

  expect((await page.request.patch('/api/users/theme', { data: { theme: 'dark' } })).status()).toBe(200)

  // 85% spent: the send goes through, and the chat says how much of which budget is used.
  const chat = await startChat(page)
  await chat.write('Hello again')
  await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
  const notice = page.getByTestId('budget-notice')
  await expect(notice).toHaveText(new RegExp(`^8\\d% of your organisation's monthly budget \\(${limit.toLocaleString('en-US')} tokens\\) is used\\.$`))

  // Now over the limit: sending is refused with the limit and the day it starts again.
  await chat.write('And once more')
  const resetsOn = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1)).toISOString().slice(0, 10)
  await expect(
    page.getByText(`Your organisation's monthly budget (${limit.toLocaleString('en-US')} tokens) is used up. Sending is possible again from ${resetsOn} (UTC).`),
  ).toBeVisible()
  // Nothing is lost: the message is back in the field, and no reply was started.
  await expect(chat.composer).toHaveValue('And once more')
  await expect(chat.replies).toHaveCount(1)
  // The notice above the field stays and says so once the toast is gone.
  await expect(notice).toHaveText(`100% of your organisation's monthly budget (${limit.toLocaleString('en-US')} tokens) is used.`)
  await page.screenshot({ path: 'test-results/budget-refused-en-dark.png' })

  // The member's own limits under Settings → Usage.
  await page.goto('/settings/usage')
  await waitForHydration(page)
  const limits = page.getByRole('region', { name: 'Your monthly limits' })
  await expect(limits.getByTestId('own-budget')).toHaveCount(1)
  await expect(limits.getByRole('progressbar', { name: 'Your organisation' })).toHaveAttribute('aria-valuenow', '100')
  await expect(limits).toContainText(`of ${limit.toLocaleString('en-US')} tokens used (100 %)`)
})
