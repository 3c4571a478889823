import { expect, type Page } from '@playwright/test'
import { waitForHydration } from './session'

const SIDE_DOOR = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1}`

/** Enables the (fake) OpenAI provider and the given models for the signed-in admin's organisation. */
export async function enableModels(page: Page, modelIds: string[] = ['openai/gpt-4.1']) {
  const provider = await page.request.post('/api/models/providers/permitted', { data: { providerId: 'openai', termsAccepted: true } })
  expect(provider.status(), await provider.text()).toBeLessThan(300)
  const permitted: Array<{ id: string; modelId: string; displayName: string }> = []
  for (const modelId of modelIds) {
    const res = await page.request.post('/api/models/permitted', { data: { modelId } })
    expect(res.status(), await res.text()).toBeLessThan(300)
    permitted.push(await res.json())
  }
  return permitted
}

/** A request the fake model provider received (tests/support/fake-llm.ts records every one). */
export type LlmRequest = {
  path: string
  body?: {
    model?: string
    stream?: boolean
    tools?: Array<{ function?: { name: string } }>
    messages?: Array<{ role: string; content: unknown }>
  }
}

/** Every request the fake model provider received in this e2e run, oldest first. */
export async function llmRequests(): Promise<LlmRequest[]> {
  return (await (await fetch(`${SIDE_DOOR}/llm-requests`)).json()) as LlmRequest[]
}

/** Opens a new chat, hydrated, and returns its parts. */
export async function startChat(page: Page) {
  await page.goto('/chat')
  await waitForHydration(page)
  return chatPage(page)
}

/** Lets the fake provider's held streams (`[[fake:hold]]`: waiting after their first network chunk) go on. */
export async function releaseHeldReplies() {
  expect((await fetch(`${SIDE_DOOR}/llm-release`, { method: 'POST' })).status).toBe(200)
}

/** Appends `count` messages to a chat straight in the e2e database (tests/support/e2e-server.ts). */
export async function seedMessages(threadId: string, count: number) {
  const res = await fetch(`${SIDE_DOOR}/seed-messages`, { method: 'POST', body: JSON.stringify({ threadId, count }) })
  expect(res.status).toBe(200)
}

/** The chat page: its parts, by what a user sees. */
export function chatPage(page: Page) {
  const composer = page.getByRole('textbox', { name: 'Message' })
  return {
    composer,
    send: page.getByRole('button', { name: 'Send message' }),
    stop: page.getByRole('button', { name: 'Stop reply' }),
    title: page.getByTestId('chat-title'),
    modelPicker: page.getByTestId('model-picker'),
    userMessages: page.getByTestId('user-message'),
    replies: page.getByTestId('assistant-message'),
    lastReply: page.getByTestId('assistant-message').last(),
    sidebar: page.getByTestId('sidebar'),
    async write(text: string) {
      await composer.fill(text)
      await composer.press('Enter')
    },
    /** The chat's id from the address, once on /chats/{id}. */
    async threadId() {
      await expect(page).toHaveURL(/\/chats\/[\w-]+$/)
      return new URL(page.url()).pathname.split('/').pop()!
    },
  }
}

/** Numbered words, so that a reply has enough deltas to watch it grow. */
export const words = (count: number, prefix = 'word') => Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`).join(' ')
