import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { enableModels } from './support/chat'
import { colleagueEmail, inviteLink } from './support/members'
import { PASSWORD, signUpAndSignIn, waitForHydration } from './support/session'
import { expect, test } from './support/test'

// The flow's variant: German on a phone-sized screen.
const PHONE = { locale: 'de-DE', viewport: { width: 390, height: 844 } }
test.use(PHONE)

let everything: ChildProcess | undefined
let mcpUrl = ''

/** A port the system just handed out (and took back), for the MCP server this file starts. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })

test.beforeAll(async () => {
  const port = await freePort()
  // @modelcontextprotocol/server-everything over Streamable HTTP on 127.0.0.1 (the e2e server allows 127.0.0.1).
  const entry = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')
  everything = spawn(process.execPath, [entry, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' })
  mcpUrl = `http://127.0.0.1:${port}/mcp`
  await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/`).catch(() => null))?.status ?? 0, { timeout: 30_000 }).toBeGreaterThan(0)
})
test.afterAll(() => {
  everything?.kill()
})

test('Admin Settings → MCP-Server: the admin adds a server and enables a tool; a member’s chat shows the tool’s call card', async ({ page, browser }) => {
  test.setTimeout(120_000)
  await signUpAndSignIn(page)
  await enableModels(page)
  expect((await page.request.patch('/api/users/locale', { data: { locale: 'de' } })).status()).toBe(200)

  await page.goto('/admin-settings/mcp-servers')
  await waitForHydration(page)
  const region = page.getByRole('region', { name: 'MCP-Server' })
  await expect(region.getByText('Noch keine MCP-Server')).toBeVisible()
  await region.getByLabel('Name').fill('Everything')
  await region.getByLabel('Adresse (Streamable HTTP oder SSE)').fill(mcpUrl)
  await region.getByLabel('Bearer-Token').fill('geheim-123')
  await region.getByRole('button', { name: 'Server hinzufügen' }).click()
  const row = region.getByTestId('mcp-server-row').filter({ hasText: 'Everything' })
  await expect(row).toContainText('1 Geheimnis gespeichert')
  await expect(row).toContainText('0 Werkzeuge freigegeben')

  await row.getByRole('button', { name: 'Werkzeuge' }).click()
  const echo = row.getByTestId('mcp-tool-row').filter({ has: page.getByText('echo', { exact: true }) })
  await expect(echo).toContainText('Aus')
  await echo.getByRole('button', { name: 'echo freigeben' }).click()
  const dialog = page.getByRole('dialog', { name: 'Wer erhält echo?' })
  await expect(dialog.getByRole('radio', { name: 'Alle' })).toBeChecked()
  await dialog.getByRole('button', { name: 'Werkzeug freigeben' }).click()
  await expect(dialog).toBeHidden()
  await expect(echo).toContainText('Alle')
  await expect(row).toContainText('1 Werkzeug freigegeben')

  // A member of the organisation chats; the model calls the tool.
  const email = colleagueEmail()
  expect((await page.request.post('/api/invites', { data: { email, role: 'user', locale: 'de' } })).status()).toBe(201)
  const token = new URL(await inviteLink(email)).searchParams.get('token')
  const memberContext = await browser.newContext(PHONE)
  try {
    const member = await memberContext.newPage()
    const joined = await member.request.post('/api/invites/accept', { data: { token, name: 'Mia Mitglied', password: PASSWORD, passwordConfirmation: PASSWORD } })
    expect(joined.status(), await joined.text()).toBe(201)
    await member.goto('/chat')
    await waitForHydration(member)
    const composer = member.getByRole('textbox', { name: 'Nachricht' })
    await composer.fill('[[fake:tool=Everything__echo:{"message":"Hallo MCP"}]] [[fake:after-tool=Das Werkzeug hat geantwortet.]] Sag Hallo')
    await composer.press('Enter')
    const reply = member.getByTestId('assistant-message').last()
    await expect(reply).toHaveAttribute('data-status', 'complete')
    const card = reply.locator('[data-testid="tool-call"][data-tool="Everything__echo"]')
    await expect(card).toHaveAttribute('data-state-kind', 'done')
    const toggle = card.getByRole('button', { name: /echo \(Everything\)/ })
    await expect(toggle).toContainText('„message: Hallo MCP“')
    await toggle.click()
    await expect(card).toContainText('Echo: Hallo MCP')
    await expect(reply).toContainText('Das Werkzeug hat geantwortet.')
  } finally {
    await memberContext.close()
  }
})
