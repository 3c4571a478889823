import { expect, type Page } from '@playwright/test'

const SIDE_DOOR = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1}`

/** Answers the web searches the fake SearXNG holds (queries with `[held]`), once one has arrived. */
export async function releaseHeldSearches() {
  await expect
    .poll(async () => ((await (await fetch(`${SIDE_DOOR}/search-release`, { method: 'POST' })).json()) as { released: number }).released, {
      message: 'a held web search',
    })
    .toBeGreaterThan(0)
}

/** Attaches a text file to a chat through the API and waits until it is processed. */
export async function attachTextFile(page: Page, threadId: string, name: string, text: string) {
  const baseURL = new URL(page.url()).origin
  const res = await page.request.post(`/api/threads/${threadId}/sources/file`, {
    headers: { origin: baseURL },
    multipart: { file: { name, mimeType: 'text/plain', buffer: Buffer.from(text) } },
  })
  expect(res.status(), await res.text()).toBe(201)
  await expect
    .poll(async () => ((await (await page.request.get(`/api/threads/${threadId}/sources`)).json()) as Array<{ status: string }>).map((s) => s.status), {
      message: `${name} processed`,
      timeout: 20_000,
    })
    .toEqual(['ready'])
}

/** The tool call cards of a reply, by what a user sees. */
export function toolCards(page: Page) {
  const reply = page.getByTestId('assistant-message').last()
  return {
    reply,
    content: reply.getByTestId('assistant-content'),
    card: (tool: string) => reply.locator(`[data-testid=tool-call][data-tool=${tool}]`),
    emailDraft: reply.getByTestId('email-draft'),
  }
}
