/**
 * Sharing a chat inside the organisation (docs/decisions/0061-sharing-chats.md): a snapshot seen
 * by the signed-in members of the organisation, or of the chosen groups, revocable, and copied
 * into the reader's own chats by "continue"; never seen by another organisation or signed out.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { readSse } from '../../../tests/support/sse'
import { BASE_URL, createTestApp, PASSWORD, registerOrg, type TestClient } from '../../../tests/support/test-app'

// Each test signs up several people and holds replies of the fake model.
setDefaultTimeout(30_000)

let fake: FakeLlm
let t: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  fake = await startFakeLlm()
  t = await createTestApp({ env: { OPENAI_API_KEY: 'sk-shares', OPENAI_BASE_URL: `${fake.url}/v1` } })
})
afterAll(async () => {
  await t.close()
  fake.close()
})
beforeEach(() => fake.reset())

const send = async (client: TestClient, threadId: string, content: string) =>
  readSse(
    await t.app.request(`/api/threads/${threadId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader(), origin: BASE_URL },
      body: JSON.stringify({ content }),
    }),
  )

/** A member invited into the admin's organisation, signed in. */
async function invite(admin: TestClient) {
  const res = await admin.post('/api/invites', { email: `m-${crypto.randomUUID().slice(0, 8)}@acme.test`, role: 'user' })
  const member = t.client()
  const accepted = await member.post('/api/invites/accept', { token: new URL(res.body.acceptUrl).searchParams.get('token'), name: 'Member', password: PASSWORD, passwordConfirmation: PASSWORD })
  expect(accepted.status).toBeLessThan(300)
  const me = (await member.get('/api/auth/me')).body
  return { client: member, id: (me.user?.id ?? me.id) as string }
}

/** An organisation whose admin has a chat of one exchange, and two members. */
async function setup() {
  const admin = t.client()
  await registerOrg(admin)
  await admin.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
  await admin.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
  const thread = (await admin.post('/api/threads', {})).body.id as string
  await send(admin, thread, 'What is a snapshot?')
  return { admin, thread, member: await invite(admin), other: await invite(admin) }
}

describe('sharing a chat', () => {
  test('members of the organisation read the snapshot; later messages are not in it; revoked, it is gone', async () => {
    const { admin, thread, member } = await setup()
    const share = await admin.post(`/api/threads/${thread}/shares`, {})
    expect(share.status).toBe(201)
    expect(share.body).toMatchObject({ threadId: thread, groups: [], messageCount: 2 })
    await send(admin, thread, 'A later question')

    const read = await member.client.get(`/api/shares/${share.body.id}`)
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({ title: share.body.title, own: false, sharedBy: { name: expect.any(String) } })
    expect(read.body.messages.map((m: { content: string }) => m.content)).toEqual(['What is a snapshot?', 'You said: What is a snapshot?'])
    expect((await admin.get(`/api/shares/${share.body.id}`)).body.own).toBe(true)
    expect((await admin.get(`/api/threads/${thread}/shares`)).body.shares.map((s: { id: string }) => s.id)).toEqual([share.body.id])

    // Only its owner revokes it; then the link finds nothing, for everyone.
    expect((await member.client.delete(`/api/shares/${share.body.id}`)).body.code).toBe('SHARE_NOT_FOUND')
    expect((await admin.delete(`/api/shares/${share.body.id}`)).status).toBe(204)
    expect((await member.client.get(`/api/shares/${share.body.id}`)).body).toMatchObject({ code: 'SHARE_NOT_FOUND', status: 404 })
    expect((await member.client.post(`/api/shares/${share.body.id}/continue`, {})).status).toBe(404)
    expect((await admin.get(`/api/threads/${thread}/shares`)).body.shares).toEqual([])

    // Both are in the audit log: who shared which chat with whom, and who revoked it.
    const [shared] = (await admin.get('/api/audit-log?action=chat.shared')).body.entries
    expect(shared).toMatchObject({ target: { type: 'thread', id: thread, label: share.body.title }, details: { shareId: share.body.id, groups: [], messages: 2 } })
    const [revoked] = (await admin.get('/api/audit-log?action=chat.share_revoked')).body.entries
    expect(revoked).toMatchObject({ target: { type: 'thread', id: thread }, details: { shareId: share.body.id } })
  })

  test('never seen by another organisation, signed-out visitors, or members outside the chosen groups', async () => {
    const { admin, thread, member, other } = await setup()
    const group = (await admin.post('/api/groups', { name: 'Research' })).body
    expect((await admin.post(`/api/groups/${group.id}/members`, { userIds: [member.id] })).status).toBeLessThan(300)
    const limited = (await admin.post(`/api/threads/${thread}/shares`, { groupIds: [group.id] })).body
    expect(limited.groups).toEqual([{ id: group.id, name: 'Research' }])
    const open = (await admin.post(`/api/threads/${thread}/shares`, {})).body

    expect((await member.client.get(`/api/shares/${limited.id}`)).status).toBe(200)
    expect((await other.client.get(`/api/shares/${limited.id}`)).body.code).toBe('SHARE_NOT_FOUND')
    expect((await other.client.post(`/api/shares/${limited.id}/continue`, {})).body.code).toBe('SHARE_NOT_FOUND')
    expect((await other.client.get(`/api/shares/${open.id}`)).status).toBe(200)

    const stranger = t.client()
    await registerOrg(stranger)
    for (const id of [limited.id, open.id]) {
      expect((await stranger.get(`/api/shares/${id}`)).body.code).toBe('SHARE_NOT_FOUND')
      expect((await stranger.post(`/api/shares/${id}/continue`, {})).body.code).toBe('SHARE_NOT_FOUND')
      expect((await t.client().get(`/api/shares/${id}`)).status).toBe(401)
    }
    // Nobody shares another's chat, and groups must be the organisation's own.
    expect((await member.client.post(`/api/threads/${thread}/shares`, {})).body.code).toBe('THREAD_NOT_FOUND')
    const foreignGroup = (await stranger.post('/api/groups', { name: 'Elsewhere' })).body
    const refused = await admin.post(`/api/threads/${thread}/shares`, { groupIds: [foreignGroup.id] })
    expect(refused.status).toBe(400)
    expect(refused.body.fields.groupIds).toBe('Unknown group')
    expect((await admin.post(`/api/threads/${thread}/shares`, { groupIds: 'all' })).body.code).toBe('VALIDATION_FAILED')
    expect((await admin.get(`/api/shares/${'x'.repeat(65)}`)).body.code).toBe('VALIDATION_FAILED')

    // A deleted chat takes its shares with it.
    expect((await admin.delete(`/api/threads/${thread}`)).status).toBe(204)
    expect((await member.client.get(`/api/shares/${open.id}`)).body.code).toBe('SHARE_NOT_FOUND')
  })

  test('continuing copies the snapshot into the reader\'s own chats, where it goes on like any chat', async () => {
    const { admin, thread, member } = await setup()
    const share = (await admin.post(`/api/threads/${thread}/shares`, {})).body
    const copy = await member.client.post(`/api/shares/${share.id}/continue`, {})
    expect(copy.status).toBe(201)
    expect(copy.body).toMatchObject({ title: share.title, modelId: expect.any(String) })
    expect((await member.client.get('/api/threads')).body.threads.map((x: { id: string }) => x.id)).toEqual([copy.body.id])

    await send(member.client, copy.body.id, 'And then?')
    const detail = (await member.client.get(`/api/threads/${copy.body.id}`)).body
    expect(detail.messages.map((m: { content: string }) => m.content)).toEqual(['What is a snapshot?', 'You said: What is a snapshot?', 'And then?', 'You said: And then?'])
    // The original is untouched, and still the admin's alone.
    expect((await admin.get(`/api/threads/${thread}`)).body.messages).toHaveLength(2)
    expect((await member.client.get(`/api/threads/${thread}`)).status).toBe(404)
  })
})
