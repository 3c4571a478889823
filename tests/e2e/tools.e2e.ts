import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './support/test'
import { chunksHolding } from './support/build'
import { chatPage, enableModels, startChat } from './support/chat'
import { mailsTo } from './support/mailbox'
import { signUpAndSignIn, waitForHydration } from './support/session'
import { attachTextFile, releaseHeldSearches, toolCards } from './support/tools'

const REL = 'noopener noreferrer nofollow'

async function expectNoSeriousAxeFindings(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${label} ${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([])
}

/** The chunk of a citation's popover (citation-popover.tsx), found by what it renders. */
const popoverChunk = () => chunksHolding('citation-passage')[0]

/** A member's chat, open and hydrated, with a text file of plant notes attached; its id. */
async function chatWithNotes(page: Page) {
  await signUpAndSignIn(page)
  await enableModels(page, ['openai/gpt-4.1', 'openai/text-embedding-3-small'])
  await page.goto('/chat')
  const created = await page.request.post('/api/threads', { data: {} })
  expect(created.status(), await created.text()).toBe(201)
  const { id } = (await created.json()) as { id: string }
  await attachTextFile(page, id, 'notes.txt', 'Plant notes.\n\nThe annual maintenance budget for the turbine is 40,000 euros.')
  await page.goto(`/chats/${id}`)
  await waitForHydration(page)
  return id
}

/** Where each text appears in the reply's visible text (-1: missing). */
const positions = async (content: ReturnType<typeof toolCards>['content'], texts: string[]) => {
  const text = await content.innerText()
  return texts.map((t) => text.indexOf(t))
}

test.describe('tools in chat', () => {
  // Each test signs up a new organisation and waits for whole replies with tool calls; the
  // search test also reloads and scans twice, which takes close to a minute on a busy machine.
  test.describe.configure({ timeout: 180_000 })

  test('a web search shows its call where it happened, running then done, its results as links, and the answer cites one', async ({ page }) => {
    await signUpAndSignIn(page)
    await enableModels(page)
    const chat = await startChat(page)
    const { reply, content, card } = toolCards(page)
    await chat.write(
      '[[fake:text=Let me search the web.]] [[fake:tool=internet_search:{"query":"kontor tools for teams and their organisations [held]"}]] ' +
        '[[fake:after-tool=Kontor is a workspace for chatting with models, see [Kontor](https://kontor.example/).]] What is Kontor?',
    )
    const search = card('internet_search')

    // While the search runs: the tool's name, its query and a spinner, after the text that came first.
    await expect(search).toContainText('Web search')
    await expect(search).toContainText('“kontor tools for teams and their organisations [held]”')
    await expect(search.getByRole('status')).toHaveText('Running…')
    await expect(search).toHaveAttribute('data-state-kind', 'running')
    await expect(content).toContainText('Let me search the web.')
    await releaseHeldSearches()

    await expect(reply).toHaveAttribute('data-status', 'complete')
    await expect(search).toHaveAttribute('data-state-kind', 'done')
    await expect(search.getByRole('status')).toHaveCount(0)
    const toggle = search.getByRole('button', { name: /Web search/ })
    await expect(toggle).toContainText('2 results')
    // Text before, the card, the answer after it: in the order it happened.
    const order = await positions(content, ['Let me search the web.', 'Web search', 'Kontor is a workspace'])
    expect(order.every((p) => p >= 0)).toBe(true)
    expect(order).toEqual([...order].sort((a, b) => a - b))

    // The results are folded away until opened.
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await expect(search.getByRole('link')).toHaveCount(0)
    await toggle.click()
    await expect(toggle).toHaveAttribute('aria-expanded', 'true')
    const first = search.getByRole('link', { name: /Kontor – the workspace/ })
    await expect(first).toHaveAttribute('href', 'https://kontor.example/')
    await expect(first).toHaveAttribute('target', '_blank')
    await expect(first).toHaveAttribute('rel', REL)
    await expect(search.getByRole('link', { name: /Kontor docs/ })).toHaveAttribute('href', 'https://docs.kontor.example/tools')
    await expect(search).toContainText('docs.kontor.example')
    await expect(search).toContainText('Tools & more')
    // The result the backend dropped (not a web page) is not offered as a link.
    await expect(search.locator('a[href^="javascript"]')).toHaveCount(0)

    // The answer cites a result as a link that opens in a new tab.
    const cited = content.getByRole('link', { name: 'Kontor', exact: true })
    await expect(cited).toHaveAttribute('href', 'https://kontor.example/')
    await expect(cited).toHaveAttribute('rel', REL)

    await expectNoSeriousAxeFindings(page, 'light')

    await page.evaluate(() => localStorage.setItem('theme', 'dark'))
    await page.reload()
    await waitForHydration(page)
    // After a reload the call is still where it happened, from what the server stored.
    await expect(card('internet_search')).toHaveAttribute('data-state-kind', 'done')
    const reloaded = await positions(content, ['Let me search the web.', 'Web search', 'Kontor is a workspace'])
    expect(reloaded).toEqual([...reloaded].sort((a, b) => a - b))
    await card('internet_search').getByRole('button', { name: /Web search/ }).click()
    await expect(card('internet_search').getByRole('link', { name: /Kontor docs/ })).toBeVisible()
    await expectNoSeriousAxeFindings(page, 'dark')

    // On a phone the cards fit the width: a long query is cut short, nothing sticks out sideways.
    await page.setViewportSize({ width: 360, height: 800 })
    await expect(card('internet_search').getByRole('link', { name: /Kontor docs/ })).toBeVisible()
    const overflow = await page.getByTestId('message-scroller').evaluate((el) => el.scrollWidth - el.clientWidth)
    expect(overflow).toBeLessThanOrEqual(0)
  })

  test('a failed tool call says why, in the user language where the error has a code', async ({ page }) => {
    await signUpAndSignIn(page)
    await enableModels(page)
    const chat = await startChat(page)
    const { reply, card } = toolCards(page)
    await chat.write('[[fake:tool=weather_report:{"city":"Berlin"}]] [[fake:after-tool=I cannot check the weather.]] Weather?')
    await expect(reply).toHaveAttribute('data-status', 'complete')
    const failed = card('weather_report')
    await expect(failed).toHaveAttribute('data-state-kind', 'failed')
    await expect(failed).toContainText('weather_report')
    await expect(failed).toContainText('“city: Berlin”')
    await expect(failed.getByTestId('tool-error')).toHaveText('Tool not found')
    // The detail written for the model is behind the toggle.
    const toggle = failed.getByRole('button', { name: /weather_report/ })
    await toggle.click()
    await expect(failed).toContainText('there is no tool named "weather_report"')

    // In German: the account's language and this browser's.
    const german = await page.request.patch('/api/users/locale', { data: { locale: 'de' } })
    expect(german.status(), await german.text()).toBe(200)
    await page.context().addCookies([{ name: 'kontor-lang', value: 'de', url: new URL(page.url()).origin }])
    await page.reload()
    await waitForHydration(page)
    await expect(card('weather_report').getByTestId('tool-error')).toHaveText('Werkzeug nicht gefunden')
    await expect(card('weather_report')).toContainText('Fehlgeschlagen')
  })

  test('a model that keeps calling tools is stopped after 10 calls with a clear error, keeping what it did', async ({ page }) => {
    await signUpAndSignIn(page)
    await enableModels(page)
    const chat = await startChat(page)
    const { reply, content } = toolCards(page)
    await chat.write('[[fake:text=Trying again.]] [[fake:tool=website_content:{"url":"http://10.0.0.1/"}]] [[fake:tool-turns=50]] Read the router page')
    await expect(reply).toHaveAttribute('data-status', 'failed', { timeout: 30_000 })
    await expect(reply.getByRole('alert')).toContainText('Maximal number of iterations reached')
    // Nine calls ran (the tenth model call's would have no model call left to read them); each said why it failed.
    const cards = reply.locator('[data-testid=tool-call][data-tool=website_content]')
    await expect(cards).toHaveCount(9)
    await expect(reply.locator('[data-testid=tool-call][data-tool=website_content][data-state-kind=failed]')).toHaveCount(9)
    await expect(cards.first().getByTestId('tool-error')).toContainText('private or internal network')
    await expect(content).toContainText('Trying again.')
    await expect(reply.getByRole('button', { name: 'Retry' })).toBeVisible()
  })

  test('an e-mail draft is an editable card whose mail link and copy follow the edits; nothing is sent', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await page.setViewportSize({ width: 390, height: 800 })
    await signUpAndSignIn(page)
    await enableModels(page)
    const chat = await startChat(page)
    const { reply, emailDraft } = toolCards(page)
    const args = { to: 'ada@example.com', subject: 'Lunch & plans', body: 'Hi Ada,\n\nLunch on Friday?\n\nBob' }
    await chat.write(`[[fake:tool=send_email:${JSON.stringify(args)}]] [[fake:after-tool=The draft is ready.]] Write to Ada about lunch`)
    await expect(reply).toHaveAttribute('data-status', 'complete')
    await expect(reply).toContainText('The draft is ready.')

    await expect(emailDraft).toContainText('E-mail draft')
    await expect(emailDraft).toContainText('Not sent.')
    const to = emailDraft.getByLabel('To')
    const subject = emailDraft.getByLabel('Subject')
    const body = emailDraft.getByLabel('Message')
    await expect(to).toHaveValue('ada@example.com')
    await expect(subject).toHaveValue('Lunch & plans')
    await expect(body).toHaveValue(args.body)
    const open = emailDraft.getByRole('link', { name: 'Open in mail app' })
    await expect(open).toHaveAttribute('href', 'mailto:ada@example.com?subject=Lunch%20%26%20plans&body=Hi%20Ada%2C%0D%0A%0D%0ALunch%20on%20Friday%3F%0D%0A%0D%0ABob')

    await to.fill('ada@example.com, bob@example.com')
    await subject.fill('Friday? 100% yes #lunch')
    await body.fill('See you at 12.')
    await expect(open).toHaveAttribute('href', 'mailto:ada@example.com,bob@example.com?subject=Friday%3F%20100%25%20yes%20%23lunch&body=See%20you%20at%2012.')

    // On a phone the card fits the width: nothing sticks out sideways.
    const box = await emailDraft.boundingBox()
    expect(box!.x).toBeGreaterThanOrEqual(0)
    expect(box!.x + box!.width).toBeLessThanOrEqual(390)
    await expectNoSeriousAxeFindings(page, 'e-mail draft')

    await emailDraft.getByRole('button', { name: 'Copy draft' }).click()
    await expect(page.getByText('Draft copied to the clipboard')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      'To: ada@example.com, bob@example.com\nSubject: Friday? 100% yes #lunch\n\nSee you at 12.',
    )
    // The server never sent it: the SMTP sink got nothing for either address.
    for (const to of ['ada@example.com', 'bob@example.com']) expect(await mailsTo(to)).toEqual([])

  })

  test("an answer's citation of an attached file shows the cited passage", async ({ page }) => {
    await chatWithNotes(page)
    const chat = chatPage(page)
    const { reply, content, card } = toolCards(page)
    await chat.write(
      '[[fake:tool=source_query:{"query":"maintenance budget"}]] ' +
        '[[fake:after-tool=The budget is 40,000 euros (notes.txt, chunk 1). Costs (see above) are yearly.]] What is the budget?',
    )
    await expect(reply).toHaveAttribute('data-status', 'complete')

    const files = card('source_query')
    await expect(files).toContainText('Search in files')
    await expect(files).toContainText('“maintenance budget”')
    await files.getByRole('button', { name: /Search in files/ }).click()
    await expect(files).toContainText('notes.txt')
    await expect(files).toContainText('chunk 1')
    await expect(files).toContainText('40,000 euros')

    // The citation opens the passage; text that only looks like one stays text.
    const citation = content.getByRole('button', { name: 'Show the cited passage (notes.txt, chunk 1)' })
    await expect(citation).toHaveText('(notes.txt, chunk 1)')
    await expect(content.getByRole('button', { name: /see above/ })).toHaveCount(0)
    await citation.click()
    const passage = page.getByTestId('citation-passage')
    await expect(passage).toBeVisible()
    await expect(passage).toContainText('notes.txt')
    // Where in the file, in the citation's own words.
    await expect(passage).toContainText('chunk 1')
    await expect(passage).toContainText('The annual maintenance budget for the turbine is 40,000 euros.')
    await expect(citation).toHaveAttribute('aria-expanded', 'true')
    await expectNoSeriousAxeFindings(page, 'citation')
    await page.keyboard.press('Escape')
    await expect(passage).toBeHidden()

    // A mouse resting on the citation shows the passage too, and leaving hides it.
    await page.mouse.move(0, 0)
    await citation.hover()
    await expect(passage).toBeVisible()
    await page.mouse.move(0, 0)
    await expect(passage).toBeHidden()

    // A click on the passage the mouse opened keeps it open, also when the mouse leaves.
    await citation.hover()
    await expect(passage).toBeVisible()
    await citation.click()
    await expect(citation).toHaveAttribute('aria-expanded', 'true')
    await page.mouse.move(0, 0)
    await expect(passage).toBeVisible()
    await expect(citation).toHaveAttribute('aria-expanded', 'true')
    await page.keyboard.press('Escape')
    await expect(passage).toBeHidden()
  })

  test('a citation hovered and clicked before its popover\'s code has arrived opens its passage once, and keeps it open', async ({ page }) => {
    const id = await chatWithNotes(page)
    const chat = chatPage(page)
    const { reply, content } = toolCards(page)
    await chat.write('[[fake:tool=source_query:{"query":"maintenance budget"}]] [[fake:after-tool=The budget is 40,000 euros (notes.txt, chunk 1).]] What is the budget?')
    await expect(reply).toHaveAttribute('data-status', 'complete')

    // Opened afresh: the popover's code has not been fetched yet, and every script waits until the test lets it go.
    await page.goto('about:blank')
    await page.goto(`/chats/${id}`)
    await waitForHydration(page)
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const asked: string[] = []
    await page.route('**/build/*.js', async (route) => {
      asked.push(route.request().url())
      await held
      await route.continue()
    })
    const citation = content.getByRole('button', { name: 'Show the cited passage (notes.txt, chunk 1)' })
    const passage = page.getByTestId('citation-passage')
    // How often the passage is put on the page.
    await page.evaluate(() => {
      const w = window as unknown as { passages: number }
      w.passages = 0
      new MutationObserver((records) => {
        for (const r of records)
          for (const node of r.addedNodes)
            if (node instanceof Element && (node.matches('[data-testid="citation-passage"]') || node.querySelector('[data-testid="citation-passage"]'))) w.passages++
      }).observe(document.body, { subtree: true, childList: true })
    })
    // The mouse rests on the citation well past the 250 ms that open it, then clicks: both while its code is on its way.
    await citation.hover()
    await expect.poll(() => asked.some((url) => new URL(url).pathname === `/build/${popoverChunk()}`)).toBe(true)
    await page.waitForTimeout(1000)
    await citation.click()
    release()
    await expect(passage).toBeVisible()
    await expect(passage).toContainText('The annual maintenance budget for the turbine is 40,000 euros.')
    await expect(citation).toHaveAttribute('aria-expanded', 'true')
    // Opened by the resting mouse, it left the focus on the citation (a click alone would have moved it into the passage).
    await expect(citation).toBeFocused()
    expect(await page.evaluate(() => (window as unknown as { passages: number }).passages)).toBe(1)
    // Clicked, it stays open when the mouse leaves.
    await page.mouse.move(0, 0)
    await page.waitForTimeout(400)
    await expect(passage).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(passage).toBeHidden()
  })
})
