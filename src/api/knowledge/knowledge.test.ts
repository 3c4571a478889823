import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq, inArray } from 'drizzle-orm'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sourceChunks, sources } from '../../../db/schema'
import { makePdf, makePptx, makeXlsx } from '../../../tests/support/documents'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { readSse } from '../../../tests/support/sse'
import { BASE_URL, createTestApp, enableOpenAiModels, joinAsMember, registerOrg, type TestClient } from '../../../tests/support/test-app'
import { processingIdle } from '../sources/process'
import { orphanVectors } from '../../../tests/support/vectors'

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-knowledge', OPENAI_BASE_URL: `${fake.url}/v1` }, localFiles: true })
})
afterAll(async () => {
  await t.close()
  fake.close()
})
beforeEach(() => fake.reset())

/** An organisation with an admin (owner of collections), two members and a chat and embedding model. */
async function org() {
  const admin = t.client()
  await registerOrg(admin)
  const [chatModel] = await enableOpenAiModels(admin, ['openai/gpt-4.1', 'openai/text-embedding-3-small'])
  const mia = await joinAsMember(t, admin)
  const max = await joinAsMember(t, admin, 'user', 'Max Member')
  return { admin, mia, max, modelId: chatModel.id as string }
}

async function upload(client: TestClient, collectionId: string, fileName: string, bytes: Uint8Array | string) {
  const form = new FormData()
  form.set('file', new File([typeof bytes === 'string' ? bytes : (bytes as Uint8Array<ArrayBuffer>)], fileName))
  const res = await t.app.request(`/api/collections/${collectionId}/files`, { method: 'POST', headers: { cookie: client.cookieHeader(), origin: BASE_URL }, body: form })
  return { status: res.status, body: (await res.json()) as any }
}

const chunksOf = (sourceIds: string[]) => t.deps.db.select().from(sourceChunks).where(inArray(sourceChunks.sourceId, sourceIds))

const send = (client: TestClient, thread: string, content: string) =>
  t.app.request(`/api/threads/${thread}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: client.cookieHeader(), origin: BASE_URL },
    body: JSON.stringify({ content }),
  })

describe('collections', () => {
  test('a user creates, renames and deletes a collection; bad input is named per field', async () => {
    const { mia } = await org()
    const created = await mia.client.post('/api/collections', { name: '  Handbook ', description: 'How we work' })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ name: 'Handbook', description: 'How we work', role: 'owner', organizationRole: null, groups: [], files: 0 })
    const id = created.body.id

    const renamed = await mia.client.patch(`/api/collections/${id}`, { name: 'Staff handbook', description: '' })
    expect(renamed.body).toMatchObject({ name: 'Staff handbook', description: null })
    expect((await mia.client.get('/api/collections')).body.map((c: { name: string }) => c.name)).toEqual(['Staff handbook'])

    const bad = await mia.client.post('/api/collections', { name: ' ', description: 'x'.repeat(1001) })
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('VALIDATION_FAILED')
    expect(Object.keys(bad.body.fields).sort()).toEqual(['description', 'name'])
    expect((await mia.client.post('/api/collections', {})).body.fields.name).toBe('Name is required')

    expect((await mia.client.delete(`/api/collections/${id}`)).status).toBe(204)
    expect((await mia.client.get(`/api/collections/${id}`)).body.code).toBe('COLLECTION_NOT_FOUND')
  }, 60_000)

  test('files are uploaded and processed as chat files are; deleting one removes its chunks; a file of the same name replaces the old one', async () => {
    const { mia } = await org()
    const id = (await mia.client.post('/api/collections', { name: 'Manuals' })).body.id
    const pdf = await upload(mia.client, id, 'crane.pdf', makePdf([['Crane manual'], ['The crane lifts at most 12 tonnes.']]))
    expect(pdf.status).toBe(201)
    expect(pdf.body).toMatchObject({ fileName: 'crane.pdf', status: 'processing' })
    const notes = await upload(mia.client, id, 'notes.txt', 'The first version says the gate opens at six.')
    // The other kinds of file too: a deck's slides count as its pages.
    const deck = await upload(mia.client, id, 'crane.pptx', makePptx([{ title: 'Crane' }, { title: 'Load', boxes: [['12 tonnes at most.']] }]))
    const sheet = await upload(mia.client, id, 'loads.xlsx', makeXlsx([{ name: 'Loads', rows: [['Crane', 'Tonnes'], ['C1', 12]] }]))
    await processingIdle()
    const files = (await mia.client.get(`/api/collections/${id}/files`)).body
    expect(files.map((f: { fileName: string; status: string; pages: number | null }) => [f.fileName, f.status, f.pages])).toEqual([
      ['crane.pdf', 'ready', 2],
      ['crane.pptx', 'ready', 2],
      ['loads.xlsx', 'ready', null],
      ['notes.txt', 'ready', null],
    ])
    expect((await mia.client.get(`/api/collections/${id}`)).body).toMatchObject({ files: 4, readyFiles: 4 })
    for (const file of [deck, sheet]) expect((await mia.client.delete(`/api/collections/${id}/files/${file.body.id}`)).status).toBe(204)

    // The same name again: once the new version is processed, the old one and its chunks are gone.
    const v2 = await upload(mia.client, id, 'notes.txt', 'The second version says the gate opens at seven.')
    await processingIdle()
    const after = (await mia.client.get(`/api/collections/${id}/files`)).body
    expect(after.map((f: { id: string }) => f.id).sort()).toEqual([pdf.body.id, v2.body.id].sort())
    expect(await chunksOf([notes.body.id])).toEqual([])
    expect((await chunksOf([v2.body.id]))[0]!.content).toContain('seven')

    expect((await mia.client.delete(`/api/collections/${id}/files/${pdf.body.id}`)).status).toBe(204)
    expect(await chunksOf([pdf.body.id])).toEqual([])
    expect(await orphanVectors(t.deps.db)).toBe(0)
    expect(await t.deps.db.select().from(sources).where(eq(sources.id, pdf.body.id))).toEqual([])
    expect((await mia.client.delete(`/api/collections/${id}/files/${pdf.body.id}`)).body.code).toBe('SOURCE_NOT_FOUND')

    // Bad files are refused as in a chat.
    expect((await upload(mia.client, id, 'fake.pdf', 'not a pdf')).body.code).toBe('UNSUPPORTED_FILE_TYPE')
    expect((await upload(mia.client, id, 'empty.txt', '')).body.code).toBe('FILE_EMPTY')

    // Deleting the collection removes its files' chunks too.
    expect((await mia.client.delete(`/api/collections/${id}`)).status).toBe(204)
    expect(await chunksOf([v2.body.id])).toEqual([])
  }, 60_000)
})

describe('a file that failed', () => {
  test('shows the reason and is processed again on retry, from the stored file; readers may not, another organisation finds nothing', async () => {
    const { mia, max } = await org()
    const id = (await mia.client.post('/api/collections', { name: 'Flaky' })).body.id
    // The embedding provider refuses the file's passages once: the processing fails with the reason.
    fake.script({ for: 'embeddings', error: 400 })
    const uploaded = await upload(mia.client, id, 'rules.txt', 'Harbour rules: cranes stop at wind force 8.')
    expect(uploaded.status).toBe(201)
    await processingIdle()
    const [failed] = (await mia.client.get(`/api/collections/${id}/files`)).body
    expect(failed).toMatchObject({ id: uploaded.body.id, status: 'failed', error: expect.any(String) })

    // A reader may not retry; another organisation does not find the collection.
    await mia.client.put(`/api/collections/${id}/sharing`, { organizationRole: 'reader', groups: [] })
    expect((await max.client.post(`/api/collections/${id}/files/${failed.id}/retry`)).status).toBe(403)
    const stranger = t.client()
    await registerOrg(stranger)
    expect((await stranger.post(`/api/collections/${id}/files/${failed.id}/retry`)).body.code).toBe('COLLECTION_NOT_FOUND')
    expect((await mia.client.post(`/api/collections/${id}/files/${crypto.randomUUID()}/retry`)).body.code).toBe('SOURCE_NOT_FOUND')

    const retried = await mia.client.post(`/api/collections/${id}/files/${failed.id}/retry`)
    expect(retried.status).toBe(200)
    expect(retried.body).toMatchObject({ id: failed.id, status: 'processing', error: null })
    await processingIdle()
    const [ready] = (await mia.client.get(`/api/collections/${id}/files`)).body
    expect(ready).toMatchObject({ id: failed.id, status: 'ready' })
    expect((await chunksOf([failed.id])).length).toBeGreaterThan(0)
    // A file that is not failed is left as it is.
    expect((await mia.client.post(`/api/collections/${id}/files/${failed.id}/retry`)).body.status).toBe('ready')
  })

  test("a chat's failed file is retried by the chat's owner only", async () => {
    const { mia, max } = await org()
    const thread = (await mia.client.post('/api/threads', {})).body.id
    const form = new FormData()
    fake.script({ for: 'embeddings', error: 400 })
    form.set('file', new File(['Quay notes: the pilot boards at buoy 3.'], 'notes.txt'))
    const res = await t.app.request(`/api/threads/${thread}/sources/file`, { method: 'POST', headers: { cookie: mia.client.cookieHeader(), origin: BASE_URL }, body: form })
    expect(res.status).toBe(201)
    const sourceId = ((await res.json()) as { id: string }).id
    await processingIdle()
    expect((await mia.client.get(`/api/threads/${thread}/sources`)).body[0].status).toBe('failed')
    expect((await max.client.post(`/api/threads/${thread}/sources/${sourceId}/retry`)).body.code).toBe('THREAD_NOT_FOUND')
    expect((await mia.client.post(`/api/threads/${thread}/sources/${sourceId}/retry`)).body.status).toBe('processing')
    await processingIdle()
    expect((await mia.client.get(`/api/threads/${thread}/sources`)).body[0].status).toBe('ready')
  })
})

describe('sharing', () => {
  test('private, organisation and group shares with reader and editor roles; only the owner shares and deletes', async () => {
    const { admin, mia, max } = await org()
    const id = (await mia.client.post('/api/collections', { name: 'Contracts' })).body.id
    await upload(mia.client, id, 'terms.txt', 'Payment is due within 30 days.')
    await processingIdle()

    // Private: nobody else sees or reaches it, an admin neither.
    expect((await max.client.get('/api/collections')).body).toEqual([])
    expect((await max.client.get(`/api/collections/${id}`)).body.code).toBe('COLLECTION_NOT_FOUND')
    expect((await admin.get(`/api/collections/${id}/files`)).body.code).toBe('COLLECTION_NOT_FOUND')

    // The organisation as readers: listed as shared, searchable, not changeable.
    const shared = await mia.client.put(`/api/collections/${id}/sharing`, { organizationRole: 'reader', groups: [] })
    expect(shared.body).toMatchObject({ organizationRole: 'reader' })
    expect((await max.client.get('/api/collections')).body).toEqual([expect.objectContaining({ id, role: 'reader', owner: expect.objectContaining({ name: 'Mia Member' }) })])
    expect((await max.client.get(`/api/collections/${id}/files`)).body).toHaveLength(1)
    expect((await max.client.patch(`/api/collections/${id}`, { name: 'Mine now' })).body.code).toBe('FORBIDDEN')
    expect((await upload(max.client, id, 'x.txt', 'x')).body.code).toBe('FORBIDDEN')

    // A group as editors: its members upload and rename, but neither share nor delete.
    const group = (await admin.post('/api/groups', { name: 'Legal' })).body
    await admin.post(`/api/groups/${group.id}/members`, { userIds: [max.id] })
    expect((await max.client.get('/api/collections/share-targets')).body.groups).toEqual([{ id: group.id, name: 'Legal' }])
    const byGroup = await mia.client.put(`/api/collections/${id}/sharing`, { organizationRole: null, groups: [{ groupId: group.id, role: 'editor' }] })
    expect(byGroup.body).toMatchObject({ organizationRole: null, groups: [{ id: group.id, name: 'Legal', role: 'editor' }] })
    expect((await max.client.get(`/api/collections/${id}`)).body.role).toBe('editor')
    expect((await max.client.patch(`/api/collections/${id}`, { name: 'Contracts 2026' })).status).toBe(200)
    expect((await upload(max.client, id, 'annex.txt', 'The annex lists prices.')).status).toBe(201)
    await processingIdle()
    expect((await max.client.put(`/api/collections/${id}/sharing`, { organizationRole: 'editor', groups: [] })).body.code).toBe('FORBIDDEN')
    expect((await max.client.delete(`/api/collections/${id}`)).body.code).toBe('FORBIDDEN')
    // The admin is not in the group: the collection stays hidden from them.
    expect((await admin.get(`/api/collections/${id}`)).body.code).toBe('COLLECTION_NOT_FOUND')

    // Leaving the group takes the access away.
    await admin.delete(`/api/groups/${group.id}/members/${max.id}`)
    expect((await max.client.get(`/api/collections/${id}`)).body.code).toBe('COLLECTION_NOT_FOUND')

    // Bad sharing input: an unknown group, a group twice, an unknown role.
    const unknown = await mia.client.put(`/api/collections/${id}/sharing`, { organizationRole: null, groups: [{ groupId: 'nope', role: 'reader' }] })
    expect(unknown.body).toMatchObject({ code: 'VALIDATION_FAILED', fields: { groups: 'Unknown group' } })
    expect((await mia.client.put(`/api/collections/${id}/sharing`, { organizationRole: null, groups: [{ groupId: group.id, role: 'reader' }, { groupId: group.id, role: 'editor' }] })).status).toBe(400)
    expect((await mia.client.put(`/api/collections/${id}/sharing`, { organizationRole: 'admin', groups: [] })).status).toBe(400)
  }, 60_000)

  test('another organisation never sees, reaches, shares with its groups or attaches a collection', async () => {
    const { mia } = await org()
    const other = await org()
    const id = (await mia.client.post('/api/collections', { name: 'Internal' })).body.id
    await mia.client.put(`/api/collections/${id}/sharing`, { organizationRole: 'editor', groups: [] })
    expect((await other.admin.get('/api/collections')).body).toEqual([])
    expect((await other.admin.get(`/api/collections/${id}`)).body.code).toBe('COLLECTION_NOT_FOUND')
    expect((await upload(other.admin, id, 'x.txt', 'x')).body.code).toBe('COLLECTION_NOT_FOUND')
    const thread = (await other.admin.post('/api/threads', {})).body.id
    expect((await other.admin.put(`/api/threads/${thread}/collections/${id}`)).body.code).toBe('COLLECTION_NOT_FOUND')
    const agent = await other.admin.post('/api/agents', { name: 'Spy', instructions: 'x', modelId: other.modelId, collectionIds: [id] })
    expect(agent.body).toMatchObject({ code: 'VALIDATION_FAILED', fields: { collectionIds: 'Choose collections you may read' } })
    // Nor may a collection be shared with another organisation's group.
    const foreignGroup = (await other.admin.post('/api/groups', { name: 'Foreign' })).body
    expect((await mia.client.put(`/api/collections/${id}/sharing`, { organizationRole: null, groups: [{ groupId: foreignGroup.id, role: 'reader' }] })).body.fields).toEqual({ groups: 'Unknown group' })
  }, 60_000)
})

describe('collections in chats and agents', () => {
  const query = '[[fake:tool=source_query:{"query":"crane lifting limit tonnes"}]] How much does the crane lift?'

  test('a collection attached to a chat is searched by source_query; the citation names collection, file and page', async () => {
    const { mia, max } = await org()
    const id = (await mia.client.post('/api/collections', { name: 'Harbour handbook' })).body.id
    // A long first page, so that the second is a passage of its own.
    const general = Array.from({ length: 45 }, (_, i) => `General part ${i}: the quay, the tides and the opening hours of the harbour office.`)
    await upload(mia.client, id, 'crane.pdf', makePdf([general, ['The crane lifts at most 12 tonnes.']]))
    await processingIdle()
    const thread = (await mia.client.post('/api/threads', {})).body.id

    // Not attached: the tool is not even offered.
    await readSse(await send(mia.client, thread, 'Hello'))
    const offered = fake.requests.find((r) => r.path.endsWith('/chat/completions'))!
    expect((offered.body.tools ?? []).map((x: { function: { name: string } }) => x.function.name)).not.toContain('source_query')

    const attached = await mia.client.put(`/api/threads/${thread}/collections/${id}`)
    expect(attached.body).toEqual([{ id, name: 'Harbour handbook', readyFiles: 1 }])
    expect((await mia.client.get(`/api/threads/${thread}/collections`)).body).toEqual(attached.body)

    fake.reset()
    const events = await readSse(await send(mia.client, thread, query))
    const result = events.find((e) => e.event === 'tool_result')!
    // The passage with the answer runs from the end of page 1 into page 2.
    expect(result.data.result).toContain('Cite as: (Harbour handbook › crane.pdf, pp. 1–2)\n')
    const passage = result.data.data.passages.find((p: { text: string }) => p.text.includes('12 tonnes'))
    expect(passage).toMatchObject({ sourceName: 'crane.pdf', collectionName: 'Harbour handbook', page: 1, pageEnd: 2, citation: '(Harbour handbook › crane.pdf, pp. 1–2)' })
    const system = fake.requests.find((r) => r.path.endsWith('/chat/completions'))!.body.messages[0].content
    expect(system).toContain('- Harbour handbook: 1 ready file')

    // Someone without access cannot attach it; detaching takes it out of the search.
    const maxThread = (await max.client.post('/api/threads', {})).body.id
    expect((await max.client.put(`/api/threads/${maxThread}/collections/${id}`)).body.code).toBe('COLLECTION_NOT_FOUND')
    expect((await max.client.put(`/api/threads/${thread}/collections/${id}`)).body.code).toBe('THREAD_NOT_FOUND')
    expect((await mia.client.delete(`/api/threads/${thread}/collections/${id}`)).body).toEqual([])
  }, 60_000)

  test('a share taken back takes the collection out of the chats that attached it', async () => {
    const { mia, max } = await org()
    const id = (await mia.client.post('/api/collections', { name: 'Shared manual' })).body.id
    await upload(mia.client, id, 'crane.txt', 'The crane lifts at most 12 tonnes.')
    await processingIdle()
    await mia.client.put(`/api/collections/${id}/sharing`, { organizationRole: 'reader', groups: [] })
    const thread = (await max.client.post('/api/threads', {})).body.id
    expect((await max.client.put(`/api/threads/${thread}/collections/${id}`)).status).toBe(200)
    const found = (await readSse(await send(max.client, thread, query))).find((e) => e.event === 'tool_result')!
    expect(found.data.result).toContain('(Shared manual › crane.txt, chunk 1)')

    await mia.client.put(`/api/collections/${id}/sharing`, { organizationRole: null, groups: [] })
    expect((await max.client.get(`/api/threads/${thread}/collections`)).body).toEqual([])
    fake.reset()
    await readSse(await send(max.client, thread, 'And now?'))
    const offered = fake.requests.find((r) => r.path.endsWith('/chat/completions'))!
    expect((offered.body.tools ?? []).map((x: { function: { name: string } }) => x.function.name)).not.toContain('source_query')
  }, 60_000)

  test("an agent's collections are searched in every chat with the agent", async () => {
    const { mia, modelId } = await org()
    const id = (await mia.client.post('/api/collections', { name: 'Fleet' })).body.id
    await upload(mia.client, id, 'crane.txt', 'The crane lifts at most 12 tonnes.')
    await processingIdle()
    const agent = await mia.client.post('/api/agents', { name: 'Harbour master', instructions: 'Answer from the fleet files.', modelId, collectionIds: [id] })
    expect(agent.status).toBe(201)
    expect(agent.body.collections).toEqual([{ id, name: 'Fleet', readyFiles: 1 }])
    // Changing the agent without naming collections keeps them; an empty list removes them.
    expect((await mia.client.put(`/api/agents/${agent.body.id}`, { name: 'Harbour master', instructions: 'Answer.', modelId })).body.collections).toHaveLength(1)

    const thread = (await mia.client.post('/api/threads', { agentId: agent.body.id })).body.id
    const result = (await readSse(await send(mia.client, thread, query))).find((e) => e.event === 'tool_result')!
    expect(result.data.result).toContain('(Fleet › crane.txt, chunk 1)')

    expect((await mia.client.put(`/api/agents/${agent.body.id}`, { name: 'Harbour master', instructions: 'Answer.', modelId, collectionIds: [] })).body.collections).toEqual([])
    expect((await mia.client.post('/api/agents', { name: 'A', instructions: 'I', modelId, collectionIds: ['nope'] })).body.fields).toEqual({ collectionIds: 'Choose collections you may read' })
  }, 60_000)

  test("a shared agent searches its collections in a colleague's chat only as far as the colleague may read them; a copy keeps those", async () => {
    const { mia, max, modelId } = await org()
    const fleet = (await mia.client.post('/api/collections', { name: 'Fleet' })).body.id
    const secret = (await mia.client.post('/api/collections', { name: 'Secret' })).body.id
    await upload(mia.client, fleet, 'crane.txt', 'The crane lifts at most 12 tonnes.')
    await upload(mia.client, secret, 'crane-secret.txt', 'The crane secretly lifts 14 tonnes when lifting limits are waived.')
    await processingIdle()
    await mia.client.put(`/api/collections/${fleet}/sharing`, { organizationRole: 'reader', groups: [] })
    const agent = (await mia.client.post('/api/agents', { name: 'Harbour master', instructions: 'Answer from the fleet files.', modelId, collectionIds: [fleet, secret], tools: ['source_query'] })).body
    await mia.client.put(`/api/agents/${agent.id}/sharing`, { organization: true, groupIds: [] })

    // Max sees the agent with its tools and the collection he may read, and chats with it.
    const seen = (await max.client.get(`/api/agents/${agent.id}`)).body
    expect(seen).toMatchObject({ mine: false, tools: ['source_query'], collections: [{ id: fleet, name: 'Fleet', readyFiles: 1 }] })
    const thread = (await max.client.post('/api/threads', { agentId: agent.id })).body.id
    const result = (await readSse(await send(max.client, thread, query))).find((e) => e.event === 'tool_result')!
    expect(result.data.result).toContain('(Fleet › crane.txt, chunk 1)')
    expect(result.data.result).not.toContain('Secret')

    // His copy: the same tools, and only the collection he may read.
    const copy = await max.client.post(`/api/agents/${agent.id}/copy`)
    expect(copy.body).toMatchObject({ mine: true, name: 'Harbour master', tools: ['source_query'], collections: [{ id: fleet }] })
    expect(copy.body.collections).toHaveLength(1)
    expect((await mia.client.get(`/api/agents/${agent.id}`)).body.collections).toHaveLength(2)
    // The lists say the same, each agent with its own collections as far as the reader may read them.
    const collectionsIn = (list: Array<{ id: string; collections: Array<{ id: string }> }>) => Object.fromEntries(list.map((a) => [a.id, a.collections.map((c) => c.id)]))
    expect(collectionsIn((await max.client.get('/api/agents')).body)).toEqual({ [copy.body.id]: [fleet], [agent.id]: [fleet] })
    expect(collectionsIn((await mia.client.get('/api/agents')).body)).toEqual({ [agent.id]: [fleet, secret].sort() })
  }, 60_000)
})

describe('documents made by others', () => {
  // Two manuals from Debian's documentation packages (tests/fixtures/third-party/README.md),
  // typeset by DocBook and Texinfo: running heads, tables of contents, code listings, indexes.
  const fixture = (name: string) => new Uint8Array(readFileSync(join(import.meta.dir, '../../../tests/fixtures/third-party', name)))

  test('real PDFs are read page by page and a question finds the page that answers it, cited by file and page', async () => {
    const { mia } = await org()
    const id = (await mia.client.post('/api/collections', { name: 'Specs' })).body.id
    for (const name of ['shared-mime-info-spec.pdf', 'libtasn1.pdf']) expect((await upload(mia.client, id, name, fixture(name))).status).toBe(201)
    await processingIdle()
    const files = (await mia.client.get(`/api/collections/${id}/files`)).body
    expect(files.map((f: { fileName: string; status: string; pages: number }) => [f.fileName, f.status, f.pages])).toEqual([
      ['libtasn1.pdf', 'ready', 36],
      ['shared-mime-info-spec.pdf', 'ready', 17],
    ])

    const thread = (await mia.client.post('/api/threads', {})).body.id
    await mia.client.put(`/api/threads/${thread}/collections/${id}`)
    const ask = async (query: string) => {
      const events = await readSse(await send(mia.client, thread, `[[fake:tool=source_query:${JSON.stringify({ query })}]] ?`))
      return events.find((e) => e.event === 'tool_result')!.data.data.passages as Array<{ text: string; sourceName: string; page: number; pageEnd: number | null; citation: string }>
    }

    // Section 2.10 of the MIME specification, on its page 14.
    const [xattr] = await ask('Which extended attribute stores the MIME type of a file?')
    expect(xattr).toMatchObject({ sourceName: 'shared-mime-info-spec.pdf', page: 14 })
    expect(xattr!.text).toContain('user.mime_type extended attribute')
    expect(xattr!.citation).toBe('(Specs › shared-mime-info-spec.pdf, p. 14)')

    // A function asked for by its name finds its reference entry, on the manual's page 16 (printed as
    // 13), although "asn1", "read" and "value" are on almost every page: the name spelt exactly
    // ranks first among the keyword matches, and the entry comes among the first three passages
    // (fifth and sixth when the words were searched each on their own).
    const named = await ask('asn1_read_value')
    const entry = named.findIndex((p) => p.text.includes('[Function]int asn1_read_value ('))
    expect(entry).toBeGreaterThanOrEqual(0)
    expect(entry).toBeLessThan(3)
    expect(named[entry]).toMatchObject({ sourceName: 'libtasn1.pdf', page: 16, citation: '(Specs › libtasn1.pdf, p. 16)' })
    const attribute = (await ask('What happens to user.mime_type?')).findIndex((p) => p.text.includes('user.mime_type extended attribute'))
    expect(attribute).toBeGreaterThanOrEqual(0)
    expect(attribute).toBeLessThan(3)
  }, 60_000)
})
