/**
 * The `test` every browser test imports: Playwright's, plus a check that no page broke its
 * Content-Security-Policy. Each browser context the test uses (its own and any it opens with
 * `browser.newContext()`) reports the page's `securitypolicyviolation` events as they happen;
 * a test that caused one fails when it ends. A test that provokes a violation on purpose reads
 * and empties `cspViolations`.
 */
import { test as base, expect, type BrowserContext } from '@playwright/test'

export { expect }

export type CspViolation = { page: string; directive: string; blocked: string; sample: string }

const watched = new WeakSet<BrowserContext>()

async function watchCsp(context: BrowserContext, violations: CspViolation[]) {
  if (watched.has(context)) return
  watched.add(context)
  // A binding reaches the test at once, so a violation just before a navigation or the
  // context's close is not lost with the page.
  await context.exposeBinding('__reportCspViolation', (_source, violation: CspViolation) => void violations.push(violation))
  await context.addInitScript(() => {
    const report = (window as unknown as { __reportCspViolation?: (v: unknown) => void }).__reportCspViolation
    document.addEventListener(
      'securitypolicyviolation',
      (event) =>
        report?.({ page: location.pathname, directive: event.effectiveDirective, blocked: event.blockedURI, sample: event.sample }),
      true,
    )
  })
}

export const test = base.extend<{ cspViolations: CspViolation[] }>({
  cspViolations: [
    async ({ browser }, use) => {
      const violations: CspViolation[] = []
      const newContext = browser.newContext
      browser.newContext = async function (this: typeof browser, ...args: Parameters<typeof newContext>) {
        const context = await newContext.apply(this, args)
        await watchCsp(context, violations)
        return context
      }
      try {
        await use(violations)
      } finally {
        browser.newContext = newContext
      }
      expect(violations, 'Content-Security-Policy violations').toEqual([])
    },
    { auto: true },
  ],
  context: async ({ context, cspViolations }, use) => {
    await watchCsp(context, cspViolations)
    await use(context)
  },
})
