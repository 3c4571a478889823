/**
 * The pages' Content-Security-Policy in Chromium: the inline scripts the server writes run (they
 * carry the request's nonce), a script the page did not bring is refused, and the violation
 * reaches the check every browser test runs (tests/e2e/support/test.ts).
 */
import type { Page } from '@playwright/test'
import { waitForHydration } from '../e2e/support/session'
import { expect, test } from '../e2e/support/test'

/** Adds an inline script without the nonce, as injected markup would; true when it ran. */
const injectScript = (page: Page) =>
  page.evaluate(() => {
    const script = document.createElement('script')
    script.textContent = 'window.__injected = true'
    document.head.append(script)
    return (window as unknown as { __injected?: boolean }).__injected === true
  })

test('an inline script without the nonce is refused and reported, in the test’s own context and in one it opens', async ({ page, browser, cspViolations }) => {
  const other = await browser.newContext()
  try {
    for (const p of [page, await other.newPage()]) {
      await p.goto('/login')
      await waitForHydration(p)
      expect(await injectScript(p)).toBe(false)
    }
    await expect.poll(() => cspViolations.length).toBe(2)
    for (const violation of cspViolations) expect(violation).toMatchObject({ page: '/login', directive: 'script-src-elem', blocked: 'inline' })
  } finally {
    await other.close()
  }
  // Provoked on purpose: emptied, so that the check at the end of the test passes.
  cspViolations.length = 0
})

test('the server’s inline scripts run before the app’s own: the theme before first paint and the router’s data', async ({ page }) => {
  // Without Kontor's script files only the inline scripts of the HTML can run.
  await page.route('**/build/*.js', (route) => route.abort())
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'))
  await page.goto('/login')
  await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  expect(await page.evaluate(() => typeof (window as unknown as { $_TSR?: unknown }).$_TSR)).toBe('object')
})

test('every page load has its own nonce, which the page’s scripts carry and the policy names', async ({ page }) => {
  const nonces = []
  for (let i = 0; i < 2; i++) {
    const response = await page.goto('/login')
    const policy = (await response!.headerValue('content-security-policy')) ?? ''
    const nonce = policy.match(/'nonce-([^']+)'/)?.[1]
    expect(nonce).toBeTruthy()
    // Browsers hide a parsed nonce attribute; the property keeps it.
    const scriptNonces = await page.evaluate(() => [...document.scripts].map((s) => s.nonce))
    expect(scriptNonces.length).toBeGreaterThan(0)
    expect(new Set(scriptNonces)).toEqual(new Set([nonce]))
    nonces.push(nonce)
  }
  expect(nonces[0]).not.toBe(nonces[1])
})
