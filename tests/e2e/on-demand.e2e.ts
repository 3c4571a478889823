import { expect, test } from './support/test'
import { signUpAndSignIn, waitForHydration } from './support/session'

// Decision 0089: menus and popovers of the chat page load on first use; tooltips never replace their trigger.

test('a tooltip shows next to its trigger without replacing it, and a press while a menu or popover loads opens it once', async ({ page }) => {
  await signUpAndSignIn(page)
  await page.goto('/chat')
  await waitForHydration(page)

  // The same element before, while and after its tooltip shows: a click in flight is never lost.
  const collapse = page.getByRole('button', { name: 'Collapse sidebar' })
  await collapse.evaluate((el) => void ((window as unknown as { trigger: Element }).trigger = el))
  await collapse.hover()
  await expect(page.getByRole('tooltip')).toHaveText('Collapse sidebar')
  await expect(collapse).toHaveAccessibleDescription('Collapse sidebar')
  expect(await collapse.evaluate((el) => el === (window as unknown as { trigger: Element }).trigger)).toBe(true)
  // The bubble can be hovered itself (WCAG 1.4.13): the pointer moves onto it and it stays.
  const bubble = (await page.getByRole('tooltip').boundingBox())!
  await page.mouse.move(bubble.x + bubble.width / 2, bubble.y + bubble.height / 2, { steps: 5 })
  await page.waitForTimeout(500)
  await expect(page.getByRole('tooltip')).toHaveText('Collapse sidebar')
  await page.mouse.move(bubble.x + bubble.width + 300, bubble.y + 300, { steps: 5 })
  await expect(page.getByRole('tooltip')).toHaveCount(0)
  await collapse.hover()
  await expect(page.getByRole('tooltip')).toHaveText('Collapse sidebar')
  await page.keyboard.press('Escape')
  await expect(page.getByRole('tooltip')).toHaveCount(0)
  await expect(collapse).not.toHaveAttribute('aria-describedby')

  // How often a trigger opened its part: once per press, however the press and the code's arrival interleave.
  await page.evaluate(() => {
    const w = window as unknown as { opened: Record<string, number> }
    w.opened = {}
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target as Element
        if (el.getAttribute('aria-expanded') === 'true' && r.oldValue !== 'true') {
          const name = el.getAttribute('aria-label') ?? ''
          w.opened[name] = (w.opened[name] ?? 0) + 1
        }
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['aria-expanded'], attributeOldValue: true })
  })
  const opened = () => page.evaluate(() => (window as unknown as { opened: Record<string, number> }).opened)

  // From here on the browser's scripts arrive only when the test lets them.
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/build/*.js', async (route) => {
    await held
    await route.continue()
  })

  // The prompts' popover (opens on click): pressed before its code arrives, released after.
  const prompts = page.getByRole('button', { name: 'Insert a saved prompt' })
  await prompts.hover()
  await page.mouse.down()
  release()
  await page.waitForLoadState('networkidle')
  await page.mouse.up()
  const popover = page.getByRole('dialog').filter({ has: page.getByRole('link', { name: 'Manage prompts' }) })
  await expect(popover).toBeVisible()
  await expect(prompts).toHaveAttribute('aria-expanded', 'true')
  await page.keyboard.press('Escape')
  await expect(popover).toHaveCount(0)
  await page.mouse.move(0, 0)

  // The collections' menu (opens on pointer down): clicked before its code arrives.
  let releaseMenu!: () => void
  const heldMenu = new Promise<void>((resolve) => (releaseMenu = resolve))
  await page.unroute('**/build/*.js')
  await page.route('**/build/*.js', async (route) => {
    await heldMenu
    await route.continue()
  })
  const collections = page.getByTestId('attach-collection')
  await collections.click()
  await expect(collections).toHaveAttribute('aria-expanded', 'false')
  releaseMenu()
  await expect(page.getByRole('menu', { name: 'Knowledge collections' })).toBeVisible()
  await expect(collections).toHaveAttribute('aria-expanded', 'true')
  await page.keyboard.press('Escape')
  await expect(collections).toHaveAttribute('aria-expanded', 'false')
  expect(await opened()).toEqual({ 'Insert a saved prompt': 1, 'Knowledge collections': 1 })
})

test('a press on a trigger whose code arrives after the user turned elsewhere opens nothing, and takes no focus', async ({ page }) => {
  await signUpAndSignIn(page)
  await page.goto('/chat')
  await waitForHydration(page)
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/build/*.js', async (route) => {
    await held
    await route.continue()
  })

  const collections = page.getByTestId('attach-collection')
  await collections.click()
  // The user types on in the message field while the menu's code is still on its way.
  const message = page.getByRole('textbox', { name: 'Message' })
  await message.click()
  await page.keyboard.type('Hafen')
  release()
  await page.waitForLoadState('networkidle')
  await expect(collections).toHaveAttribute('aria-haspopup', 'menu')
  await expect(page.getByRole('menu')).toHaveCount(0)
  await expect(message).toBeFocused()
  await expect(message).toHaveValue('Hafen')

  // Asked again, it opens.
  await collections.click()
  await expect(page.getByRole('menu', { name: 'Knowledge collections' })).toBeVisible()
})

test('a dialog whose code does not arrive leaves the page working, and opens once the code arrives', async ({ page }) => {
  await signUpAndSignIn(page)
  // Every script of the page passes through here from its first request (routing turns the
  // browser's cache off), so that what fails and what was fetched before are known.
  let failing = false
  const fetched: string[] = []
  let failed = 0
  await page.route('**/build/*.js', (route) => {
    if (!failing) {
      fetched.push(new URL(route.request().url()).pathname)
      return route.continue()
    }
    failed++
    return route.abort()
  })
  await page.goto('/chat')
  await waitForHydration(page)
  // What the page fetches by itself once hydrated (the parts it preloads) has arrived.
  await page.waitForLoadState('networkidle')
  // From here on the browser's scripts fail to arrive (offline, or an update replaced them).
  failing = true
  await page.getByRole('button', { name: 'Search chats' }).click()
  await expect.poll(() => failed, { message: `the search's code was asked for (fetched before: ${fetched.join(' ')})` }).toBeGreaterThan(0)
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeEditable()
  // Back online: the search opens by itself, as it was asked to.
  failing = false
  await expect(page.getByRole('dialog')).toBeVisible({ timeout: 20_000 })
  await expect(page.getByRole('dialog').getByRole('combobox', { name: 'Search your chats' })).toBeVisible()
})
