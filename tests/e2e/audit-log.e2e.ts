import { readFile } from 'node:fs/promises'
import { colleagueEmail, inviteLink } from './support/members'
import { PASSWORD, signUpAndSignIn, waitForHydration } from './support/session'
import { expect, test } from './support/test'

// The flow's variant: German, dark theme.
test.use({ locale: 'de-DE' })
test.beforeEach(async ({ page }) => page.addInitScript(() => localStorage.setItem('theme', 'dark')))

test('Admin Settings → Protokoll: a role change shows in the filtered log and in its CSV download', async ({ page, request }) => {
  await signUpAndSignIn(page)
  expect((await page.request.patch('/api/users/locale', { data: { locale: 'de' } })).status()).toBe(200)
  const email = colleagueEmail()
  expect((await page.request.post('/api/invites', { data: { email, role: 'user', locale: 'de' } })).status()).toBe(201)
  const token = new URL(await inviteLink(email)).searchParams.get('token')
  // The colleague joins from a client of their own (the `request` fixture keeps its own cookies).
  const joined = await request.post('/api/invites/accept', { data: { token, name: 'Max Muster', password: PASSWORD, passwordConfirmation: PASSWORD } })
  expect(joined.status(), await joined.text()).toBe(201)

  await page.goto('/admin-settings/users')
  await waitForHydration(page)
  await expect(page.getByRole('region', { name: 'Mitglieder' })).toBeVisible()
  await expect(page.locator('html')).toHaveClass(/dark/)
  await page.getByLabel('Rolle von Max Muster').selectOption('admin')
  await expect(page.getByText('Max Muster hat jetzt die Rolle „Admin“.')).toBeVisible()

  await page.getByRole('link', { name: 'Protokoll' }).click()
  await expect(page).toHaveURL(/\/admin-settings\/audit-log$/)
  const log = page.getByRole('region', { name: 'Protokoll' })
  await expect(log.getByTestId('audit-row').first()).toBeVisible()
  await log.getByLabel('Aktion').selectOption({ label: 'Rolle geändert' })
  const rows = log.getByTestId('audit-row')
  await expect(rows).toHaveCount(1)
  await expect(rows).toContainText('Rolle geändert')
  await expect(rows).toContainText(email)
  await expect(rows).toContainText('Benutzer → Admin')
  await page.screenshot({ path: 'test-results/audit-log-de-dark.png' })

  const download = page.waitForEvent('download')
  await log.getByRole('link', { name: 'CSV herunterladen' }).click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/)
  const lines = (await readFile((await file.path())!, 'utf8')).trimEnd().split('\r\n')
  expect(lines[0]).toMatch(/^time,action,actor_name,/)
  expect(lines).toHaveLength(2)
  expect(lines[1]).toContain('member.role_changed')
  expect(lines[1]).toContain(email)
})
