import type { Page } from '@playwright/test'
import { expect, test } from './support/test'
import { readFileSync } from 'node:fs'
import { buildDir, chunksHolding } from './support/build'
import { chatPage, enableModels, seedMessages, startChat } from './support/chat'
import { signUpAndSignIn, waitForHydration } from './support/session'

/** What the build wrote for the server: each route's chunks, the strings' chunks, what loads after hydration. */
const manifest = JSON.parse(readFileSync(`${buildDir}/manifest.json`, 'utf8')) as {
  js: string
  routes: Record<string, string[]>
  locales: Record<string, string[]>
  errorLocales: Record<string, string[]>
  appLocales: Record<string, string[]>
  manageLocales: Record<string, string[]>
  afterHydration: string[]
  /** The code highlighter's own chunks (among afterHydration). */
  highlighter: string[]
}
/** The chunks of the strings of the language the page is in (and only those). */
const stringsOf = (html: string) => manifest.locales[/<html[^>]*\blang="(\w+)"/.exec(html)![1]!]!

/** Whether React has hydrated the first element `selector` finds (it keeps its fiber on the element). */
const hydrated = (page: Page, selector: string) => page.locator(selector).first().evaluate((node) => Object.keys(node).some((key) => key.startsWith('__reactFiber')))

/** Records the /build/ scripts the page requests, and what the server-rendered page announced. */
function watchScripts(page: Page) {
  const requested = new Set<string>()
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname
    if (path.startsWith('/build/') && path.endsWith('.js')) requested.add(path)
  })
  return {
    requested,
    /** The entry script and the modulepreload links in the HTML as the server sent it. */
    announced: (html: string) =>
      new Set([
        ...[...html.matchAll(/<script\b[^>]*\bsrc="(\/build\/[^"]+\.js)"/g)].map((m) => m[1]!),
        ...[...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]!),
      ]),
  }
}

/** Keeps the node `selector` matched when the server's HTML was parsed, to check later that hydration kept it. */
async function watchHydration(page: Page, selector: string) {
  await page.addInitScript((sel) => {
    document.addEventListener('DOMContentLoaded', () => ((window as unknown as { __ssrNode?: Element | null }).__ssrNode = document.querySelector(sel)))
  }, selector)
}

const keptServerNode = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const w = window as unknown as { __ssrNode?: Element | null }
    return !!w.__ssrNode && w.__ssrNode === document.querySelector(sel) && w.__ssrNode.isConnected
  }, selector)

/** What the page writes to the console as a warning or an error (the browser's own, such as a header it cannot read, too). */
function consoleWarnings(page: Page) {
  const said: string[] = []
  page.on('console', (message) => void (['warning', 'error'].includes(message.type()) && said.push(`${message.type()}: ${message.text()}`)))
  return said
}

test('the sign-in page loads its own chunks, announced in its HTML, and none of the chat', async ({ page }) => {
  const warnings = consoleWarnings(page)
  const scripts = watchScripts(page)
  await watchHydration(page, 'form')
  const response = await page.goto('/login')
  const html = await response!.text()
  await waitForHydration(page)
  await page.waitForLoadState('networkidle')

  expect(manifest.routes['/login']?.length).toBeGreaterThan(0)
  expect(scripts.announced(html)).toEqual(new Set([manifest.js, ...stringsOf(html), ...manifest.routes['/login']!]))
  // One language's strings, not both.
  const otherLanguages = Object.values(manifest.locales).flat().filter((chunk) => !stringsOf(html).includes(chunk))
  expect(otherLanguages.length).toBeGreaterThan(0)
  for (const chunk of otherLanguages) expect(scripts.requested.has(chunk), chunk).toBe(false)
  // Everything it needed was announced: no chunk was discovered late, none of the chat was fetched.
  // Only the confirmation dialog, the second step and the error messages come later, once the page is interactive.
  const errorStrings = manifest.errorLocales[/<html[^>]*\blang="(\w+)"/.exec(html)![1]!]!
  expect(manifest.afterHydration.length).toBeGreaterThan(0)
  expect(errorStrings.length).toBeGreaterThan(0)
  for (const chunk of errorStrings) {
    expect(scripts.announced(html).has(chunk), chunk).toBe(false)
    expect(scripts.requested.has(chunk), chunk).toBe(true)
  }
  const later = [...manifest.afterHydration, ...errorStrings]
  expect(new Set([...scripts.requested].filter((chunk) => !later.includes(chunk) || scripts.announced(html).has(chunk)))).toEqual(scripts.announced(html))
  const chatOnly = [...manifest.routes['/app']!, ...manifest.routes['/app/chats/$threadId']!].filter(
    (chunk) => !manifest.routes['/login']!.includes(chunk) && !manifest.afterHydration.includes(chunk),
  )
  expect(chatOnly.length).toBeGreaterThan(0)
  for (const chunk of chatOnly) expect(scripts.requested.has(chunk), chunk).toBe(false)
  // Nor the strings of the signed-in screens, in any language.
  for (const chunk of Object.values(manifest.appLocales).flat()) expect(scripts.requested.has(chunk), chunk).toBe(false)

  // The form the server rendered is the one React hydrated (not replaced), and it works.
  expect(await keptServerNode(page, 'form')).toBe(true)
  await page.locator('form button[type="submit"]').click()
  await expect(page.locator('#email')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.locator('#email-error')).toHaveText('Email is required')
  await expect(page.locator('#password-error')).toHaveText('Password is required')
  await expect(page.locator('#email')).toBeFocused()
  // After a failed submit the fields are checked again as they change.
  await page.locator('#email').fill('ada@')
  await expect(page.locator('#email-error')).toHaveText('Please enter a valid email address')
  await page.locator('#email').fill('ada@acme.test')
  await expect(page.locator('#email-error')).toHaveCount(0)
  await expect(page.locator('#password-error')).toHaveText('Password is required')
  expect(warnings).toEqual([])
})

test('a chat opened directly hydrates the server-rendered page with its chunks announced up front', async ({ page }) => {
  await signUpAndSignIn(page)
  await enableModels(page)
  const { id } = (await (await page.request.post('/api/threads', { data: {} })).json()) as { id: string }
  await seedMessages(id, 4)

  const warnings = consoleWarnings(page)
  const scripts = watchScripts(page)
  await watchHydration(page, '#chat-composer')
  const response = await page.goto(`/chats/${id}`)
  const html = await response!.text()
  await waitForHydration(page)
  // The replies render as markdown (the list itself is drawn in the browser: it measures its rows).
  await expect(page.getByTestId('assistant-content').first().locator('strong').first()).toHaveText('markdown')
  await page.waitForLoadState('networkidle')

  // The layout's and the chat's chunks, the markdown renderer among them, were announced; nothing else was fetched.
  const announced = scripts.announced(html)
  const lang = /<html[^>]*\blang="(\w+)"/.exec(html)![1]!
  const appStrings = manifest.appLocales[lang]!
  expect(appStrings.length).toBeGreaterThan(0)
  for (const chunk of [...stringsOf(html), ...manifest.errorLocales[lang]!, ...appStrings, ...manifest.routes['/app']!, ...manifest.routes['/app/chats/$threadId']!])
    expect(announced.has(chunk), chunk).toBe(true)
  for (const chunk of scripts.requested) expect(announced.has(chunk) || manifest.afterHydration.includes(chunk), chunk).toBe(true)
  // The settings and administration screens' strings are not among them.
  expect(manifest.manageLocales[lang]!.length).toBeGreaterThan(0)
  for (const chunk of manifest.manageLocales[lang]!) expect(scripts.requested.has(chunk), chunk).toBe(false)
  // The composer the server rendered is the one React hydrated: no pending view replaced the page.
  expect(await keptServerNode(page, '#chat-composer')).toBe(true)
  expect(warnings).toEqual([])
})

/** A new member's chat of two replies: to `first`, then one with a fenced block of TypeScript; its id, the page left for a blank one. */
async function chatEndingWithCode(page: Page, first: string) {
  await signUpAndSignIn(page)
  await enableModels(page)
  const chat = await startChat(page)
  await chat.write(first)
  await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
  await chat.write('Code:\n\n```ts\nconst answer = 42\n```')
  await expect(chat.replies).toHaveCount(2)
  await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
  const id = await chat.threadId()
  // Nothing of this page is still loading when the next one is watched.
  await page.goto('about:blank')
  return id
}

test('a chat with code opened directly: the server highlights it, and hydrating keeps that HTML until the highlighter has loaded', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  // A reply without code first, then one with code.
  const id = await chatEndingWithCode(page, 'Some **bold** words.')

  // The chunks the page loads once it is interactive and did not announce (the highlighter's among them) wait until the test lets them go.
  const errors: string[] = []
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
  page.on('pageerror', (error) => errors.push(error.message))
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  let announced!: Set<string>
  let read!: () => void
  const htmlRead = new Promise<void>((resolve) => (read = resolve))
  const heldBack: string[] = []
  await page.route('**/build/*.js', async (route) => {
    const path = new URL(route.request().url()).pathname
    await htmlRead
    if (manifest.afterHydration.includes(path) && !announced.has(path)) {
      heldBack.push(path)
      await held
    }
    await route.continue()
  })
  const scripts = watchScripts(page)
  const code = '[data-testid="code-block"] .hljs-keyword'
  await watchHydration(page, code)
  const response = await page.goto(`/chats/${id}`, { waitUntil: 'commit' })
  const html = await response!.text()
  announced = scripts.announced(html)
  read()

  // The server sent the code highlighted.
  expect(html).toContain('hljs-keyword')
  // The page hydrates around the reply with code, which keeps the server's HTML while the highlighter is held back:
  // the reply without code is hydrated (the markdown renderer has arrived), the one with code is not.
  await expect.poll(() => hydrated(page, '#chat-composer')).toBe(true)
  await expect.poll(() => hydrated(page, '[data-testid="assistant-content"] strong')).toBe(true)
  await expect.poll(() => heldBack.filter((chunk) => manifest.highlighter.includes(chunk)).length).toBeGreaterThan(0)
  const copy = page.getByTestId('code-block').getByRole('button', { name: 'Copy code' })
  expect(await hydrated(page, '[data-testid="code-block"] button')).toBe(false)
  await expect(page.locator(code)).toHaveText('const')

  release()
  await waitForHydration(page)
  // The highlighted code the server sent is the code React hydrated: nothing was rendered again, nothing mismatched.
  expect(await keptServerNode(page, code)).toBe(true)
  await copy.click()
  await expect(page.getByTestId('code-block').getByText('Copied')).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('const answer = 42')
  expect(errors).toEqual([])
})

test('Copy code pressed before the page\'s script has loaded copies once the reply with the code has hydrated (decision 0134)', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const id = await chatEndingWithCode(page, 'Some **bold** words.')
  // The entry and the highlighter's chunks wait until the test lets each go: the reply with code hydrates only after both.
  let releaseEntry!: () => void
  const entryHeld = new Promise<void>((resolve) => (releaseEntry = resolve))
  let releaseHighlighter!: () => void
  const highlighterHeld = new Promise<void>((resolve) => (releaseHighlighter = resolve))
  const heldBack: string[] = []
  await page.route('**/build/*.js', async (route) => {
    const path = new URL(route.request().url()).pathname
    if (path === manifest.js) await entryHeld
    if (manifest.highlighter.includes(path)) {
      heldBack.push(path)
      await highlighterHeld
    }
    await route.continue()
  })
  await page.goto(`/chats/${id}`, { waitUntil: 'commit' })
  const block = page.getByTestId('code-block')
  await block.getByRole('button', { name: 'Copy code' }).click()
  await expect(page.locator('html')).toHaveAttribute('data-early-click', '')
  releaseEntry()
  // The page hydrates around the reply with code, which waits for the highlighter: the click waits with it.
  await expect.poll(() => hydrated(page, '#chat-composer')).toBe(true)
  await expect.poll(() => heldBack.length).toBeGreaterThan(0)
  expect(await hydrated(page, '[data-testid="code-block"] button')).toBe(false)
  await expect(page.locator('html')).toHaveAttribute('data-early-click', '')
  releaseHighlighter()
  await expect(block.getByText('Copied')).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('const answer = 42')
  await expect(page.locator('html')).not.toHaveAttribute('data-early-click')
})

test('a chat with math and code opened directly never shows a reply as plain text: its math appears once KaTeX and its stylesheet have both arrived', async ({ page }) => {
  const id = await chatEndingWithCode(page, 'Math: $$a^2 + b^2 = c^2$$')
  const chat = chatPage(page)

  // From the first byte on: whether a reply ever showed its markdown's plain text (what it shows
  // while its renderer suspends), and whether KaTeX's stylesheet had loaded when math appeared.
  await page.addInitScript(() => {
    const w = window as unknown as { plainShown: boolean; mathBeforeStylesheet: boolean }
    w.plainShown = false
    w.mathBeforeStylesheet = false
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="assistant-message"] [data-markdown-pending]')) w.plainShown = true
      const katexSheet = [...document.styleSheets].some((sheet) => sheet.href?.includes('katex'))
      if (document.querySelector('[data-testid="assistant-message"] .katex') && !katexSheet) w.mathBeforeStylesheet = true
    }).observe(document, { subtree: true, childList: true, attributes: true })
  })
  await page.goto(`/chats/${id}`)
  await waitForHydration(page)
  await expect(chat.replies.first().locator('.katex').first()).toBeVisible()
  await expect(page.getByTestId('code-block').locator('.hljs-keyword')).toHaveText('const')
  const seen = await page.evaluate(() => {
    const w = window as unknown as { plainShown: boolean; mathBeforeStylesheet: boolean }
    return { plainShown: w.plainShown, mathBeforeStylesheet: w.mathBeforeStylesheet }
  })
  expect(seen).toEqual({ plainShown: false, mathBeforeStylesheet: false })
})

test("a chat opened from another page is shown once the replies' renderer has arrived, never with a reply as plain text", async ({ page }) => {
  const id = await chatEndingWithCode(page, 'Some **bold** words.')
  // The markdown renderer's chunk (markdown-renderer.tsx), found by a class only it uses.
  const renderer = chunksHolding('marker:text-muted-foreground')
  expect(renderer).toHaveLength(1)
  const rendererPath = `/build/${renderer[0]}`
  const scripts = watchScripts(page)
  await page.goto('/settings/general')
  await waitForHydration(page)
  expect(scripts.requested.has(rendererPath)).toBe(false)
  // From here on the renderer's chunk waits until the test lets it go.
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(`**${rendererPath}`, async (route) => {
    await held
    await route.continue()
  })
  await page.evaluate(() => {
    const w = window as unknown as { plainShown: boolean }
    w.plainShown = false
    new MutationObserver(() => {
      if (document.querySelector('[data-markdown-pending]')) w.plainShown = true
    }).observe(document.body, { subtree: true, childList: true })
  })
  await page.getByTestId('sidebar').locator(`a[href="/chats/${id}"]`).click()
  await expect.poll(() => scripts.requested.has(rendererPath)).toBe(true)
  // While it is held, the page waits for it: the router shows the chat's skeleton after a while, not its replies as text.
  const waiting = () =>
    page.evaluate(() => ((window as unknown as { plainShown: boolean }).plainShown ? 'replies as text' : document.querySelector('[role="status"][aria-label="Loading messages…"]') ? 'skeleton' : 'nothing yet'))
  await expect.poll(waiting).not.toBe('nothing yet')
  expect(await waiting()).toBe('skeleton')
  release()
  await expect(chatPage(page).replies.first().locator('strong')).toHaveText('bold')
  expect(await page.evaluate(() => (window as unknown as { plainShown: boolean }).plainShown)).toBe(false)
})

test('on a slow network the shell stays on screen while a page loads its chunk', async ({ page }) => {
  test.setTimeout(120_000) // every chunk is held back 1.5 s on purpose
  await signUpAndSignIn(page)
  await page.goto('/chat')
  await waitForHydration(page)
  // From here on every script arrives 1.5 s late: longer than the router waits before it shows a pending view.
  await page.route('**/build/*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500))
    await route.continue()
  })
  const sidebar = page.getByTestId('sidebar')
  for (const [link, heading] of [
    ['Agents', 'Agents'],
    ['Admin Settings', 'Members'],
  ] as const) {
    await sidebar.getByRole('link', { name: link }).click()
    // Until the page is there, the sidebar never leaves the screen.
    const target = page.getByRole('heading', { name: heading, exact: true })
    while (!(await target.isVisible())) {
      expect(await sidebar.isVisible(), `the shell went away while ${link} loaded`).toBe(true)
      await page.waitForTimeout(50)
    }
  }
  await page.getByRole('link', { name: 'Models' }).click()
  const models = page.getByRole('heading', { name: 'Providers', exact: true })
  while (!(await models.isVisible())) {
    expect(await sidebar.isVisible(), 'the shell went away while Models loaded').toBe(true)
    await page.waitForTimeout(50)
  }
})
