import type { Browser } from '@playwright/test'
import { enableModels, startChat } from './support/chat'
import { inviteLink } from './support/members'
import { permittedRow } from './support/models'
import { PASSWORD, signUpAndSignIn, uniqueEmail, waitForHydration } from './support/session'
import { expect, test } from './support/test'

/** A colleague who joined through the mailed invitation, signed in in a browser of their own. */
async function joinedColleague(browser: Browser, invite: (email: string) => Promise<void>) {
  const email = uniqueEmail()
  await invite(email)
  const token = new URL(await inviteLink(email)).searchParams.get('token')
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
  const page = await context.newPage()
  const res = await page.request.post('/api/invites/accept', { data: { token, name: 'Mia Member', password: PASSWORD, passwordConfirmation: PASSWORD } })
  expect(res.status(), await res.text()).toBe(201)
  return page
}

test.describe('groups and model access by group (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('an admin restricts a model to a group; a member sees it in the picker only once added', async ({ page, browser }) => {
    test.setTimeout(120_000) // two people in two browsers, and the models screen
    await signUpAndSignIn(page)
    await enableModels(page, ['openai/gpt-4.1', 'openai/gpt-4o'])
    const member = await joinedColleague(browser, async (email) => {
      const res = await page.request.post('/api/invites', { data: { email, role: 'user', locale: 'en' } })
      expect(res.status(), await res.text()).toBe(201)
    })

    // Admin Settings → Groups: a new group, renamed.
    await page.goto('/admin-settings/groups')
    await waitForHydration(page)
    const region = page.getByRole('region', { name: 'Groups' })
    await expect(region.getByText('No groups yet')).toBeVisible()
    await region.getByRole('button', { name: 'New group' }).first().click()
    let dialog = page.getByRole('dialog', { name: 'New group' })
    await dialog.getByLabel('Name').fill('Sales')
    await dialog.getByRole('button', { name: 'Create group' }).click()
    await expect(dialog).toHaveCount(0)
    await page.getByRole('button', { name: 'Rename Sales' }).click()
    dialog = page.getByRole('dialog', { name: 'Rename group' })
    await dialog.getByLabel('Name').fill('Sales DACH')
    await dialog.getByRole('button', { name: 'Save' }).click()
    const group = page.getByTestId('group').filter({ hasText: 'Sales DACH' })
    await expect(group).toContainText('0 members')

    // Admin Settings → Models: GPT-4o only for the group.
    await page.goto('/admin-settings/models')
    await waitForHydration(page)
    await permittedRow(page, 'GPT-4o').getByRole('button', { name: 'Who may use GPT-4o' }).click()
    dialog = page.getByRole('dialog', { name: 'Who may use GPT-4o?' })
    await dialog.getByRole('radio', { name: 'Members of chosen groups' }).click()
    await dialog.getByLabel('Sales DACH').check()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(permittedRow(page, 'GPT-4o').getByTestId('model-access')).toHaveText('Only Sales DACH')

    // Its price for usage costs: the admin's own, checked before it is sent.
    await permittedRow(page, 'GPT-4o').getByRole('button', { name: 'Price of GPT-4o' }).click()
    dialog = page.getByRole('dialog', { name: 'Price of GPT-4o' })
    await expect(dialog.getByLabel('Input (US$ per 1M tokens)')).toHaveValue('2.5')
    await dialog.getByLabel('Output (US$ per 1M tokens)').fill('ten')
    await dialog.getByRole('button', { name: 'Save price' }).click()
    await expect(dialog.getByText('Enter a number, such as 2.5')).toBeVisible()
    await dialog.getByLabel('Output (US$ per 1M tokens)').fill('6')
    await dialog.getByRole('button', { name: 'Save price' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(permittedRow(page, 'GPT-4o')).toContainText('own price')

    // The member outside the group: GPT-4.1 only.
    let chat = await startChat(member)
    await chat.modelPicker.click()
    await expect(member.getByRole('menuitemradio', { name: /GPT-4\.1/ })).toBeVisible()
    await expect(member.getByRole('menuitemradio', { name: /GPT-4o/ })).toHaveCount(0)
    await member.keyboard.press('Escape')

    // Added to the group, the member sees it.
    await page.goto('/admin-settings/groups')
    await waitForHydration(page)
    const select = group.getByLabel('Add a member to Sales DACH')
    await select.selectOption((await select.locator('option', { hasText: 'Mia Member' }).getAttribute('value'))!)
    await group.getByRole('button', { name: 'Add' }).click()
    await expect(group).toContainText('1 member')
    await expect(group.getByRole('list', { name: 'Members of Sales DACH' })).toContainText('Mia Member')

    chat = await startChat(member)
    await chat.modelPicker.click()
    await member.getByRole('menuitemradio', { name: /GPT-4o/ }).click()
    await expect(chat.modelPicker).toContainText('GPT-4o')

    // Deleting the group goes through the confirmation; the model then is open to nobody.
    await page.getByRole('button', { name: 'Delete Sales DACH' }).click()
    const confirmation = page.getByRole('alertdialog')
    await expect(confirmation).toContainText('Delete the group Sales DACH?')
    await confirmation.getByRole('button', { name: 'Delete group' }).click()
    await expect(page.getByText('No groups yet')).toBeVisible()
    await member.goto('/chat')
    await waitForHydration(member)
    await chat.modelPicker.click()
    await expect(member.getByRole('menuitemradio', { name: /GPT-4o/ })).toHaveCount(0)
  })
})
