import type { Page } from '@playwright/test'
import { expect, test } from './support/test'
import { enableModels, startChat } from './support/chat'
import { signUpAndSignIn } from './support/session'

// This flow's variant: German on a phone (390×844).
test.use({ locale: 'de-DE', viewport: { width: 390, height: 844 } })

type Thread = { messages: { id: string; content: string; parentId: string | null; siblingIds: string[] }[] }
const readThread = async (page: Page, id: string) => (await (await page.request.get(`/api/threads/${id}`)).json()) as Thread

test('regenerated replies and edited messages keep their versions: ‹ 1/2 › steps through them and the chat goes on from the one shown', async ({ page }) => {
  test.setTimeout(120_000) // four replies, two versions switched to
  await signUpAndSignIn(page)
  await enableModels(page)
  expect((await page.request.patch('/api/users/locale', { data: { locale: 'de' } })).status()).toBe(200)
  const chat = await startChat(page)
  const composer = page.locator('#chat-composer')
  const scroller = page.getByTestId('message-scroller')
  await composer.fill('Erste Frage')
  await composer.press('Enter')
  const id = await chat.threadId()
  await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')

  // A regenerated reply shows where it stands among its versions; the earlier one is a step back.
  await chat.lastReply.getByRole('button', { name: 'Antwort neu erzeugen' }).click()
  await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
  const replyVersions = chat.lastReply.getByRole('group', { name: 'Versionen' })
  await expect(replyVersions).toContainText('2/2')
  const [firstReply] = (await readThread(page, id)).messages[1]!.siblingIds
  await replyVersions.getByRole('button', { name: 'Vorherige Version' }).click()
  await expect(replyVersions).toContainText('1/2')
  await expect(replyVersions.getByRole('button', { name: 'Vorherige Version' })).toBeDisabled()

  // Sending now continues the version shown.
  await composer.fill('Zweite Frage')
  await composer.press('Enter')
  await expect(chat.replies).toHaveCount(2)
  await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
  expect((await readThread(page, id)).messages.map((m) => m.parentId).slice(2)).toEqual([firstReply, expect.any(String)])

  // Edit and resend keeps the earlier message: the edited one is 2/2, the earlier one and its reply come back at 1/2.
  await page.getByRole('button', { name: 'Nachricht bearbeiten' }).click()
  await page.getByRole('textbox', { name: 'Ihre Nachricht bearbeiten' }).fill('Andere Frage')
  await page.getByRole('button', { name: 'Senden', exact: true }).click()
  await expect(chat.lastReply).toContainText('Andere Frage')
  await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')
  const questionVersions = chat.userMessages.last().getByRole('group', { name: 'Versionen' })
  await expect(questionVersions).toContainText('2/2')
  await questionVersions.getByRole('button', { name: 'Vorherige Version' }).click()
  await expect(questionVersions).toContainText('1/2')
  await expect(scroller.getByText('Zweite Frage', { exact: true })).toBeVisible()
  await expect(scroller.getByText('Andere Frage', { exact: true })).toHaveCount(0)

  // The other version of the first reply has no continuation: the chat ends with it.
  await chat.replies.first().getByRole('button', { name: 'Nächste Version' }).click()
  await expect(chat.replies).toHaveCount(1)
  await expect(chat.userMessages).toHaveCount(1)
  await expect(chat.lastReply.getByRole('group', { name: 'Versionen' })).toContainText('2/2')
})
