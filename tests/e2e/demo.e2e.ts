/**
 * `npm run demo` as a new user meets it: from a fresh clone (the committed HEAD) with nothing
 * installed or built, no key and nothing from outside. Slow by nature (install, build, start), so
 * its budget is generous; every wait is for a condition.
 */
import { expect, test } from './support/test'
import { chatPage } from './support/chat'
import { signInViaUi } from './support/account'
import { waitForHydration } from './support/session'
import { toolCards } from './support/tools'
import { freshClone, runDemo, type RunningDemo } from './support/demo'

const PORT = Number(process.env.E2E_PORT ?? 3210) + 5

test.describe.configure({ mode: 'serial', timeout: 600_000 })

let clone: ReturnType<typeof freshClone>
let demo: RunningDemo

test.beforeAll(async () => {
  test.setTimeout(600_000)
  clone = freshClone()
  // A shell that exports NODE_ENV=production does not make the demo a production instance.
  demo = await runDemo(clone.dir, PORT, { env: { NODE_ENV: 'production' } })
})

test.afterAll(async () => {
  await demo?.stop()
  clone?.remove()
})

test('signed in with the printed details, the demo answers, calls tools, cites the sample document and shows its mails', async ({ page }) => {
  expect(demo.output()).toContain('NODE_ENV=production is ignored by the demo')
  expect((await page.request.post(`${demo.url}/api/auth/login`, { data: demo.member })).status()).toBe(200)
  await page.context().clearCookies()

  await page.goto(`${demo.url}/login`)
  await waitForHydration(page)
  await signInViaUi(page, demo.admin.email, demo.admin.password)
  await expect(page).toHaveURL(/\/chat$/)
  await waitForHydration(page)

  // A markdown answer arrives piece by piece (Stop is offered while it does), then stands complete.
  const chat = chatPage(page)
  await expect(chat.modelPicker).toContainText('Demo assistant (scripted, no AI)')
  await chat.write('Explain how vector search works')
  await expect(chat.stop).toBeVisible()
  await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
  await expect(chat.stop).toHaveCount(0)
  await expect(chat.lastReply.getByRole('heading', { name: 'How vector search works' })).toBeVisible()
  await expect(chat.lastReply.getByRole('table')).toBeVisible()
  await expect(chat.lastReply.locator('pre code')).toContainText('vector_distance_cos')
  await expect(chat.lastReply.locator('.katex').first()).toBeVisible()
  await expect(chat.lastReply).not.toContainText('Explain how vector search works')
  await expect(chat.title).toHaveText('How vector search works')

  // Web search against the built-in index: a tool call, then an answer linking what it found.
  await chat.write('Search the web for remote work policies')
  const tools = toolCards(page)
  await expect(tools.card('internet_search')).toBeVisible()
  await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
  await expect(tools.content.getByRole('link', { name: 'Writing a remote work policy that people follow' })).toBeVisible()

  // The seeded chat holds the sample document: an answer from it, with its citation.
  await chat.sidebar.getByRole('link', { name: 'Travel policy refund for hotels' }).click()
  await expect(page).toHaveURL(/\/chats\//)
  await expect(chat.replies.first()).toContainText('150 euros per night')
  await chat.write('What is the daily allowance for a full day?')
  await expect(toolCards(page).card('source_query')).toBeVisible()
  await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
  await expect(chat.lastReply).toContainText('The daily allowance is 28 euros for a full day away')
  await expect(chat.lastReply).toContainText('(travel-policy.md, chunk')

  await page.goto(`${demo.url}/admin-settings/models`)
  await expect(page.getByText('Kontor demo (on this machine)').first()).toBeVisible()
  await expect(page.getByText('Demo embedding (word hashing)').first()).toBeVisible()
  await expect(page.getByText('OpenAI', { exact: true })).toHaveCount(0)

  // The mails Kontor kept: the open invitation, rendered, with a link that leads to accepting it.
  await page.goto(`${demo.url}/admin-settings/users`)
  await page.getByRole('link', { name: 'Mails' }).click()
  await expect(page).toHaveURL(/\/admin-settings\/mails$/)
  const list = page.getByRole('list', { name: 'Sent mails' })
  await list.getByRole('button', { name: /lena\.lead@example\.com/ }).click()
  const mail = page.frameLocator('iframe[title="Anna Admin invited you to Demo GmbH on Kontor"]')
  await expect(mail.getByText('Anna Admin invited you to join Demo GmbH on Kontor.')).toBeVisible()
  await mail.getByRole('link', { name: 'Accept the invitation' }).click()
  await expect(page).toHaveURL(/\/accept-invite\?token=/)
})

test('asked explicitly, the demo runs in production: the mail page answers 404, and the web bundle is not built again', async ({ page }) => {
  const production = await runDemo(clone.dir, PORT + 1, {
    args: ['--production', '--data-dir', 'data-demo-production'],
    env: { KONTOR_SECRET: 'demo-production-secret-0123456789abcdef' },
  })
  try {
    expect(production.output()).toContain('web bundle is up to date')
    expect((await page.request.post(`${production.url}/api/auth/login`, { data: production.admin })).status()).toBe(200)
    expect((await page.request.get(`${production.url}/api/dev/outbox`)).status()).toBe(404)
    const response = await page.goto(`${production.url}/admin-settings/mails`)
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { name: 'Not Found' })).toBeVisible()
    await page.goto(`${production.url}/admin-settings/users`)
    await expect(page.getByRole('link', { name: 'Users' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Mails' })).toHaveCount(0)
  } finally {
    await production.stop()
  }
})
