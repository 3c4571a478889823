import { expect, test } from '../e2e/support/test'
import type { Page } from '@playwright/test'
import { chatPage, enableModels, startChat } from '../e2e/support/chat'
import { waitForMail } from '../e2e/support/mailbox'
import { inviteLink, inviteRow, inviteViaDialog, memberRow, openUsers } from '../e2e/support/members'
import { availableGroup, enableModel, enableProvider, openModels, providerRow } from '../e2e/support/models'
import { PASSWORD, signUpAndSignIn, waitForHydration } from '../e2e/support/session'
import { toolCards } from '../e2e/support/tools'
import { MARKDOWN_PAYLOADS, MATH_FORMULAS, markdownCorpus, markdownShows } from './support/markdown-corpus'
import { expectNoXss, expectShown, expectWatchWorks, giveSearchResults, putPage, run, watchForXss } from './support/xss'

// An XSS corpus rendered wherever Kontor shows text that someone else (a model, a web page, a
// colleague, a file, a self-hosted server) chose: every payload, if it ran, would call the test's
// `xssHit` binding and open an alert (tests/security/support/xss.ts). Each test asserts that
// nothing ran, that the page holds no markup able to run script, and that each payload is shown
// as text where a user would look for it, so that rendering nothing cannot pass.

// The pages' Content-Security-Policy would block inline handlers on its own; this corpus checks the
// rendering itself, so Chromium ignores the policy here (tests/security/csp.e2e.ts checks the policy).
test.use({ bypassCSP: true })

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`

/** Chat titles (at most 50 characters; a leading quote would be trimmed). */
const TITLES = [
  `<img src=x onerror=${run(71)}>`,
  `x"><svg onload=${run(72)}>`,
  `</script><script>${run(73)}</script>`,
  `javascript:${run(74)}`,
  `\${${run(75)}} {{${run(75)}}}`,
  `<a href=javascript:${run(76)}>t76</a>`,
]
const LIVE_TITLE = `<svg/onload=${run(77)}>`

test('a reply, the message it answers, its reasoning and chat titles show every payload as text and run none', async ({ page, context }) => {
  test.setTimeout(180_000) // signs up, titles six chats, sends one long message, follows a reload
  const watch = await watchForXss(context)
  await signUpAndSignIn(page)
  await enableModels(page)
  for (const title of TITLES) {
    const { id } = (await (await page.request.post('/api/threads', { data: {} })).json()) as { id: string }
    const sent = await page.request.post(`/api/threads/${id}/messages`, { data: { content: `[[fake:title=${title}]] Name this chat` } })
    expect(sent.status(), await sent.text()).toBe(200)
    expect(((await (await page.request.get(`/api/threads/${id}`)).json()) as { title: string }).title).toBe(title)
  }

  const chat = await startChat(page)
  await expectWatchWorks(page, watch)
  const message = `[[fake:title=${LIVE_TITLE}]] [[fake:reasoning]] The corpus:\n\n${markdownCorpus()}`
  await chat.composer.fill(message)
  await chat.composer.press('Enter')
  await expect(chat.lastReply).toHaveAttribute('data-status', 'complete', { timeout: 20_000 })
  const content = chat.lastReply.getByTestId('assistant-content')
  const sources = MARKDOWN_PAYLOADS.map((p) => p.source)

  const expectEverythingShown = async (where: string) => {
    await expectShown(chat.userMessages.last(), sources, `user message ${where}`)
    // Rendered as markdown, math included (until their chunks arrive the reply shows as plain text).
    await expect(content.getByRole('heading', { name: `<svg onload=${run(58)}>` }), `reply ${where}`).toBeVisible({ timeout: 15_000 })
    await expect(content.locator('.katex'), `math ${where}`).toHaveCount(MATH_FORMULAS, { timeout: 15_000 })
    await expectShown(content, markdownShows(), `reply ${where}`)
    await expect(chat.title).toHaveText(LIVE_TITLE)
    await expect(chat.sidebar.getByRole('link', { name: LIVE_TITLE, exact: true })).toBeVisible()
    await expectShown(chat.sidebar, TITLES, `sidebar ${where}`)
    const thoughts = chat.lastReply.getByRole('button', { name: 'Thought process' })
    await thoughts.click()
    const reasoning = page.locator(`[id="${await thoughts.getAttribute('aria-controls')}"]`)
    await expectShown(reasoning, sources, `reasoning ${where}`)
    // Links whose address could run script are plain text; clicking them does nothing.
    for (const text of ['markdown link 33', 'mixed case 34', 'entity colon 35', 'tab entity 36', 'angle 37', 'data link 38', 'vbscript 39', 'reference 40', 'Image: image 42']) {
      const shown = content.getByText(text, { exact: true })
      await expect(shown, text).toBeVisible()
      await expect(content.locator('a').filter({ hasText: text }), text).toHaveCount(0)
      await shown.click()
    }
    // A link whose title tried to add a handler is a plain link with that title.
    const titled = content.getByRole('link', { name: 'title 41' })
    await expect(titled).toHaveAttribute('title', `" onmouseover="${run(41)}`)
    await titled.hover()
    await expectNoXss(page, watch, `chat ${where}`)
  }

  await expectEverythingShown('as it streamed')
  // Once again from the server's rendering and the data it hands to the page.
  await page.reload()
  await waitForHydration(page)
  await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
  await expectEverythingShown('after a reload')

  // The message opened for editing holds the payloads as its value.
  await chat.userMessages.last().hover()
  await page.getByRole('button', { name: 'Edit message' }).click()
  await expect(page.getByRole('textbox', { name: 'Edit your message' })).toHaveValue(message)
  await page.keyboard.press('Escape')
  await expectNoXss(page, watch, 'editing the message')
})

/** A text file attached to a chat through the API, under `name` when given (a name may hold what a file name cannot). */
async function attach(page: Page, baseURL: string, threadId: string, file: { fileName: string; name?: string; text: string }) {
  const res = await page.request.post(`/api/threads/${threadId}/sources/file`, {
    headers: { origin: baseURL },
    multipart: {
      file: { name: file.fileName, mimeType: 'text/plain', buffer: Buffer.from(file.text) },
      ...(file.name ? { name: file.name } : {}),
    },
  })
  expect(res.status(), await res.text()).toBe(201)
}

test('tool results, file names and citations show every payload as text and run none', async ({ page, context, baseURL }) => {
  test.setTimeout(240_000) // files processed, one reply with five tool calls, a reload
  const watch = await watchForXss(context)
  await signUpAndSignIn(page)
  await enableModels(page, ['openai/gpt-4.1', 'openai/text-embedding-3-small'])
  const { id } = (await (await page.request.post('/api/threads', { data: {} })).json()) as { id: string }

  const cited = 'x" onmouseover="xssHit`85`,alert`85`" y.txt'
  const files = [
    { fileName: `<img src=x onerror=${run(81)}>.txt`, text: `Budget plan. <img src=x onerror=${run(82)}> The budget is 40,000 euros.` },
    { fileName: 'notes.txt', name: `</script><script>${run(83)}</script>.txt`, text: `Budget review: "><svg onload=${run(84)}> spending stays within the budget.` },
    { fileName: 'quote.txt', name: cited, text: 'Budget owner: finance. The budget is approved.' },
  ]
  const fileNames = files.map((f) => f.name ?? f.fileName)
  for (const file of files) await attach(page, baseURL!, id, file)
  await expect
    .poll(async () => ((await (await page.request.get(`/api/threads/${id}/sources`)).json()) as Array<{ name: string; status: string }>).map((s) => `${s.name}: ${s.status}`).sort(), {
      message: 'the files are processed',
      timeout: 30_000,
    })
    .toEqual(fileNames.map((n) => `${n}: ready`).sort())

  const query = `xss corpus ${unique()}`
  await giveSearchResults(query, [
    { title: `&lt;img src=x onerror=${run(91)}&gt;`, url: 'https://xss.example/91', content: `&lt;script&gt;${run(92)}&lt;/script&gt;` },
    {
      title: `x&quot;&gt;&lt;svg onload=${run(93)}&gt;`,
      url: `https://xss.example/93"><img src=x onerror=${run(94)}>`,
      content: `&lt;iframe srcdoc=&quot;&lt;script&gt;${run(95)}&lt;/script&gt;&quot;&gt;`,
    },
    { title: 'script address 96', url: `javascript:${run(96)}`, content: 'not a web page' },
    { title: 'data address 97', url: `data:text/html,<script>${run(97)}</script>`, content: 'not a web page' },
    { title: 'mixed case 98', url: `JaVaScRiPt:${run(98)}`, content: 'not a web page' },
  ])
  const pageTitle = `<img src=x onerror=${run(101)}>`
  const pageUrl = await putPage(
    `xss-${unique()}`,
    `<!doctype html><html><head><title>&lt;img src=x onerror=${run(101)}&gt;</title></head><body><article>` +
      `<h1>Page 101</h1><p>The page quotes &lt;svg onload=${run(102)}&gt; in its text, which is long enough to be the article.</p>` +
      `<p>It also carries <img src=x onerror=${run(103)}> markup <script>${run(104)}</script> that is never shown.</p></article></body></html>`,
  )
  const draft = { to: "o'brien@acme.test", subject: `x"><img src=x onerror=${run(111)}>`, body: `</textarea><script>${run(112)}</script>\n<img src=x onerror=${run(113)}>` }
  const badTool = `<img src=x onerror=${run(121)}>`
  const answer = `See (${cited.replace(/`/g, '\\`')}, chunk 1) and <img src=x onerror=${run(122)}> and [the results](javascript:${run(123)}).`

  await page.goto(`/chats/${id}`)
  await waitForHydration(page)
  await expectWatchWorks(page, watch)
  const chat = chatPage(page)
  const chips = page.getByRole('list', { name: 'Attached files' })
  await expect(chips.getByTestId('source-chip')).toHaveCount(files.length)
  await expectShown(chips, fileNames, 'file chips')

  await chat.write(
    [
      `[[fake:tool=internet_search:${JSON.stringify({ query })}]]`,
      `[[fake:tool=website_content:${JSON.stringify({ url: pageUrl })}]]`,
      `[[fake:tool=send_email:${JSON.stringify(draft)}]]`,
      `[[fake:tool=source_query:${JSON.stringify({ query: 'budget' })}]]`,
      `[[fake:tool=${badTool}:{}]]`,
      `[[fake:after-tool=${answer}]]`,
      'Use every tool',
    ].join(' '),
  )
  const { reply, content, card, emailDraft } = toolCards(page)
  await expect(reply).toHaveAttribute('data-status', 'complete', { timeout: 30_000 })

  const expectToolsShown = async (where: string) => {
    const search = card('internet_search')
    await search.getByRole('button', { name: /Web search/ }).click()
    const results = search.getByTestId('search-results')
    await expectShown(results, [`<img src=x onerror=${run(91)}>`, `<script>${run(92)}</script>`, `x"><svg onload=${run(93)}>`, 'xss.example'], `search results ${where}`)
    // Only the web addresses are links; the others were dropped.
    await expect(results.getByRole('link')).toHaveCount(2)
    await expect(results).not.toContainText('script address 96')

    const web = card('website_content')
    await web.getByRole('button', { name: /Web page/ }).click()
    await expect(web.getByRole('link', { name: pageTitle })).toHaveAttribute('href', pageUrl)
    await expect(web).toContainText(`svg onload=${run(102)}`)

    await expect(emailDraft.getByLabel('To')).toHaveValue(draft.to)
    await expect(emailDraft.getByLabel('Subject')).toHaveValue(draft.subject)
    await expect(emailDraft.getByLabel('Message')).toHaveValue(draft.body)
    await expect(emailDraft.getByRole('link', { name: 'Open in mail app' })).toHaveAttribute('href', /^mailto:o'brien@acme\.test\?subject=x%22%3E%3Cimg/)

    const files = card('source_query')
    await files.getByRole('button', { name: /Search in files/ }).click()
    await expectShown(files, [...fileNames, `<img src=x onerror=${run(82)}>`, `"><svg onload=${run(84)}>`], `passages ${where}`)

    const failed = reply.locator('[data-testid=tool-call][data-state-kind=failed]')
    await expect(failed).toHaveCount(1)
    await expect(failed).toContainText(badTool)
    await expect(failed.getByTestId('tool-error')).toHaveText('Tool not found')

    await expectShown(content, [`<img src=x onerror=${run(122)}>`, 'the results'], `answer ${where}`)
    await expect(content.locator('a').filter({ hasText: 'the results' })).toHaveCount(0)
    // The citation of the file whose name tries to add a handler shows its passage.
    const citation = content.getByRole('button', { name: `Show the cited passage (${cited}, chunk 1)` })
    await citation.hover()
    await citation.click()
    await expect(page.getByTestId('citation-passage')).toContainText(cited)
    await page.keyboard.press('Escape')
    await expectShown(chips, fileNames, `file chips ${where}`)
    await expectNoXss(page, watch, `tool results ${where}`)
  }

  await expectToolsShown('as they arrived')
  await page.reload()
  await waitForHydration(page)
  await expect(reply).toHaveAttribute('data-status', 'complete')
  await expectToolsShown('after a reload')
})

test('names of people and of the organisation, invitations and their e-mails show every payload as text and run none', async ({ page, context, browser }) => {
  test.setTimeout(180_000) // sign-up, a renaming, an invitation accepted in a second browser
  const watch = await watchForXss(context)
  // The greeting shows the first word of a name: this one has no blank, so the greeting holds all of it.
  const admin = { name: `<img/src=x/onerror=${run(131)}>`, organizationName: `x"><svg onload=${run(132)}>` }
  const renamed = `</script><script>${run(133)}</script>`
  const colleague = `x" autofocus onfocus="${run(134)}`
  const account = await signUpAndSignIn(page, admin)

  await page.goto('/chat')
  await waitForHydration(page)
  await expectWatchWorks(page, watch)
  await expect(page.getByRole('heading', { name: `Hello, ${admin.name}` })).toBeVisible()
  await expectShown(page.getByTestId('sidebar-user'), [admin.name, admin.organizationName], 'shell')
  await expectNoXss(page, watch, 'shell')

  // Renamed in the settings: the form, the toast and the shell.
  await page.goto('/settings/account')
  await waitForHydration(page)
  const name = page.getByLabel('Name', { exact: true })
  await expect(name).toHaveValue(admin.name)
  await name.fill(renamed)
  await page.getByRole('button', { name: 'Save name' }).click()
  await expect(page.getByText('Your name has been changed.')).toBeVisible()
  await expect(page.getByTestId('sidebar-user')).toContainText(renamed)
  await page.reload()
  await waitForHydration(page)
  await expect(name).toHaveValue(renamed)
  await expect(page.getByTestId('sidebar-user')).toContainText(renamed)
  await expectNoXss(page, watch, 'account settings')

  // An invitation: its row, its confirmation dialog and its e-mail. An address allows only ' of the usual breakout characters.
  await openUsers(page)
  await expect(memberRow(page, account.email)).toContainText(renamed)
  const invited = `o'neil'-${unique()}@acme.test`
  await inviteViaDialog(page, invited)
  await expect(inviteRow(page, invited)).toContainText(invited)
  await inviteRow(page, invited).getByRole('button', { name: `Revoke the invitation to ${invited}` }).click()
  await expect(page.getByRole('alertdialog')).toContainText(`The invitation link sent to ${invited} stops working.`)
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click()
  await expectNoXss(page, watch, 'users admin page')

  const mail = await waitForMail(invited, { subject: /invited you/ })
  expect(mail.subject).toBe(`${renamed} invited you to ${admin.organizationName} on Kontor`)
  const mailPage = await context.newPage()
  await mailPage.setContent(mail.html)
  await expectShown(mailPage.locator('body'), [renamed, admin.organizationName], 'invitation e-mail')
  await expectNoXss(mailPage, watch, 'invitation e-mail')
  await mailPage.close()

  // The colleague, in a browser of their own, joins under a name of their choosing.
  const other = await browser.newContext()
  const otherWatch = await watchForXss(other)
  const joining = await other.newPage()
  await joining.goto(await inviteLink(invited))
  await waitForHydration(joining)
  await expectWatchWorks(joining, otherWatch)
  await expect(joining.getByRole('heading', { name: `Join ${admin.organizationName}` })).toBeVisible()
  await expect(joining.getByLabel('E-mail', { exact: true })).toHaveValue(invited)
  await joining.getByLabel('Your name').fill(colleague)
  await joining.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await joining.getByLabel('Confirm password').fill(PASSWORD)
  await joining.getByRole('button', { name: 'Join organisation' }).click()
  await expect(joining).toHaveURL(/\/chat$/)
  await expect(joining.getByRole('heading', { name: `Hello, ${colleague.split(' ')[0]}`, exact: true })).toBeVisible()
  await expectShown(joining.getByTestId('sidebar-user'), [colleague, admin.organizationName], "colleague's shell")
  await expectNoXss(joining, otherWatch, "colleague's chat page")
  await other.close()

  // The admin sees the colleague in the members list and in the dialog that would remove them.
  await openUsers(page)
  const row = memberRow(page, invited)
  await expect(row).toContainText(colleague)
  await expect(row.getByRole('combobox', { name: `Role of ${colleague}` })).toHaveValue('user')
  await row.getByRole('button', { name: `Remove ${colleague}` }).click()
  await expect(page.getByRole('alertdialog')).toContainText(colleague)
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click()
  await expectNoXss(page, watch, 'members list')
})

test('prompts and agents show every payload as text in the library, the pickers and a chat, and run none', async ({ page, context }) => {
  test.setTimeout(180_000) // prompts and agents created, shown on four screens, one used in a chat
  const watch = await watchForXss(context)
  await signUpAndSignIn(page)
  const [model] = await enableModels(page)
  const prompts = [
    { title: `<img src=x onerror=${run(141)}>`, content: `Explain {{topic}} <script>${run(142)}</script> {{constructor.constructor('${run(143)}')()}}` },
    { title: `x"><svg onload=${run(144)}>`, content: `javascript:${run(145)} \${${run(146)}} [link](javascript:${run(147)})` },
  ]
  const agents = [
    { name: `<img src=x onerror=${run(151)}>`, instructions: `<script>${run(152)}</script> reply briefly` },
    { name: `x" autofocus onfocus="${run(153)}`, instructions: `{{constructor.constructor('${run(154)}')()}}` },
  ]
  for (const prompt of prompts) expect((await page.request.post('/api/prompts', { data: prompt })).status()).toBe(201)
  for (const agent of agents) expect((await page.request.post('/api/agents', { data: { ...agent, modelId: model!.id } })).status()).toBe(201)

  await page.goto('/prompts')
  await waitForHydration(page)
  await expectWatchWorks(page, watch)
  // One more through the dialog, which confirms it by name.
  const typed = { title: `</script><script>${run(148)}</script>`, content: `<iframe srcdoc="<script>${run(149)}</script>">` }
  await page.getByRole('button', { name: 'New prompt' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'New prompt' })
  await dialog.getByLabel('Title').fill(typed.title)
  await dialog.getByLabel('Prompt', { exact: true }).fill(typed.content)
  await dialog.getByRole('button', { name: 'Save prompt' }).click()
  await expect(page.getByText(`Prompt “${typed.title}” saved`)).toBeVisible()
  const all = [...prompts, typed]
  await expect(page.getByTestId('prompt-card')).toHaveCount(3)
  await expectShown(page.getByRole('main'), all.flatMap((p) => [p.title, p.content]), 'prompt library')
  await page.getByRole('button', { name: `Delete “${prompts[1]!.title}”` }).click()
  await expect(page.getByRole('alertdialog')).toContainText(prompts[1]!.title)
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click()
  await expectNoXss(page, watch, 'prompt library')

  await page.goto('/agents')
  await waitForHydration(page)
  await expect(page.getByTestId('agent-card')).toHaveCount(2)
  await expectShown(page.getByRole('main'), agents.flatMap((a) => [a.name, a.instructions]), 'agents')
  await expectNoXss(page, watch, 'agents')

  // In a chat: the agent picked by name, a prompt picked, its variable filled in with a payload, sent.
  const chat = await startChat(page)
  const agentPicker = page.getByTestId('agent-picker')
  await agentPicker.click()
  for (const agent of agents) await expect(page.getByRole('menuitemradio', { name: agent.name })).toBeVisible()
  await page.getByRole('menuitemradio', { name: agents[0]!.name }).click()
  await expect(agentPicker).toContainText(agents[0]!.name)
  await expect(page.getByText(`Your agent ${agents[0]!.name} is ready. What should it do?`)).toBeVisible()

  await page.getByRole('button', { name: 'Insert a saved prompt' }).click()
  const list = page.getByRole('listbox', { name: 'Saved prompts' })
  await expectShown(list, all.map((p) => p.title), 'prompt picker')
  await list.getByRole('option', { name: prompts[0]!.title }).click()
  const variables = page.getByRole('dialog', { name: prompts[0]!.title })
  const value = `"><img src=x onerror=${run(155)}>`
  await variables.getByLabel('topic').fill(value)
  await variables.getByRole('button', { name: 'Insert' }).click()
  const sent = prompts[0]!.content.replace('{{topic}}', value)
  await expect(chat.composer).toHaveValue(sent)
  await chat.composer.press('Enter')
  await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
  await expect(chat.lastReply.getByTestId('assistant-content')).toContainText(`Explain ${value} <script>${run(142)}</script>`)
  await expect(chat.userMessages.last()).toContainText(sent)
  await expectNoXss(page, watch, 'a chat with an agent and a prompt')
})

test("an own endpoint's name and the model names it reports show every payload as text and run none", async ({ page, context }) => {
  test.setTimeout(180_000) // an endpoint added, its models listed, enabled and picked in a chat
  const watch = await watchForXss(context)
  await signUpAndSignIn(page)
  const endpoint = `<img src=x onerror=${run(161)}>`
  // What a self-hosted server answers to GET /v1/models: ids that are markup.
  const models = [`x"><svg onload=${run(162)}>`, `</script><script>${run(163)}</script>`, `javascript:${run(164)}`]
  const list = { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'xss' })) }
  const base = `xss-endpoint-${unique()}/v1`
  const listUrl = await putPage(`${base}/models`, JSON.stringify(list), 'application/json')
  const baseUrl = listUrl.replace(/\/models$/, '')

  await openModels(page)
  await expectWatchWorks(page, watch)
  await page.getByLabel('Name', { exact: true }).fill(endpoint)
  await page.getByLabel('Base URL').fill(baseUrl)
  await page.getByLabel('API key').fill('sk-xss')
  await page.getByRole('button', { name: 'Add endpoint' }).click()
  await expect(page.getByText(`${endpoint} has been added.`)).toBeVisible()
  await expect(page.getByTestId('endpoint-row').filter({ hasText: endpoint })).toContainText(baseUrl)
  await expect(providerRow(page, endpoint)).toContainText('Own endpoint')
  await expect(availableGroup(page, endpoint).getByTestId('available-model-row')).toHaveText(models.map((m) => new RegExp(escapeRegExp(m))))
  await enableProvider(page, endpoint)
  for (const model of models) await enableModel(page, model, endpoint)
  await expectShown(page.getByRole('main'), [endpoint, ...models], 'models page')
  await page.getByTestId('endpoint-row').getByRole('button', { name: `Remove ${endpoint}` }).click()
  await expect(page.getByRole('alertdialog')).toContainText(endpoint)
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click()
  await expectNoXss(page, watch, 'models page')

  // The model picker of a chat lists them with the endpoint's name; the picked one names the chat's model.
  const chat = await startChat(page)
  await chat.modelPicker.click()
  const menu = page.getByRole('menu')
  await expectShown(menu, [endpoint, ...models], 'model picker')
  await menu.getByRole('menuitemradio', { name: new RegExp(`^${escapeRegExp(models[1]!)}`) }).click()
  await expect(chat.modelPicker).toHaveAccessibleName(`Model: ${models[1]}`)
  await expect(chat.modelPicker).toContainText(models[1]!)
  await expectNoXss(page, watch, 'model picker')
})

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
