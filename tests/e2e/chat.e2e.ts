import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './support/test'
import { chatPage, enableModels, llmRequests, releaseHeldReplies, seedMessages, startChat, words } from './support/chat'
import { signUpAndSignIn, waitForHydration } from './support/session'

type ThreadDetail = { title: string | null; messages: Array<{ role: string; content: string; status: string }> }
const readThread = async (page: Page, id: string) => (await (await page.request.get(`/api/threads/${id}`)).json()) as ThreadDetail

test.describe('chat', () => {
  // Each test signs up a new organisation and waits for whole replies.
  test.describe.configure({ timeout: 120_000 })

  test('a new chat streams its reply, gets a title in the sidebar, survives a reload and is deleted through the sidebar', async ({ page }) => {
    await signUpAndSignIn(page)
    await enableModels(page)
    const chat = await startChat(page)
    await expect(page.getByRole('heading', { name: 'Hello, Ada' })).toBeVisible()
    await expect(chat.modelPicker).toContainText('GPT-4.1')

    // Every length the reply shows, recorded in the page as it changes.
    await page.evaluate(() => {
      const seen: number[] = []
      ;(window as { replyLengths?: number[] }).replyLengths = seen
      new MutationObserver(() => {
        const reply = [...document.querySelectorAll('[data-testid=assistant-message]')].at(-1)
        const length = reply?.querySelector('[data-testid=assistant-content]')?.textContent?.length ?? 0
        if (reply?.getAttribute('data-status') === 'streaming' && length > 0 && seen.at(-1) !== length) seen.push(length)
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true })
    })
    await chat.write(`[[fake:delay=100]] ${words(30)}`)
    const id = await chat.threadId()
    await expect(chat.userMessages).toHaveCount(1)
    // The new chat is at the top of the sidebar at once, before it has a title.
    await expect(chat.sidebar.locator(`a[href="/chats/${id}"]`)).toBeVisible()
    await expect(chat.lastReply).toHaveAttribute('data-status', 'complete', { timeout: 15_000 })

    // The reply grew delta by delta, not all at once (a busy browser paints fewer of the 30 steps,
    // so only "several" is asked for).
    const lengths = await page.evaluate(() => (window as { replyLengths?: number[] }).replyLengths ?? [])
    expect(lengths.length).toBeGreaterThanOrEqual(3)
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b))
    await expect(chat.lastReply.getByTestId('assistant-content')).toHaveText(`You said: ${words(30)}`)

    // The title arrives on the stream and reaches the header and the sidebar without a reload.
    const thread = await readThread(page, id)
    expect(thread.title).toBeTruthy()
    await expect(chat.title).toHaveText(thread.title!)
    await expect(chat.sidebar.getByRole('link', { name: thread.title!, exact: true })).toBeVisible()
    await expect(chat.sidebar.getByText('Today')).toBeVisible()
    // Sent exactly once.
    expect(thread.messages.map((m) => m.role)).toEqual(['user', 'assistant'])

    await page.reload()
    await waitForHydration(page)
    await expect(chat.userMessages).toHaveCount(1)
    await expect(chat.lastReply).toContainText('word30')
    await expect(chat.title).toHaveText(thread.title!)

    await chat.sidebar.getByRole('link', { name: thread.title!, exact: true }).hover()
    await chat.sidebar.getByRole('button', { name: `Chat actions: ${thread.title}` }).click()
    await page.getByRole('menu').getByRole('menuitem', { name: 'Delete' }).click()
    const dialog = page.getByRole('alertdialog')
    await expect(dialog).toContainText('Delete this chat?')
    await dialog.getByRole('button', { name: 'Delete chat' }).click()
    await expect(page).toHaveURL(/\/chat$/)
    await expect(chat.sidebar.locator(`a[href="/chats/${id}"]`)).toHaveCount(0)
    await expect(chat.sidebar.getByText('Your chats will be listed here.')).toBeVisible()
    expect((await page.request.get(`/api/threads/${id}`)).status()).toBe(404)
  })

  test('Stop during a slow reply keeps the partial text, marked stopped', async ({ page }) => {
    await signUpAndSignIn(page)
    await enableModels(page)
    const chat = await startChat(page)
    // Far longer than the test (96 s): still streaming whenever Stop is reached.
    await chat.write(`[[fake:delay=120]] ${words(800)}`)
    const id = await chat.threadId()
    await expect(chat.lastReply).toContainText('word3')
    await expect(chat.composer).toBeEditable()
    await chat.stop.click()

    await expect(chat.lastReply).toHaveAttribute('data-status', 'stopped')
    await expect(chat.lastReply.getByText('Stopped', { exact: true })).toBeVisible()
    await expect(chat.lastReply).not.toContainText('word800')
    await expect(chat.send).toBeVisible()
    await expect.poll(async () => (await readThread(page, id)).messages.at(-1)?.status).toBe('stopped')

    await page.reload()
    await expect(chat.lastReply).toHaveAttribute('data-status', 'stopped')
    await expect(chat.lastReply).toContainText('word3')
    await expect(chat.lastReply.getByText('Stopped', { exact: true })).toBeVisible()
  })

  test('a reply goes on through a reload, which follows it to its end; Stop works from a second tab', async ({ page, context }) => {
    await signUpAndSignIn(page)
    await enableModels(page)
    const chat = await startChat(page)
    // The provider holds the reply after its first network chunk until the page has reloaded.
    await chat.write(`[[fake:hold]] [[fake:burst=4]] [[fake:delay=40]] ${words(70)}`)
    const id = await chat.threadId()
    await expect(chat.lastReply).toContainText('You said')
    await page.reload()
    await waitForHydration(page)
    // The reloaded page attaches to the reply where it was: it can be stopped here, and it grows
    // to its end without a gap or a repeat; the first message was neither lost nor sent again.
    await expect(chat.stop).toBeVisible()
    await expect(chat.lastReply).toHaveAttribute('data-status', 'streaming')
    await releaseHeldReplies()
    await expect(chat.lastReply).toHaveAttribute('data-status', 'complete', { timeout: 15_000 })
    await expect(chat.lastReply.getByTestId('assistant-content')).toHaveText(`You said: ${words(70)}`)
    await expect(chat.userMessages).toHaveCount(1)
    expect((await readThread(page, id)).messages.map((m) => m.role)).toEqual(['user', 'assistant'])

    // Far longer than the test (60 s): still streaming when the second tab stops it.
    await chat.write(`[[fake:delay=100]] ${words(600)}`)
    await expect(chat.lastReply).toContainText('word2')
    const other = await context.newPage()
    await other.goto(`/chats/${id}`)
    await waitForHydration(other)
    const second = chatPage(other)
    await second.stop.click()
    await expect(second.lastReply).toHaveAttribute('data-status', 'stopped')
    await expect(chat.lastReply).toHaveAttribute('data-status', 'stopped')
    await expect(chat.send).toBeVisible()
    expect((await readThread(page, id)).messages.at(-1)?.status).toBe('stopped')
  })

  test("a failed reply shows the provider's error, and Retry brings a reply", async ({ page }) => {
    await signUpAndSignIn(page)
    await enableModels(page)
    const chat = await startChat(page)
    // The gateway retries a 500 twice: three failures make the reply fail, the fourth request works.
    await chat.write('[[fake:error=500]] [[fake:times=3]] Are you there?')
    await expect(chat.lastReply).toHaveAttribute('data-status', 'failed', { timeout: 15_000 })
    await expect(chat.lastReply.getByRole('alert')).toContainText('Error fetching response')
    // …and in plain words what happened and what to do.
    await expect(chat.lastReply.getByRole('alert')).toContainText('the model provider could not be reached or had a fault on its side')

    await chat.lastReply.getByRole('button', { name: 'Retry' }).click()
    await expect(chat.lastReply).toHaveAttribute('data-status', 'complete', { timeout: 15_000 })
    await expect(chat.lastReply).toContainText('You said: Are you there?')
    await expect(chat.replies).toHaveCount(1)
    await expect(chat.lastReply.getByRole('alert')).toHaveCount(0)
  })

  test('the last message can be edited and resent, and the last reply regenerated', async ({ page }) => {
    await signUpAndSignIn(page)
    await enableModels(page)
    const chat = await startChat(page)
    await chat.write('First question')
    const id = await chat.threadId()
    await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')

    await chat.userMessages.last().hover()
    await page.getByRole('button', { name: 'Edit message' }).click()
    const editor = page.getByRole('textbox', { name: 'Edit your message' })
    await expect(editor).toHaveValue('First question')
    await editor.press('Escape')
    await expect(editor).toHaveCount(0)
    await page.getByRole('button', { name: 'Edit message' }).click()
    await editor.fill('Second question')
    await editor.press('Enter')

    await expect(chat.lastReply).toContainText('You said: Second question')
    await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
    await expect(chat.userMessages).toHaveCount(1)
    await expect(chat.userMessages.first()).toHaveText(/Second question/)
    await expect(page.getByTestId('message-scroller').getByText('First question')).toHaveCount(0)
    expect((await readThread(page, id)).messages.map((m) => m.content)).toEqual(['Second question', 'You said: Second question'])

    await chat.lastReply.getByRole('button', { name: 'Regenerate reply' }).click()
    await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
    await expect(chat.replies).toHaveCount(1)
    await expect(chat.lastReply).toContainText('You said: Second question')
  })

  test('Enter sends, Shift+Enter breaks the line, an overlong message is held back, and a reply is copied', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await signUpAndSignIn(page)
    await enableModels(page)
    const chat = await startChat(page)
    // Messages are at most 32,000 characters: a longer one says so and is not sent, not even by Enter.
    await chat.composer.fill('x'.repeat(32_001))
    await expect(page.getByText('32001 of 32000 characters — please shorten your message.')).toBeVisible()
    await expect(chat.composer).toHaveAttribute('aria-invalid', 'true')
    await expect(chat.send).toBeDisabled()
    await chat.composer.press('Enter')
    await expect(page).toHaveURL(/\/chat$/)
    await expect(chat.composer).toHaveValue('x'.repeat(32_001))
    // Shift+Enter breaks the line, Enter sends.
    await chat.composer.fill('Copy me')
    await chat.composer.press('Shift+Enter')
    await chat.composer.pressSequentially('please')
    await expect(chat.composer).toHaveValue('Copy me\nplease')
    await chat.composer.press('Enter')
    await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
    await chat.lastReply.getByRole('button', { name: 'Copy', exact: true }).click()
    await expect(page.getByText('Copied to clipboard')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('You said: Copy me\nplease')
  })

  test('replies render markdown (tables, highlighted code, math) and never run or load what the model wrote', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await signUpAndSignIn(page)
    await enableModels(page)
    const external: string[] = []
    page.on('request', (r) => !r.url().startsWith('http://localhost') && external.push(r.url()))
    page.on('dialog', (d) => void d.dismiss())
    const chat = await startChat(page)
    await chat.composer.fill(
      [
        'Here is a table:',
        '',
        '| Name | Seats |',
        '| --- | --- |',
        '| Acme | 12 |',
        '',
        '```js',
        'const answer = 42',
        '```',
        '',
        '<script>window.__pwned = true</script>',
        '',
        '<img src="https://example.com/x.png" onerror="window.__pwned = true">',
        '',
        '![tracking pixel](https://example.com/pixel.png) and [a bad link](javascript:alert(1))',
        '',
        'Einstein: $$E = mc^2$$',
      ].join('\n'),
    )
    await chat.composer.press('Enter')
    await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
    const reply = chat.lastReply.getByTestId('assistant-content')

    await expect(reply.locator('table')).toBeVisible()
    await expect(reply.locator('td').first()).toHaveText('Acme')
    const code = reply.getByTestId('code-block')
    await expect(code).toContainText('const answer = 42')
    await expect(code.locator('.hljs-keyword')).toHaveText('const')
    await code.getByRole('button', { name: 'Copy code' }).click()
    await expect(code.getByText('Copied')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('const answer = 42')
    await expect(reply.locator('.katex').first()).toBeVisible()

    await expect(reply).toContainText('<script>window.__pwned = true</script>')
    await expect(reply.locator('script, img, iframe')).toHaveCount(0)
    await expect(reply.getByRole('link', { name: 'Image: tracking pixel' })).toHaveAttribute('rel', 'noopener noreferrer nofollow')
    await expect(reply.getByText('a bad link')).toBeVisible()
    await expect(reply.locator('a[href^="javascript"]')).toHaveCount(0)
    expect(await page.evaluate(() => (window as { __pwned?: boolean }).__pwned)).toBeUndefined()
    expect(external).toEqual([])

    const results = await new AxeBuilder({ page }).analyze()
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([])
  })

  test('without a permitted model the chat says "No model found"; a chat whose model went away can pick another', async ({ page }) => {
    await signUpAndSignIn(page)
    let chat = await startChat(page)
    await expect(chat.modelPicker).toContainText('No model found')
    await expect(page.getByRole('link', { name: 'Open model settings' })).toBeVisible()
    await chat.composer.fill('Hello?')
    await expect(chat.send).toBeDisabled()

    const [gpt, mini] = await enableModels(page, ['openai/gpt-4.1', 'openai/gpt-4.1-mini'])
    const created = await page.request.post('/api/threads', { data: { modelId: gpt!.id } })
    const { id } = (await created.json()) as { id: string }
    expect((await page.request.delete(`/api/models/permitted/${gpt!.id}`)).status()).toBe(204)

    await page.goto(`/chats/${id}`)
    await waitForHydration(page)
    chat = chatPage(page)
    await expect(chat.modelPicker).toContainText('No model found')
    await expect(page.getByText('Choose a model above to continue.')).toBeVisible()
    await chat.modelPicker.click()
    await page.getByRole('menuitemradio', { name: new RegExp(mini!.displayName) }).click()
    await expect(chat.modelPicker).toContainText(mini!.displayName)
    await chat.write('Hello again')
    await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
    await expect(chat.lastReply).toContainText('You said: Hello again')
  })

  test('a message that cannot be sent comes back into the field with a clear error', async ({ page }) => {
    await signUpAndSignIn(page)
    await enableModels(page)
    const chat = await startChat(page)
    await page.route('**/api/threads/*/messages', (route) => route.abort('failed'))
    await chat.write('Lost in the network?')
    await chat.threadId()
    await expect(page.getByText('Message could not be sent. Please refresh the page and try again.')).toBeVisible()
    await expect(chat.composer).toHaveValue('Lost in the network?')
    await expect(chat.userMessages).toHaveCount(0)

    await page.unroute('**/api/threads/*/messages')
    await chat.composer.press('Enter')
    await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
    await expect(chat.userMessages).toHaveCount(1)
  })

  test('an open chat shows its newest messages, the last one on screen, before the page\'s scripts have run', async ({ page }) => {
    await signUpAndSignIn(page)
    await enableModels(page)
    const created = await page.request.post('/api/threads', { data: {} })
    const { id } = (await created.json()) as { id: string }
    await seedMessages(id, 60)
    // The browser never gets the app's script: what shows is the server's page (and its inline scripts).
    await page.route('**/build/entry-client-*.js', (route) => route.abort())
    await page.goto(`/chats/${id}`)
    await expect(page.getByText(/^Reply 60:/)).toBeInViewport()
    await expect(page.getByText('Message 59', { exact: true })).toBeVisible()
    // Only the newest messages are rendered as text, in flow; the list is virtualised once hydrated.
    await expect(page.locator('[data-testid=assistant-message]')).toHaveCount(4)
    await expect(page.getByText('Message 51', { exact: true })).toHaveCount(0)
  })

  test('a chat of 1,000 messages renders only what is on screen and scrolls to its start', async ({ page }) => {
    // Seeds 1,000 messages and scrolls up through ten pages of them: longer than most tests.
    test.setTimeout(180_000)
    await signUpAndSignIn(page)
    await enableModels(page)
    const created = await page.request.post('/api/threads', { data: {} })
    const { id } = (await created.json()) as { id: string }
    await seedMessages(id, 1000)

    // The page carries the newest messages only, not the whole chat.
    const html = await (await page.request.get(`/chats/${id}`)).text()
    expect(html).toContain('Message 999')
    expect(html).not.toContain('Message 11"')
    await page.goto(`/chats/${id}`)
    await waitForHydration(page)
    const rendered = page.locator('[data-testid=user-message], [data-testid=assistant-message]')
    await expect(page.getByText('Message 999', { exact: true })).toBeVisible()
    await expect(page.getByText(/^Reply 1000:/)).toBeInViewport()
    expect(await rendered.count()).toBeLessThan(40)

    // Scrolling up loads the older messages a page at a time, keeping the view in place.
    const scroller = page.getByTestId('message-scroller')
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }))
    await expect(page.getByText('Message 951', { exact: true })).toBeVisible()
    await expect(page.getByText('Message 901', { exact: true })).not.toBeVisible()
    await expect
      .poll(
        async () => {
          await scroller.evaluate((el) => el.scrollTo({ top: 0 }))
          return page.getByText('Message 1', { exact: true }).isVisible()
        },
        // Nineteen more pages, each fetched when the view reaches the top: on a loaded machine that takes a while.
        { timeout: 120_000, intervals: [250] },
      )
      .toBe(true)
    // The last page put in front moved the view down by its height: back to the start.
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }))
    await expect(page.getByText('Message 1', { exact: true })).toBeInViewport()
    expect(await rendered.count()).toBeLessThan(40)
    await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeVisible()
    await page.getByRole('button', { name: 'Jump to latest' }).click()
    await expect(page.getByText(/^Reply 1000:/)).toBeInViewport()

    // A message sent after scrolling through the older pages follows at the bottom; the older
    // messages stay loaded.
    const olderPages: string[] = []
    page.on('request', (request) => request.url().includes('/messages?before=') && olderPages.push(request.url()))
    const chat = chatPage(page)
    await chat.write('One more question')
    await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
    await expect(chat.lastReply).toBeInViewport()
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }))
    await expect(page.getByText('Message 1', { exact: true })).toBeInViewport()
    expect(olderPages).toEqual([])
  })

  test('the reply is followed to the bottom until the user scrolls up; "Jump to latest" brings it back', async ({ page }) => {
    await signUpAndSignIn(page)
    await enableModels(page)
    const { id } = (await (await page.request.post('/api/threads', { data: {} })).json()) as { id: string }
    await seedMessages(id, 30)
    await page.goto(`/chats/${id}`)
    await waitForHydration(page)
    const chat = chatPage(page)
    const scroller = page.getByTestId('message-scroller')
    const distanceToBottom = () => scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)

    // A reply far longer than the test (100 s): it is still streaming when stopped at the end.
    await chat.write(`[[fake:delay=50]] ${words(2000)}`)
    await expect(chat.lastReply).toContainText('word20')
    expect(await distanceToBottom()).toBeLessThan(60)

    await scroller.hover()
    await page.mouse.wheel(0, -800)
    await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeVisible()
    const top = await scroller.evaluate((el) => el.scrollTop)
    const length = (await chat.lastReply.innerText()).length
    await expect.poll(async () => (await chat.lastReply.innerText()).length).toBeGreaterThan(length + 40)
    // The reply grew, the view stayed where the user put it.
    expect(Math.abs((await scroller.evaluate((el) => el.scrollTop)) - top)).toBeLessThan(4)
    await expect(chat.lastReply).toHaveAttribute('data-status', 'streaming')

    await page.getByRole('button', { name: 'Jump to latest' }).click()
    await expect(page.getByRole('button', { name: 'Jump to latest' })).toHaveCount(0)
    const later = (await chat.lastReply.innerText()).length
    await expect.poll(async () => (await chat.lastReply.innerText()).length).toBeGreaterThan(later + 40)
    expect(await distanceToBottom()).toBeLessThan(60)
    await chat.stop.click()
  })

  test('a message sent while another tab is receiving a reply is refused with a clear message and kept', async ({ page, context }) => {
    await signUpAndSignIn(page)
    await enableModels(page)
    const { id } = (await (await page.request.post('/api/threads', { data: {} })).json()) as { id: string }
    const other = await context.newPage()
    await other.goto(`/chats/${id}`)
    await waitForHydration(other)
    await page.goto(`/chats/${id}`)
    await waitForHydration(page)

    const first = chatPage(page)
    // Far longer than the test (60 s): still streaming when the other tab sends and when stopped.
    await first.write(`[[fake:delay=100]] ${words(600)}`)
    await expect(first.lastReply).toContainText('word2')
    const second = chatPage(other)
    await second.write('Me too')
    await expect(other.getByText('A reply is still being written. Wait for it or stop it first.')).toBeVisible()
    await expect(second.composer).toHaveValue('Me too')
    await first.stop.click()
    await expect(first.lastReply).toHaveAttribute('data-status', 'stopped')
  })

  test('the sidebar loads older chats as it scrolls, newest first', async ({ page }) => {
    await signUpAndSignIn(page)
    await enableModels(page)
    const ids: string[] = []
    for (let i = 0; i < 34; i++) ids.push(((await (await page.request.post('/api/threads', { data: {} })).json()) as { id: string }).id)
    const chat = await startChat(page)
    const links = chat.sidebar.locator('a[href^="/chats/"]')
    await expect(links).toHaveCount(30)
    await links.last().scrollIntoViewIfNeeded()
    await expect(links).toHaveCount(34)
    const shown = (await links.evaluateAll((els) => els.map((e) => e.getAttribute('href')!.split('/').pop()!))) as string[]
    expect([...shown].sort()).toEqual([...ids].sort())
    // Newest first (chats created within the same millisecond may swap places).
    expect(ids.slice(-3)).toContain(shown[0])
    expect(ids.slice(0, 3)).toContain(shown.at(-1))
    await expect(links.first()).toHaveText('Untitled')
  })

  test('the chat header picks an agent or a model, and the reply comes from the one picked', async ({ page }) => {
    await signUpAndSignIn(page)
    const [, mini] = await enableModels(page, ['openai/gpt-4.1', 'openai/gpt-4.1-mini'])
    const created = await page.request.post('/api/agents', { data: { name: 'Pirate', instructions: 'Talk like a pirate.', modelId: mini!.id } })
    expect(created.status(), await created.text()).toBe(201)
    const pirate = (await created.json()) as { id: string }
    const chat = await startChat(page)
    const agentPicker = page.getByTestId('agent-picker')
    await expect(agentPicker).toHaveAccessibleName('Agent: No agent')
    await expect(chat.modelPicker).toContainText('GPT-4.1')

    // On /chat: the agent replaces the model picker, its model is shown beside its name.
    await agentPicker.click()
    await page.getByRole('menuitemradio', { name: /Pirate/ }).click()
    await expect(agentPicker).toContainText('Pirate')
    await expect(agentPicker).toContainText('GPT-4.1 mini')
    await expect(chat.modelPicker).toHaveCount(0)
    await expect(page.getByText('Your agent Pirate is ready. What should it do?')).toBeVisible()
    await chat.write('Ahoy from the header')
    const id = await chat.threadId()
    await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
    // The chat being shown is the highlighted one in the sidebar.
    await expect(chat.sidebar.locator(`a[href="/chats/${id}"]`)).toHaveAttribute('aria-current', 'page')
    const replyTo = async (text: string) => (await llmRequests()).find((r) => r.body?.stream && JSON.stringify(r.body.messages?.at(-1)).includes(text))
    expect((await replyTo('Ahoy from the header'))?.body?.model).toBe('gpt-4.1-mini')
    expect(JSON.stringify((await replyTo('Ahoy from the header'))?.body?.messages?.[0])).toContain('Talk like a pirate.')

    // In the chat: without the agent it goes on with the agent's model, which can now be changed.
    await agentPicker.click()
    await page.getByRole('menuitemradio', { name: /No agent/ }).click()
    await expect(agentPicker).toHaveAccessibleName('Agent: No agent')
    await expect(chat.modelPicker).toContainText('GPT-4.1 mini')
    await chat.modelPicker.click()
    await page.getByRole('menuitemradio', { name: /^GPT-4\.1 OpenAI/ }).click()
    await expect(chat.modelPicker).not.toContainText('mini')
    await chat.write('Plain question')
    await expect(chat.lastReply).toContainText('You said: Plain question')
    await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
    const plain = await replyTo('Plain question')
    expect(plain?.body?.model).toBe('gpt-4.1')
    expect(JSON.stringify(plain?.body?.messages?.[0])).not.toContain('pirate')

    // Picking the agent again is kept by the server: a reload shows it.
    await agentPicker.click()
    await page.getByRole('menuitemradio', { name: /Pirate/ }).click()
    await expect(agentPicker).toContainText('Pirate')
    await expect.poll(async () => ((await readThread(page, id)) as ThreadDetail & { agentId: string | null }).agentId).toBe(pirate.id)
    await page.reload()
    await waitForHydration(page)
    await expect(agentPicker).toContainText('Pirate')
    await expect(chat.modelPicker).toHaveCount(0)
  })

  test('/chat takes the model, the agent or the prompt it is given', async ({ page }) => {
    await signUpAndSignIn(page)
    const [, mini] = await enableModels(page, ['openai/gpt-4.1', 'openai/gpt-4.1-mini'])

    await page.goto(`/chat?modelId=${mini!.id}`)
    await waitForHydration(page)
    let chat = chatPage(page)
    await expect(chat.modelPicker).toContainText('GPT-4.1 mini')

    // A prompt without variables goes straight into the field; one with variables asks for them first.
    const plain = await page.request.post('/api/prompts', { data: { title: 'Proofread', content: 'Proofread the following text:' } })
    await page.goto(`/chat?prompt=${((await plain.json()) as { id: string }).id}`)
    await waitForHydration(page)
    await expect(chat.composer).toHaveValue('Proofread the following text:')
    const prompt = await page.request.post('/api/prompts', { data: { title: 'Summary', content: 'Summarise this for {{audience}}:' } })
    await page.goto(`/chat?prompt=${((await prompt.json()) as { id: string }).id}`)
    await waitForHydration(page)
    const variables = page.getByRole('dialog', { name: 'Summary' })
    await variables.getByLabel('audience').fill('the board')
    await variables.getByRole('button', { name: 'Insert' }).click()
    await expect(variables).toHaveCount(0)
    await expect(chat.composer).toHaveValue('Summarise this for the board:')
    await expect(chat.composer).toBeFocused()

    const agent = await page.request.post('/api/agents', {
      data: { name: 'Support writer', instructions: 'You answer politely.', modelId: mini!.id },
    })
    expect(agent.status(), await agent.text()).toBe(201)
    await page.goto(`/chat?agentId=${((await agent.json()) as { id: string }).id}`)
    await waitForHydration(page)
    chat = chatPage(page)
    await expect(page.getByTestId('agent-picker')).toContainText('Support writer')
    await chat.write('Hello agent')
    await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
    await expect(chat.lastReply).toContainText('You said: Hello agent')
    await expect(page.getByTestId('agent-picker')).toContainText('Support writer')
    const requests = await llmRequests()
    const sent = requests.find((r) => JSON.stringify(r.body?.messages ?? []).includes('Hello agent'))
    expect(sent?.body?.model).toBe('gpt-4.1-mini')
    expect(JSON.stringify(sent?.body?.messages?.[0])).toContain('You answer politely.')
  })
})
