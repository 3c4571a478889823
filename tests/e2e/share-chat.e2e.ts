import { chunksHolding } from './support/build'
import { enableModels, startChat } from './support/chat'
import { invitedColleague } from './support/members'
import { signUpAndSignIn, waitForHydration } from './support/session'
import { expect, test } from './support/test'

// This flow's variant: English, dark, desktop.
test.use({ colorScheme: 'dark' })

/** The share dialog's chunk (share-dialog.tsx), found by what it renders. */
const shareDialogChunk = () => chunksHolding('share-audience')[0]

test('a chat shared in the organisation opens read-only for a colleague, who continues it as a chat of their own; signed out, the link asks to sign in', async ({ page, browser }) => {
  test.setTimeout(180_000) // two people and a visitor, in three browsers
  await signUpAndSignIn(page)
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'))
  await enableModels(page)
  const chat = await startChat(page)
  await chat.write('[[fake:title=Quarterly plan]] What goes into the quarterly plan?')
  await expect(chat.lastReply).toHaveAttribute('data-status', 'complete')

  const chunk = shareDialogChunk()
  expect(chunk).toBeDefined()
  const asked: string[] = []
  page.on('request', (request) => asked.push(request.url()))
  await page.getByRole('button', { name: 'More chat actions' }).click()
  // The open menu is named by its button.
  await expect(page.getByRole('menu', { name: 'More chat actions' })).toBeVisible()
  // The dialog's code is fetched as the menu opens, before Share is chosen.
  await expect.poll(() => asked.some((url) => url.endsWith(`/${chunk}`))).toBe(true)
  await page.getByRole('menuitem', { name: 'Share in the organisation…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Share this chat' })
  await expect(dialog.getByText('This chat is not shared.')).toBeVisible()
  await dialog.getByRole('button', { name: 'Create link' }).click()
  const link = await dialog.getByLabel('Link').inputValue()
  expect(link).toMatch(/\/shared\/[\w-]+$/)

  // A colleague of the same organisation, in a browser of their own.
  const colleague = await invitedColleague(page, browser, { colorScheme: 'dark' })
  await colleague.goto(link)
  await waitForHydration(colleague)
  await expect(colleague.getByRole('heading', { name: 'Quarterly plan' })).toBeVisible()
  await expect(colleague.getByTestId('assistant-message')).toContainText('You said: What goes into the quarterly plan?')
  await expect(colleague.getByRole('textbox', { name: 'Message' })).toHaveCount(0)
  await colleague.getByRole('button', { name: 'Continue this chat' }).click()
  await expect(colleague).toHaveURL(/\/chats\/[\w-]+$/)
  const copy = await colleague.getByRole('textbox', { name: 'Message' })
  await copy.fill('And the budget?')
  await copy.press('Enter')
  await expect(colleague.getByTestId('assistant-message').last()).toContainText('You said: And the budget?')
  await expect(colleague.getByTestId('assistant-message')).toHaveCount(2)

  // Signed out, the link leads to the sign-in page.
  const visitor = await (await browser.newContext()).newPage()
  await visitor.goto(link)
  await expect(visitor).toHaveURL(/\/login/)

  // Stopped sharing, the link finds nothing.
  await dialog.getByRole('button', { name: 'Stop sharing' }).click()
  await expect(dialog.getByText('This chat is not shared.')).toBeVisible()
  await colleague.goto(link)
  await expect(colleague.getByRole('heading', { name: 'This shared chat does not exist or is no longer shared.' })).toBeVisible()

  // Shared with one group only, the colleague outside it finds nothing.
  expect((await page.request.post('/api/groups', { data: { name: 'Board' } })).status()).toBe(201)
  await dialog.getByRole('button', { name: 'Close' }).click()
  // Closed, the dialog gives the focus back to the menu's button it was opened from.
  await expect(page.getByRole('button', { name: 'More chat actions' })).toBeFocused()
  await page.getByRole('button', { name: 'More chat actions' }).click()
  await page.getByRole('menuitem', { name: 'Share in the organisation…' }).click()
  await dialog.getByRole('group', { name: 'Only members of these groups' }).getByLabel('Board').check()
  await dialog.getByRole('button', { name: 'Create link' }).click()
  await expect(dialog.getByTestId('share-audience')).toHaveText('Shared with the members of: Board.')
  const boardLink = await dialog.getByLabel('Link').inputValue()
  expect(boardLink).not.toBe(link)
  // Escape closes it the same way.
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('button', { name: 'More chat actions' })).toBeFocused()
  await colleague.goto(boardLink)
  await expect(colleague.getByRole('heading', { name: 'This shared chat does not exist or is no longer shared.' })).toBeVisible()
})
