import { expect, type Page } from '@playwright/test'

/** Meets the password rule (8+ characters, upper and lower case, digits). */
export const PASSWORD = 'Secret123'

const MAILBOX_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1}/mails`

export const uniqueEmail = () => `u-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@acme.test`

export type TestUser = { email: string; name: string; organizationName: string; password: string }

/** The confirmation token from the newest mail the SMTP sink received for `email`. */
async function confirmationToken(email: string): Promise<string> {
  let link: string | undefined
  await expect
    .poll(
      async () => {
        const mails = (await (await fetch(`${MAILBOX_URL}?to=${encodeURIComponent(email)}`)).json()) as Array<{ text: string }>
        link = mails
          .map((m) => m.text.match(/https?:\/\/\S*\/confirm-email\?\S+/)?.[0])
          .filter(Boolean)
          .at(-1)
        return Boolean(link)
      },
      { timeout: 10_000, message: `confirmation mail to ${email}` },
    )
    .toBe(true)
  return new URL(link!).searchParams.get('token')!
}

/**
 * A new organisation with `email` as its admin, confirmed and signed in in the page's browser
 * context (page.request shares the page's cookies). The account's language is the browser's, as
 * the register page would send it: signed in, pages follow the account's language. The session the registration opened is
 * kept once the address is confirmed; sign-in runs only when it is not, since sign-ins are
 * rate limited per IP and every test of the e2e run comes from 127.0.0.1.
 */
export async function signUpAndSignIn(page: Page, overrides: Partial<TestUser> = {}): Promise<TestUser> {
  const user: TestUser = {
    email: uniqueEmail(),
    name: 'Ada Lovelace',
    organizationName: 'Acme Analytics',
    password: PASSWORD,
    ...overrides,
  }
  const locale = (await page.evaluate(() => navigator.language)).startsWith('de') ? 'de' : 'en'
  const registered = await page.request.post('/api/auth/register', {
    data: { ...user, passwordConfirmation: user.password, termsAccepted: true, locale },
  })
  expect(registered.status(), await registered.text()).toBe(201)
  const confirmed = await page.request.post('/api/users/confirm-email', { data: { token: await confirmationToken(user.email) } })
  expect(confirmed.status(), await confirmed.text()).toBe(200)
  if ((await page.request.get('/api/auth/me')).status() !== 200) await signInViaApi(page, user.email, user.password)
  return user
}

export async function signInViaApi(page: Page, email: string, password: string) {
  const res = await page.request.post('/api/auth/login', { data: { email, password } })
  expect(res.status(), await res.text()).toBe(200)
}

/**
 * Resolves once React has hydrated the page, so clicks, hovers and keyboard shortcuts reach their
 * handlers: the body and every control on the page carry React's keys (the body alone is not
 * enough: a Suspense boundary that streamed in later hydrates after it, and a click there would be
 * lost), and React has committed the hydration two frames ago, so that the effects that follow
 * it have run (a shortcut's listener is added by one: a key pressed before is lost).
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const w = window as unknown as { kontorCommittedFrames?: number }
    const hydrated = (node: Element) => Object.keys(node).some((key) => key.startsWith('__reactFiber'))
    if (!(hydrated(document.body) && [...document.body.querySelectorAll('button, input, textarea, select, a[href]')].every(hydrated))) return false
    // The root React hydrates (the document): dehydrated until its first commit.
    const key = Object.keys(document).find((k) => k.startsWith('__reactContainer'))
    const root = key ? (document as unknown as Record<string, { stateNode?: { current?: { memoizedState?: { isDehydrated?: boolean } } } }>)[key]?.stateNode : undefined
    if (root?.current?.memoizedState?.isDehydrated !== false) return false
    // Polled once a frame: true two frames after the commit was first seen.
    w.kontorCommittedFrames = (w.kontorCommittedFrames ?? 0) + 1
    return w.kontorCommittedFrames > 2
  })
}
