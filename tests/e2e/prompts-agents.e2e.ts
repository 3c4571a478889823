import AxeBuilder from '@axe-core/playwright'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './support/test'
import { chatPage, llmRequests } from './support/chat'
import { invitedColleague } from './support/members'
import { signUpAndSignIn, waitForHydration } from './support/session'

const confirmDialog = (page: Page) => page.getByRole('alertdialog')
const promptCard = (page: Page | Locator, title: string) => page.getByRole('article', { name: title, exact: true })
const agentCard = (page: Page, name: string) => page.getByRole('article', { name, exact: true })

async function open(page: Page, path: '/prompts' | '/agents') {
  await page.goto(path)
  await waitForHydration(page)
}

/** Permits OpenAI and its GPT-4.1 for the page's organisation; the permitted model's id. */
async function permitGpt41(page: Page): Promise<string> {
  const provider = await page.request.post('/api/models/providers/permitted', { data: { providerId: 'openai', termsAccepted: true } })
  expect(provider.status(), await provider.text()).toBe(201)
  const model = await page.request.post('/api/models/permitted', { data: { modelId: 'openai/gpt-4.1' } })
  expect(model.status(), await model.text()).toBe(201)
  return ((await model.json()) as { id: string }).id
}

/** The system prompt of the model request that carried `userText` (the fake provider records every request). */
async function systemPromptFor(userText: string) {
  const requests = await llmRequests()
  // The user's message itself, not the title request that quotes it.
  const sent = requests.find((r) => r.body?.messages?.some((m) => m.role === 'user' && m.content === userText))
  const system = sent?.body?.messages?.find((m) => m.role === 'system')?.content
  return typeof system === 'string' ? system : JSON.stringify(system ?? null)
}

async function scan(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${where} ${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([])
}

test('a prompt is created with a variable, found, edited, used in a chat and deleted', async ({ page }) => {
  test.setTimeout(120_000) // a story: create, search, edit, use in a chat, delete
  await signUpAndSignIn(page)
  await open(page, '/prompts')
  await expect(page.getByRole('heading', { name: 'Your prompt library is empty' })).toBeVisible()

  // The dialog checks its fields before anything is sent.
  await page.getByRole('button', { name: 'New prompt' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'New prompt' })
  await dialog.getByRole('button', { name: 'Save prompt' }).click()
  await expect(dialog.getByText('Title is required')).toBeVisible()
  await expect(dialog.getByText('Prompt text is required')).toBeVisible()
  await expect(dialog.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true')

  await dialog.getByLabel('Title').fill('Meeting summary')
  await dialog.getByLabel('Prompt', { exact: true }).fill('Summarise these notes for {{audience}} in five bullet points. Keep {{ audience }} in mind.')
  await expect(dialog.getByRole('list', { name: 'Variables:' })).toHaveText('audience')
  await dialog.getByRole('button', { name: 'Save prompt' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByText('Prompt “Meeting summary” saved')).toBeVisible()
  const card = promptCard(page, 'Meeting summary')
  await expect(card).toContainText('Summarise these notes for {{audience}}')
  await expect(card.getByRole('list', { name: 'Variables' })).toHaveText('audience')

  // Search looks at title and content; the search lands in the URL.
  const created = await page.request.post('/api/prompts', { data: { title: 'Release notes', content: 'Write release notes for version {{version}}.' } })
  expect(created.status()).toBe(201)
  await page.reload()
  await waitForHydration(page)
  await expect(page.getByTestId('prompt-card')).toHaveCount(2)
  const search = page.getByRole('searchbox', { name: 'Search prompts' })
  await search.fill('bullet')
  await expect(page).toHaveURL(/\/prompts\?search=bullet$/)
  await expect(page.getByTestId('prompt-card')).toHaveCount(1)
  await expect(promptCard(page, 'Meeting summary')).toBeVisible()
  await search.fill('release')
  await expect(promptCard(page, 'Release notes')).toBeVisible()
  await expect(page.getByTestId('prompt-card')).toHaveCount(1)
  await search.fill('no such words')
  await expect(page.getByRole('heading', { name: 'No prompts found' })).toBeVisible()
  await page.getByRole('button', { name: 'Clear search' }).last().click()
  await expect(page.getByTestId('prompt-card')).toHaveCount(2)
  await expect(search).toHaveValue('')

  // Editing starts from the saved values and checks them again.
  await card.getByRole('button', { name: 'Edit “Meeting summary”' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit prompt' })
  await expect(edit.getByLabel('Title')).toHaveValue('Meeting summary')
  await edit.getByLabel('Title').fill('Team meeting summary')
  await edit.getByLabel('Prompt', { exact: true }).fill('   ')
  await edit.getByRole('button', { name: 'Save changes' }).click()
  await expect(edit.getByText('Prompt text is required')).toBeVisible()
  await edit.getByLabel('Prompt', { exact: true }).fill('Summarise these notes for {{audience}} in {{count}} bullet points.')
  await edit.getByRole('button', { name: 'Save changes' }).click()
  await expect(edit).toHaveCount(0)
  const edited = promptCard(page, 'Team meeting summary')
  await expect(edited.getByRole('list', { name: 'Variables' }).getByRole('listitem')).toHaveText(['audience', 'count'])
  await expect(promptCard(page, 'Meeting summary')).toHaveCount(0)

  // "Use in chat" opens a new chat prefilled with the prompt.
  const [saved] = (await (await page.request.get('/api/prompts?search=Team')).json()) as Array<{ id: string }>
  await edited.getByRole('link', { name: 'Use in chat' }).click()
  await expect(page).toHaveURL(new RegExp(`/chat\\?prompt=${saved!.id}$`))
  // Its variables are asked for first, then the message field holds the prompt.
  const variables = page.getByRole('dialog', { name: 'Team meeting summary' })
  await variables.getByLabel('audience').fill('the board')
  await variables.getByLabel('count').fill('three')
  await variables.getByRole('button', { name: 'Insert' }).click()
  await expect(variables).toHaveCount(0)
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('Summarise these notes for the board in three bullet points.')

  // Deleting asks first; cancelling keeps the prompt.
  await open(page, '/prompts')
  await scan(page, 'prompts')
  await promptCard(page, 'Team meeting summary').getByRole('button', { name: 'Delete “Team meeting summary”' }).click()
  await expect(confirmDialog(page)).toContainText('Delete prompt?')
  await confirmDialog(page).getByRole('button', { name: 'Cancel' }).click()
  await expect(promptCard(page, 'Team meeting summary')).toBeVisible()
  await promptCard(page, 'Team meeting summary').getByRole('button', { name: 'Delete “Team meeting summary”' }).click()
  await confirmDialog(page).getByRole('button', { name: 'Delete' }).click()
  await expect(confirmDialog(page)).toHaveCount(0)
  await expect(page.getByText('Prompt “Team meeting summary” deleted')).toBeVisible()
  await expect(promptCard(page, 'Team meeting summary')).toHaveCount(0)
  await expect(page.getByTestId('prompt-card')).toHaveCount(1)
})

test('a saved prompt is picked in the chat composer, its variable filled in, inserted into the message and sent', async ({ page }) => {
  test.setTimeout(120_000) // a prompt saved, picked, filled in and sent
  await signUpAndSignIn(page)
  await permitGpt41(page)
  const created = await page.request.post('/api/prompts', { data: { title: 'Explain a topic', content: 'Explain {{topic}} to a new colleague in three sentences.' } })
  expect(created.status(), await created.text()).toBe(201)
  await page.request.post('/api/prompts', { data: { title: 'Proofread', content: 'Proofread this text.' } })
  await page.goto('/chat')
  await waitForHydration(page)

  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill('Hello! ')
  await page.getByRole('button', { name: 'Insert a saved prompt' }).click()
  const list = page.getByRole('listbox', { name: 'Saved prompts' })
  await expect(list.getByRole('option')).toHaveCount(2)
  await page.getByRole('combobox', { name: 'Search prompts' }).fill('colleague')
  await expect(list.getByRole('option')).toHaveCount(1)
  await list.getByRole('option', { name: /Explain a topic/ }).click()

  // The variables form takes focus, so the first Escape closes it; chosen again by keyboard, it opens again.
  const dialog = page.getByRole('dialog', { name: 'Explain a topic' })
  await expect(dialog.getByLabel('topic')).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await page.getByRole('button', { name: 'Insert a saved prompt' }).click()
  await page.getByRole('combobox', { name: 'Search prompts' }).fill('colleague')
  await expect(list.getByRole('option')).toHaveCount(1)
  await page.keyboard.press('Enter')
  await expect(dialog.getByLabel('topic')).toBeFocused()
  await dialog.getByRole('button', { name: 'Insert' }).click()
  await expect(dialog.getByText('Please enter a value for “topic”')).toBeVisible()
  await dialog.getByLabel('topic').fill('double-entry bookkeeping')
  await dialog.getByRole('button', { name: 'Insert' }).click()
  await expect(dialog).toHaveCount(0)
  const text = 'Hello! Explain double-entry bookkeeping to a new colleague in three sentences.'
  await expect(composer).toHaveValue(text)
  await expect(composer).toBeFocused()

  await composer.press('Enter')
  await expect(page).toHaveURL(/\/chats\/[\w-]+$/)
  await expect(page.getByTestId('assistant-message').last()).toHaveAttribute('data-status', 'complete')
  await expect(page.getByTestId('assistant-message').last()).toContainText(`You said: ${text}`)
  const requests = await llmRequests()
  expect(requests.some((r) => r.body?.messages?.some((m) => m.role === 'user' && m.content === text))).toBe(true)
})

test('an agent is created with a permitted model, edited, chatted with, becomes unavailable with its model and is deleted', async ({ page }) => {
  test.setTimeout(180_000) // a story: create, edit, chat, model withdrawn, delete
  await signUpAndSignIn(page)

  // Without a permitted model the dialog says so, and sends the admin to enable one.
  await open(page, '/agents')
  await expect(page.getByRole('heading', { name: 'No agents yet' })).toBeVisible()
  await page.getByRole('button', { name: 'New agent' }).first().click()
  let dialog = page.getByRole('dialog', { name: 'New agent' })
  await expect(dialog).toContainText('No language model is enabled for your organisation yet')
  await expect(dialog.getByRole('link', { name: 'Enable models' })).toHaveAttribute('href', '/admin-settings/models')
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)

  const permittedId = await permitGpt41(page)
  await open(page, '/agents')
  await page.getByRole('button', { name: 'New agent' }).first().click()
  dialog = page.getByRole('dialog', { name: 'New agent' })
  for (const capability of ['Generate charts', 'Statistical calculations', 'Create documents']) {
    await expect(dialog.getByRole('checkbox', { name: capability })).toBeDisabled()
    await expect(dialog.getByRole('checkbox', { name: capability })).not.toBeChecked()
  }
  await expect(dialog.getByTestId('agent-capability').filter({ hasText: 'Coming soon' })).toHaveCount(3)
  await expect(dialog.getByLabel('Model')).toHaveValue(permittedId)
  await expect(dialog.getByLabel('Model').locator('option:checked')).toHaveText('GPT-4.1 · OpenAI')

  await dialog.getByRole('button', { name: 'Create agent' }).click()
  await expect(dialog.getByText('Name is required')).toBeVisible()
  await expect(dialog.getByText('Instructions are required')).toBeVisible()
  await dialog.getByLabel('Name').fill('Support writer')
  await dialog.getByLabel('Instructions').fill('You answer customer e-mails politely and briefly.')
  await dialog.getByRole('button', { name: 'Create agent' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByText('Agent “Support writer” created')).toBeVisible()
  let card = agentCard(page, 'Support writer')
  await expect(card).toContainText('GPT-4.1 · OpenAI')
  await expect(card).toContainText('You answer customer e-mails politely and briefly.')

  await card.getByRole('button', { name: 'Edit “Support writer”' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit agent' })
  await expect(edit.getByLabel('Name')).toHaveValue('Support writer')
  await edit.getByLabel('Name').fill('Support writer (EN)')
  await edit.getByLabel('Instructions').fill('You answer customer e-mails in English, politely and briefly.')
  await edit.getByRole('button', { name: 'Save changes' }).click()
  await expect(edit).toHaveCount(0)
  card = agentCard(page, 'Support writer (EN)')
  await expect(card).toContainText('in English, politely')

  const [agent] = (await (await page.request.get('/api/agents')).json()) as Array<{ id: string }>
  await card.getByRole('link', { name: 'Chat with agent' }).click()
  await expect(page).toHaveURL(new RegExp(`/chat\\?agentId=${agent!.id}$`))
  await waitForHydration(page)
  const chat = chatPage(page)
  await chat.write('Where is my parcel?')
  const threadId = await chat.threadId()
  await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
  await expect(page.getByTestId('agent-picker')).toContainText('Support writer (EN)')
  // The agent's instructions reached the model, in the system prompt.
  expect(await systemPromptFor('Where is my parcel?')).toContain('You answer customer e-mails in English, politely and briefly.')

  // An edit of the agent shows in the chat's next reply.
  await open(page, '/agents')
  await card.getByRole('button', { name: 'Edit “Support writer (EN)”' }).click()
  await edit.getByLabel('Instructions').fill('You answer customer e-mails in German, formally.')
  await edit.getByRole('button', { name: 'Save changes' }).click()
  await expect(edit).toHaveCount(0)
  await page.goto(`/chats/${threadId}`)
  await waitForHydration(page)
  await chat.write('And my invoice?')
  await expect(chat.replies).toHaveCount(2)
  await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
  const system = await systemPromptFor('And my invoice?')
  expect(system).toContain('You answer customer e-mails in German, formally.')
  expect(system).not.toContain('in English')

  // Its model unpermitted, the agent stays listed but cannot be chatted with.
  const removed = await page.request.delete(`/api/models/permitted/${permittedId}`)
  expect(removed.status(), await removed.text()).toBe(204)
  await open(page, '/agents')
  await expect(card.getByText('Unavailable — its model is no longer permitted')).toBeVisible()
  await expect(card.getByRole('button', { name: 'Chat with agent' })).toBeDisabled()
  await expect(card.getByRole('link', { name: 'Chat with agent' })).toHaveCount(0)
  await expect(card).toContainText('choose a permitted model to chat with it again')
  await scan(page, 'agents')

  // Its chat says 'No model found' and sends nothing until the agent gets a permitted model.
  await page.goto(`/chats/${threadId}`)
  await waitForHydration(page)
  await expect(page.getByTestId('agent-picker')).toContainText('No model found')
  await expect(page.getByRole('status').filter({ hasText: 'No model found.' })).toContainText("The agent's model is no longer enabled")
  await chat.composer.fill('Anyone there?')
  await expect(chat.send).toBeDisabled()
  const refused = await page.request.post(`/api/threads/${threadId}/messages`, { data: { content: 'Anyone there?' } })
  expect(refused.status()).toBe(404)
  expect(await refused.json()).toMatchObject({ code: 'NO_MODEL_FOUND', message: 'No model found' })

  const again = await page.request.post('/api/models/permitted', { data: { modelId: 'openai/gpt-4.1' } })
  expect(again.status(), await again.text()).toBe(201)
  await open(page, '/agents')
  await expect(card.getByText('Unavailable — its model is no longer permitted')).toBeVisible()
  await card.getByRole('button', { name: 'Edit “Support writer (EN)”' }).click()
  await expect(edit.getByLabel('Model')).toHaveValue('')
  await edit.getByLabel('Model').selectOption({ label: 'GPT-4.1 · OpenAI' })
  await edit.getByRole('button', { name: 'Save changes' }).click()
  await expect(edit).toHaveCount(0)
  await expect(card.getByText('Unavailable — its model is no longer permitted')).toHaveCount(0)
  await expect(card.getByRole('link', { name: 'Chat with agent' })).toBeVisible()
  await page.goto(`/chats/${threadId}`)
  await waitForHydration(page)
  await expect(page.getByTestId('agent-picker')).toContainText('GPT-4.1')
  await chat.write('Anyone there now?')
  await expect(chat.replies).toHaveCount(3)
  await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
  await expect(chat.lastReply).toContainText('You said: Anyone there now?')

  await open(page, '/agents')

  await card.getByRole('button', { name: 'Delete “Support writer (EN)”' }).click()
  await expect(confirmDialog(page)).toContainText('Delete agent?')
  await confirmDialog(page).getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Agent “Support writer (EN)” deleted')).toBeVisible()
  await expect(card).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'No agents yet' })).toBeVisible()
})

// This flow's variant: German on a phone (the other agent and prompt flows take English on a desktop).
test.describe('agent tools and collections', () => {
  test.use({ locale: 'de-DE', viewport: { width: 390, height: 844 } })

  test("an agent's tools and collections are chosen in its form and kept when it is opened again", async ({ page }) => {
    await signUpAndSignIn(page)
    await permitGpt41(page)
    const collection = await page.request.post('/api/collections', { data: { name: 'Handbuch' } })
    expect(collection.status(), await collection.text()).toBe(201)
    await open(page, '/agents')
    await page.getByRole('button', { name: 'Neuer Agent' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Neuer Agent' })
    const tool = (name: string) => dialog.getByRole('checkbox', { name, exact: true })
    // A new agent may use every tool and searches no collection.
    for (const name of ['Websuche', 'Webseiten', 'Quellen', 'E-Mail-Entwürfe']) await expect(tool(name)).toBeChecked()
    await expect(tool('Handbuch')).not.toBeChecked()
    await scan(page, 'agent form')

    await dialog.getByLabel('Name').fill('Recherche')
    await dialog.getByLabel('Anweisungen').fill('Antworten Sie aus dem Handbuch.')
    await tool('Websuche').uncheck()
    await tool('E-Mail-Entwürfe').uncheck()
    await tool('Handbuch').check()
    await dialog.getByRole('button', { name: 'Agent erstellen' }).click()
    await expect(dialog).toHaveCount(0)
    const [saved] = (await (await page.request.get('/api/agents')).json()) as Array<{ tools: string[]; collections: Array<{ name: string }> }>
    expect(saved).toMatchObject({ tools: ['website_content', 'source_query'], collections: [{ name: 'Handbuch' }] })

    const card = agentCard(page, 'Recherche')
    // The card says what the agent works with.
    await expect(card).toContainText('Werkzeuge:Webseiten, Quellen')
    await expect(card).toContainText('Wissen:Handbuch')
    await card.getByRole('button', { name: '„Recherche“ bearbeiten' }).click()
    const edit = page.getByRole('dialog', { name: 'Agent bearbeiten' })
    const editTool = (name: string) => edit.getByRole('checkbox', { name, exact: true })
    await expect(editTool('Websuche')).not.toBeChecked()
    await expect(editTool('Webseiten')).toBeChecked()
    await expect(editTool('Quellen')).toBeChecked()
    await expect(editTool('E-Mail-Entwürfe')).not.toBeChecked()
    await expect(editTool('Handbuch')).toBeChecked()
    await editTool('Websuche').check()
    await editTool('Handbuch').uncheck()
    await edit.getByRole('button', { name: 'Änderungen speichern' }).click()
    await expect(edit).toHaveCount(0)

    await page.reload()
    await waitForHydration(page)
    await card.getByRole('button', { name: '„Recherche“ bearbeiten' }).click()
    await expect(editTool('Websuche')).toBeChecked()
    await expect(editTool('E-Mail-Entwürfe')).not.toBeChecked()
    await expect(editTool('Handbuch')).not.toBeChecked()
  })
})

// This flow's variant: English, dark theme (both people).
test.describe('a prompt shared with the organisation (dark)', () => {
  test.use({ colorScheme: 'dark' })
  test.beforeEach(async ({ page }) => page.addInitScript(() => localStorage.setItem('theme', 'dark')))

  test('an admin shares a prompt; a colleague finds it under "Shared with me", cannot edit it and makes a copy', async ({ page, browser }) => {
    test.setTimeout(120_000) // two people in two browsers
    await signUpAndSignIn(page)
    const created = await page.request.post('/api/prompts', { data: { title: 'Customer reply', content: 'Answer {{customer}} politely.' } })
    expect(created.status()).toBe(201)
    await open(page, '/prompts')
    const mine = page.getByRole('region', { name: 'Mine' })
    await mine.getByRole('button', { name: 'Share “Customer reply”' }).click()
    const dialog = page.getByRole('dialog', { name: 'Share “Customer reply”' })
    await dialog.getByRole('checkbox', { name: 'Everyone in the organisation' }).check()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(promptCard(page, 'Customer reply')).toContainText('Shared with the organisation')

    // A colleague of the same organisation, in a browser of their own.
    const colleague = await invitedColleague(page, browser, { colorScheme: 'dark' })
    await colleague.addInitScript(() => localStorage.setItem('theme', 'dark'))
    await open(colleague, '/prompts')
    await expect(colleague.locator('html')).toHaveClass(/dark/)
    const shared = colleague.getByRole('region', { name: 'Shared with me' })
    const card = promptCard(shared, 'Customer reply')
    await expect(card).toContainText('Answer {{customer}} politely.')
    await expect(card).toContainText('read-only')
    await expect(card.getByRole('button', { name: 'Edit “Customer reply”' })).toHaveCount(0)
    await expect(card.getByRole('button', { name: 'Delete “Customer reply”' })).toHaveCount(0)
    await expect(colleague.getByRole('region', { name: 'Mine' })).toContainText('None of your own prompts here.')

    // Search covers both; the copy lands under "Mine", editable, and the original stays as it was.
    await colleague.getByRole('searchbox', { name: 'Search prompts' }).fill('politely')
    await expect(colleague).toHaveURL(/search=politely/)
    await card.getByRole('button', { name: 'Make a copy of “Customer reply”' }).click()
    await expect(colleague.getByText('Copy “Customer reply” added to your prompts')).toBeVisible()
    const copy = promptCard(colleague.getByRole('region', { name: 'Mine' }), 'Customer reply')
    await copy.getByRole('button', { name: 'Edit “Customer reply”' }).click()
    const edit = colleague.getByRole('dialog', { name: 'Edit prompt' })
    await edit.getByLabel('Title').fill('My customer reply')
    await edit.getByRole('button', { name: 'Save changes' }).click()
    await expect(edit).toHaveCount(0)
    await expect(promptCard(colleague.getByRole('region', { name: 'Mine' }), 'My customer reply')).toBeVisible()
    await expect(promptCard(shared, 'Customer reply')).toBeVisible()
    await scan(colleague, 'shared prompts')
  })
})
