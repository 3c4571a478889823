import { expect, type BrowserContext, type Frame, type Locator, type Page } from '@playwright/test'

/**
 * What a payload runs if it ever executes: it reports its number to the test's `xssHit` binding
 * and opens an alert, so that it is caught even where the binding were missing or shadowed.
 */
export const run = (id: number) => `xssHit(${id}),alert(${id})`

/** Every execution the test can see in a browser context: binding calls, dialogs, javascript:/data: navigations. */
export type XssWatch = { hits: string[]; context: BrowserContext }

/** Starts watching a context (before its pages load anything the test wants to check). */
export async function watchForXss(context: BrowserContext): Promise<XssWatch> {
  const hits: string[] = []
  await context.exposeBinding('xssHit', ({ frame }, id: unknown) => void hits.push(`xssHit(${String(id)}) in ${frame.url()}`))
  context.on('dialog', (dialog) => {
    hits.push(`${dialog.type()}(${dialog.message()}) in ${dialog.page()?.url() ?? 'a page'}`)
    void dialog.dismiss().catch(() => {})
  })
  const navigated = (frame: Frame) => {
    if (/^\s*(javascript|data|vbscript):/i.test(frame.url())) hits.push(`navigation to ${frame.url()}`)
  }
  const watchPage = (page: Page) => page.on('framenavigated', navigated)
  context.pages().forEach(watchPage)
  context.on('page', watchPage)
  return { hits, context }
}

/**
 * Proves the watch sees what a payload does: markup with an event handler, put into the page the
 * way an injection would, must be reported through the binding and the alert. Clears the record.
 */
export async function expectWatchWorks(page: Page, watch: XssWatch) {
  expect(watch.hits, `script ran before the probe, in ${page.url()}`).toEqual([])
  await page.evaluate((code) => {
    const probe = document.createElement('div')
    probe.innerHTML = `<img src="/xss-probe-missing.png" onerror="${code};this.parentNode.remove()">`
    document.body.append(probe)
  }, run(0))
  await expect.poll(() => watch.hits.length, { message: 'the probe payload is seen' }).toBe(2)
  expect(watch.hits.join('\n')).toContain('xssHit(0)')
  expect(watch.hits.join('\n')).toContain('alert(0)')
  watch.hits.length = 0
}

/** What in the page could run or load script: inline handlers, script-capable URLs, frames and the like. */
export async function dangerousMarkup(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = []
    const describe = (el: Element) => `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}>`
    for (const el of document.querySelectorAll('*')) {
      if (['IFRAME', 'FRAME', 'OBJECT', 'EMBED', 'BASE', 'PORTAL'].includes(el.tagName)) found.push(`${describe(el)} element`)
      if (el.tagName === 'META' && el.hasAttribute('http-equiv')) found.push(`${describe(el)} http-equiv`)
      for (const attr of el.attributes) {
        const name = attr.name.toLowerCase()
        if (name.startsWith('on')) found.push(`${describe(el)} ${name}="${attr.value}"`)
        if (name === 'srcdoc') found.push(`${describe(el)} srcdoc`)
        if (['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'background'].includes(name)) {
          const protocol = new URL(attr.value, location.href).protocol
          if (!['http:', 'https:', 'mailto:'].includes(protocol)) found.push(`${describe(el)} ${name}="${attr.value}"`)
        }
      }
    }
    return found
  })
}

/** Nothing ran in the watched context, and the page holds no markup that could run script. */
export async function expectNoXss(page: Page, watch: XssWatch, where: string) {
  expect(watch.hits, `script ran: ${where}`).toEqual([])
  expect(await dangerousMarkup(page), `markup that could run script: ${where}`).toEqual([])
}

/** The texts of `expected` that `locator`'s visible text does not contain (blanks compared loosely). */
export async function missingTexts(locator: Locator, expected: string[]): Promise<string[]> {
  const squash = (s: string) => s.replace(/\s+/g, ' ').trim()
  const shown = squash(await locator.innerText())
  return expected.filter((text) => !shown.includes(squash(text)))
}

/** Waits until `locator`'s visible text contains each of `expected` (a page may still be rendering it). */
export async function expectShown(locator: Locator, expected: string[], where: string) {
  await expect.poll(() => missingTexts(locator, expected), { message: `not shown as text: ${where}`, timeout: 15_000 }).toEqual([])
}

const SIDE_DOOR = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1}`

/** The e2e server's fake SearXNG answers `query` with these results (tests/support/e2e-server.ts). */
export async function giveSearchResults(query: string, results: Array<{ title: string; url: string; content: string }>) {
  const res = await fetch(`${SIDE_DOOR}/search-results`, { method: 'POST', body: JSON.stringify({ query, results }) })
  expect(res.status).toBe(200)
}

/** A web page (or, with `type`, another document) on 127.0.0.1, which the e2e server lets Kontor fetch; its address. */
export async function putPage(name: string, body: string, type?: string): Promise<string> {
  const res = await fetch(`${SIDE_DOOR}/pages`, { method: 'POST', body: JSON.stringify({ name, body, type }) })
  expect(res.status).toBe(200)
  return ((await res.json()) as { url: string }).url
}
