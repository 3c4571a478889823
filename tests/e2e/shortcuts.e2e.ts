import { expect, test } from './support/test'
import { enableModels, startChat } from './support/chat'
import { signUpAndSignIn } from './support/session'

// This flow's variant: English, light, a phone (the export test takes German, dark, desktop).
test.use({ locale: 'en-US', viewport: { width: 390, height: 844 } })

test('keyboard: ? lists the shortcuts, / opens the prompts, Esc stops a reply, Ctrl+Shift+C copies it, Ctrl+Shift+O starts a new chat', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await signUpAndSignIn(page)
  await enableModels(page)
  expect((await page.request.post('/api/prompts', { data: { title: 'Weekly summary', content: 'Summarise my week' } })).status()).toBe(201)
  const chat = await startChat(page)

  // ? in a text field is a question mark; outside one it lists the shortcuts.
  await chat.composer.click()
  await page.keyboard.press('?')
  await expect(chat.composer).toHaveValue('?')
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await chat.composer.fill('')
  await chat.composer.blur()
  await page.keyboard.press('?')
  const list = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
  await expect(list).toBeVisible()
  const rows = [
    ['New chat', 'CtrlShiftO'],
    ['Search your chats', 'CtrlK'],
    ['Stop the reply being written', 'Esc'],
    ['Copy the last reply', 'CtrlShiftC'],
    ['Choose a saved prompt (in an empty message field)', '/'],
    ['Show keyboard shortcuts', '?'],
  ]
  await expect(list.getByRole('term')).toHaveText(rows.map((r) => r[0]!))
  await expect(list.getByRole('definition')).toHaveText(rows.map((r) => r[1]!))
  await page.screenshot({ path: 'test-results/shortcuts-en-light-mobile.png' })
  await page.keyboard.press('Escape')
  await expect(list).toBeHidden()

  // / in the empty message field opens the saved prompts; after text it is a slash.
  await chat.composer.click()
  await page.keyboard.press('/')
  const picked = page.getByRole('option', { name: /Weekly summary/ })
  await expect(picked).toBeVisible()
  await picked.click()
  await expect(chat.composer).toHaveValue('Summarise my week')
  await chat.composer.press('End')
  await page.keyboard.press('/')
  await expect(chat.composer).toHaveValue('Summarise my week/')

  // Esc stops the reply being written.
  await chat.write('[[fake:tokens=400]] [[fake:delay=50]] A long answer, please')
  await expect(chat.lastReply.getByTestId('assistant-content')).not.toBeEmpty()
  await page.keyboard.press('Escape')
  await expect(chat.lastReply).toHaveAttribute('data-status', 'stopped')
  await page.screenshot({ path: 'test-results/shortcuts-en-light-mobile-chat.png' })

  // Ctrl+Shift+C copies the last reply (as shown), wherever the focus is.
  const reply = await chat.lastReply.getByTestId('assistant-content').innerText()
  // As many tokens as arrived before Esc: at least the first, never the whole reply.
  expect(reply).toMatch(/^t0( t\d+)*\s*$/)
  expect(reply).not.toContain('t399')
  await chat.composer.focus()
  await page.keyboard.press('Control+Shift+C')
  await expect(page.getByText('Copied to clipboard')).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(reply)

  // Ctrl+Shift+O: a new chat.
  await page.keyboard.press('Control+Shift+O')
  await expect(page).toHaveURL(/\/chat$/)
  await expect(chat.userMessages).toHaveCount(0)
})
