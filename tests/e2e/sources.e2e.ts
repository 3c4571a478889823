import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './support/test'
import { makePdf } from '../support/documents'
import { makeScan } from '../support/scans'
import { chatPage, enableModels, llmRequests } from './support/chat'
import { inviteLink } from './support/members'
import { PASSWORD, signUpAndSignIn, uniqueEmail, waitForHydration } from './support/session'

type Source = { id: string; name: string; description: string | null; status: string; error: string | null }

const chips = (page: Page) => page.getByTestId('source-chip')
const chip = (page: Page, name: string) => chips(page).filter({ hasText: name })
const readSources = async (page: Page, threadId: string) => (await (await page.request.get(`/api/threads/${threadId}/sources`)).json()) as Source[]

/** A chat model and an embedding model; the embedding model becomes the organisation's. */
const enableChatAndEmbedding = (page: Page) => enableModels(page, ['openai/gpt-4.1', 'openai/text-embedding-3-small'])

/** Drops files on an element the way a browser does: dragenter, dragover, drop, with the files in a DataTransfer. */
async function dropFiles(page: Page, target: ReturnType<Page['getByRole']>, files: Array<{ name: string; type: string; bytes: number[] }>) {
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer()
    for (const f of list) transfer.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: f.type }))
    return transfer
  }, files)
  await target.dispatchEvent('dragenter', { dataTransfer })
  await target.dispatchEvent('dragover', { dataTransfer })
  await expect(page.getByTestId('file-drop-zone')).toBeVisible()
  await expect(page.getByTestId('file-drop-zone')).toContainText('Drop files to add them to this chat')
  await target.dispatchEvent('drop', { dataTransfer })
  await expect(page.getByTestId('file-drop-zone')).toHaveCount(0)
}

test.describe('sources', () => {
  // Each test signs up a new organisation and waits for files to be processed and replies to finish.
  test.describe.configure({ timeout: 180_000 })

  test('a file attached before the first message goes with it: processed, searched for the answer, then removed', async ({ page }) => {
    await signUpAndSignIn(page)
    await enableChatAndEmbedding(page)
    await page.goto('/chat')
    await waitForHydration(page)
    const chat = chatPage(page)

    // The fake embedding answers this file's chunks late, so that "processing" can be seen.
    const document = [
      '# Project Falcon',
      '',
      'Project Falcon replaces the warehouse scanners in 2027.',
      'The internal code name of Project Falcon is BLUE HERON.',
      '[[fake:slow-first-token=1500]]',
    ].join('\n')
    const chooser = page.waitForEvent('filechooser')
    await page.getByRole('button', { name: 'Attach files' }).click()
    await (await chooser).setFiles({ name: 'falcon.md', mimeType: 'text/markdown', buffer: Buffer.from(document) })
    await expect(chip(page, 'falcon.md')).toHaveAttribute('data-status', 'attached')
    // Nothing is uploaded before there is a chat.
    expect((await llmRequests()).filter((r) => r.path.endsWith('/embeddings') && JSON.stringify(r.body).includes('BLUE HERON'))).toHaveLength(0)

    const question = 'What is the code name of Project Falcon?'
    await chat.write(`[[fake:tool=source_query:{"query":"code name of Project Falcon"}]] ${question}`)
    const threadId = await chat.threadId()
    // The message waits for the file, so that the answer can draw on it.
    await expect(page.getByTestId('queued-message')).toContainText(question)
    await expect(chip(page, 'falcon.md')).toHaveAttribute('data-status', 'processing')
    await expect(chip(page, 'falcon.md')).toContainText('Processing…')
    await expect(chip(page, 'falcon.md')).toHaveAttribute('data-status', 'ready', { timeout: 20_000 })
    await expect(page.getByTestId('queued-message')).toHaveCount(0)

    await expect(chat.userMessages).toHaveCount(1)
    await expect(chat.lastReply).toHaveAttribute('data-status', 'complete', { timeout: 15_000 })
    await expect(chat.lastReply).toContainText('BLUE HERON')

    // The model was offered source_query, called it, and got the passage back with its citation.
    const requests = (await llmRequests()).filter((r) => JSON.stringify(r.body?.messages ?? []).includes(question))
    expect(requests[0]?.body?.tools?.map((t) => t.function?.name)).toContain('source_query')
    const toolResult = requests.flatMap((r) => r.body?.messages ?? []).find((m) => m.role === 'tool')
    expect(String(toolResult?.content)).toContain('The internal code name of Project Falcon is BLUE HERON.')
    expect(String(toolResult?.content)).toContain('Cite as: (falcon.md')

    // Sent once, uploaded once.
    const thread = (await (await page.request.get(`/api/threads/${threadId}`)).json()) as { messages: Array<{ role: string }> }
    expect(thread.messages.map((m) => m.role)).toEqual(['user', 'assistant'])
    expect((await readSources(page, threadId)).map((s) => [s.name, s.status])).toEqual([['falcon.md', 'ready']])

    // Removing asks first; cancelling keeps the file.
    await chip(page, 'falcon.md').getByRole('button', { name: 'Remove falcon.md' }).click()
    const dialog = page.getByRole('alertdialog')
    await expect(dialog).toContainText('Remove file?')
    await expect(dialog).toContainText('“falcon.md” will be removed from this chat.')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(chip(page, 'falcon.md')).toBeVisible()
    await chip(page, 'falcon.md').getByRole('button', { name: 'Remove falcon.md' }).click()
    await dialog.getByRole('button', { name: 'Remove file' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(page.getByText('“falcon.md” removed')).toBeVisible()
    await expect(chips(page)).toHaveCount(0)
    expect(await readSources(page, threadId)).toEqual([])
  })

  test('files dropped on a chat are uploaded and processed; a scanned page is read by OCR', async ({ page }) => {
    await signUpAndSignIn(page)
    await enableChatAndEmbedding(page)
    const { id } = (await (await page.request.post('/api/threads', { data: {} })).json()) as { id: string }
    await page.goto(`/chats/${id}`)
    await waitForHydration(page)

    const pdf = makePdf([['Quarterly report, page one.'], ['Revenue grew by 17 percent in the third quarter.']])
    const locked = makePdf([['Salaries 2025']], { encrypted: true })
    await dropFiles(page, page.getByRole('textbox', { name: 'Message' }), [
      { name: 'quarterly.pdf', type: 'application/pdf', bytes: [...pdf] },
      { name: 'notes.txt', type: 'text/plain', bytes: [...Buffer.from('Meeting notes: the launch moves to May.')] },
      { name: 'salaries.pdf', type: 'application/pdf', bytes: [...locked] },
      { name: 'scan.png', type: 'image/png', bytes: [...makeScan(['Delivery note 4711: twelve pallets of roof tiles.'])] },
    ])
    await expect(chip(page, 'quarterly.pdf')).toHaveAttribute('data-status', 'ready', { timeout: 20_000 })
    await expect(chip(page, 'notes.txt')).toHaveAttribute('data-status', 'ready', { timeout: 20_000 })
    // The server took the password-protected PDF (it is a PDF) and failed it while processing: the chip says why.
    // Text recognition takes a few seconds of a core that other tests share.
    await expect(chip(page, 'scan.png')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 })
    await expect(chip(page, 'salaries.pdf')).toHaveAttribute('data-status', 'failed', { timeout: 20_000 })
    await expect(chip(page, 'salaries.pdf')).toContainText('Failed')
    await expect(chip(page, 'salaries.pdf')).toHaveAttribute('title', /protected with a password/)
    await chip(page, 'salaries.pdf').getByText('Failed').hover()
    await expect(page.getByRole('tooltip')).toContainText('This PDF is protected with a password. Remove the protection and upload it again.')
    expect((await readSources(page, id)).map((s) => [s.name, s.status, s.error])).toEqual([
      ['quarterly.pdf', 'ready', null],
      ['notes.txt', 'ready', null],
      ['salaries.pdf', 'failed', 'SOURCE_ENCRYPTED'],
      ['scan.png', 'ready', null],
    ])

    // They stay with the chat, the failed one with its reason.
    await page.reload()
    await waitForHydration(page)
    await expect(chips(page)).toHaveText([/quarterly\.pdf/, /notes\.txt/, /salaries\.pdf/, /scan\.png/])
    await expect(chip(page, 'salaries.pdf')).toHaveAttribute('title', /protected with a password/)
  })

  test('an upload shows how much of it is sent and can be cancelled; the server keeps nothing of it; a file gets a name and description', async ({ page }) => {
    await signUpAndSignIn(page)
    await enableChatAndEmbedding(page)
    const { id } = (await (await page.request.post('/api/threads', { data: {} })).json()) as { id: string }
    await page.goto(`/chats/${id}`)
    await waitForHydration(page)

    // A slow uplink: 4 MB at 256 KB/s take far longer than this test waits for the first percent.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 256 * 1024 })
    const chooser = page.waitForEvent('filechooser')
    await page.getByRole('button', { name: 'Attach files' }).click()
    await (await chooser).setFiles({ name: 'archive.txt', mimeType: 'text/plain', buffer: Buffer.alloc(4 * 1024 * 1024, 'All work and no play. ') })
    await expect(chip(page, 'archive.txt')).toHaveAttribute('data-status', 'uploading')
    await expect(chip(page, 'archive.txt')).toContainText(/Uploading… ([1-9]\d?)%/)
    await chip(page, 'archive.txt').getByRole('button', { name: 'Cancel the upload of archive.txt' }).click()
    await expect(chip(page, 'archive.txt')).toHaveCount(0)

    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
    const next = page.waitForEvent('filechooser')
    await page.getByRole('button', { name: 'Attach files' }).click()
    await (await next).setFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Meeting notes: the launch moves to May.') })
    await expect(chip(page, 'notes.txt')).toHaveAttribute('data-status', 'ready', { timeout: 20_000 })
    // Only the file that was sent to its end is the chat's.
    expect((await readSources(page, id)).map((s) => s.name)).toEqual(['notes.txt'])

    // Its name and description, which the model is told with it.
    await chip(page, 'notes.txt').getByRole('button', { name: 'Details of notes.txt' }).click()
    const dialog = page.getByRole('dialog', { name: 'File details' })
    await dialog.getByLabel('Name').fill(' ')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(dialog.getByText('Name is required')).toBeVisible()
    await dialog.getByLabel('Name').fill('Launch notes')
    await dialog.getByLabel('Description').fill('From the Monday meeting')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(chips(page)).toHaveText([/Launch notes/])
    expect((await readSources(page, id)).map((s) => [s.name, s.description])).toEqual([['Launch notes', 'From the Monday meeting']])
    await page.reload()
    await expect(chips(page)).toHaveText([/Launch notes/])
  })

  test('files of the wrong type are refused with the reason; without an embedding model nothing can be attached', async ({ page, browser }) => {
    await signUpAndSignIn(page)
    await enableModels(page)

    // No embedding model: the button is disabled and says why, and so does a drop.
    await page.goto('/chat')
    await waitForHydration(page)
    const attach = page.getByRole('button', { name: 'Attach files' })
    await expect(attach).toBeDisabled()
    await expect(attach).toHaveAccessibleDescription(/has an embedding model/)
    await attach.hover()
    await expect(page.getByRole('tooltip')).toContainText('Files cannot be added until your organisation has an embedding model.')
    const composer = page.getByRole('textbox', { name: 'Message' })
    const dataTransfer = await page.evaluateHandle(() => {
      const transfer = new DataTransfer()
      transfer.items.add(new File(['hello'], 'hello.txt', { type: 'text/plain' }))
      return transfer
    })
    await composer.dispatchEvent('dragenter', { dataTransfer })
    await expect(page.getByTestId('file-drop-zone')).toContainText('Files cannot be added')
    await composer.dispatchEvent('drop', { dataTransfer })
    await expect(chips(page)).toHaveCount(0)

    // A member who is not an admin is told to ask one.
    const email = uniqueEmail()
    const invite = await page.request.post('/api/invites', { data: { email, role: 'user' } })
    expect(invite.status(), await invite.text()).toBe(201)
    const token = new URL(await inviteLink(email)).searchParams.get('token')
    const memberContext = await browser.newContext()
    try {
      const member = await memberContext.newPage()
      const accepted = await member.request.post('/api/invites/accept', { data: { token, name: 'Mia Member', password: PASSWORD, passwordConfirmation: PASSWORD } })
      expect(accepted.status(), await accepted.text()).toBe(201)
      await member.goto('/chat')
      await waitForHydration(member)
      const memberAttach = member.getByRole('button', { name: 'Attach files' })
      await expect(memberAttach).toBeDisabled()
      await memberAttach.hover()
      await expect(member.getByRole('tooltip')).toContainText('Files cannot be added because your organisation has no embedding model. Please ask an admin to choose one.')
    } finally {
      await memberContext.close()
    }

    // The server refuses too, with its own clear error.
    const { id } = (await (await page.request.post('/api/threads', { data: {} })).json()) as { id: string }
    // A multipart form is what another site could post: the API wants the app's own origin on it.
    const refused = await page.request.post(`/api/threads/${id}/sources/file`, {
      headers: { origin: new URL(page.url()).origin },
      multipart: { file: { name: 'hello.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') } },
    })
    expect(refused.status()).toBe(409)
    expect(((await refused.json()) as { code: string }).code).toBe('EMBEDDING_MODEL_REQUIRED')

    const embedding = await page.request.post('/api/models/permitted', { data: { modelId: 'openai/text-embedding-3-small' } })
    expect(embedding.status(), await embedding.text()).toBe(201)
    await page.goto(`/chats/${id}`)
    await waitForHydration(page)
    await expect(attach).toBeEnabled()

    // A type the app does not take is refused before upload.
    let chooser = page.waitForEvent('filechooser')
    await attach.click()
    await (await chooser).setFiles([
      { name: 'clip.mp4', mimeType: 'video/mp4', buffer: Buffer.from([0x00, 0x00, 0x00, 0x18, 0x66, 0x74, 0x79, 0x70]) },
      { name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
    ])
    await expect(page.getByText('clip.mp4, setup.exe were not attached')).toBeVisible()
    await expect(page.getByText('This file type is not supported. Please upload a PDF, Word (DOCX), PowerPoint (PPTX), Excel (XLSX), e-mail (EML, MSG), text, Markdown, CSV, HTML or image (PNG, JPEG) file.')).toBeVisible()
    await expect(chips(page)).toHaveCount(0)

    // A file whose content is not what its name says is refused by the server; the chip says why.
    chooser = page.waitForEvent('filechooser')
    await attach.click()
    await (await chooser).setFiles({ name: 'contract.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not really a PDF') })
    await expect(chip(page, 'contract.pdf')).toHaveAttribute('data-status', 'failed')
    await expect(chip(page, 'contract.pdf')).toHaveAttribute('title', /This file type is not supported/)
    await expect(page.getByText('contract.pdf could not be added')).toBeVisible()
    expect(await readSources(page, id)).toEqual([])
    // The error toast is on screen too: its colours must pass as well. Checked as it stands, not
    // while it fades in or out (mid-way its colours are blended with the page's): with reduced
    // motion the toasts come and go without a transition.
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await expect(page.locator('[data-sonner-toast][data-type="error"]').first()).toBeVisible()
    await expect(page.locator('[data-sonner-toast]:not([data-mounted="true"])')).toHaveCount(0)
    const results = await new AxeBuilder({ page }).analyze()
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target} ${n.failureSummary}`).join(', ')}`)).toEqual([])
    await chip(page, 'contract.pdf').getByRole('button', { name: 'Remove contract.pdf' }).click()
    await expect(chips(page)).toHaveCount(0)
  })
})
