/** The file stores: local disk, and S3-compatible storage against a small fake S3 server. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sources } from '../../../db/schema'
import { startFakeLlm, type FakeLlm } from '../../../tests/support/fake-llm'
import { BASE_URL, createTestApp, registerOrg } from '../../../tests/support/test-app'
import { createLocalFileStore } from '../../storage/local'
import { createS3FileStore } from '../../storage/s3'
import { processingIdle } from './process'

type S3Request = { method: string; path: string; authorization: string; date: string | null; sha: string | null }

/** An in-memory S3: path-style objects; refuses requests without a SigV4 Authorization header. */
function startFakeS3() {
  const objects = new Map<string, { body: Uint8Array; type: string }>()
  const requests: S3Request[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url)
      const authorization = req.headers.get('authorization') ?? ''
      requests.push({ method: req.method, path: url.pathname, authorization, date: req.headers.get('x-amz-date'), sha: req.headers.get('x-amz-content-sha256') })
      if (!/^AWS4-HMAC-SHA256 Credential=AKTEST\/\d{8}\/eu-test-1\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/.test(authorization)) {
        return new Response('<Error><Code>AccessDenied</Code></Error>', { status: 403 })
      }
      const key = decodeURIComponent(url.pathname)
      if (req.method === 'PUT') {
        objects.set(key, { body: new Uint8Array(await req.arrayBuffer()), type: req.headers.get('content-type') ?? '' })
        return new Response(null, { status: 200 })
      }
      if (req.method === 'GET') {
        const object = objects.get(key)
        return object ? new Response(object.body as Uint8Array<ArrayBuffer>) : new Response('<Error><Code>NoSuchKey</Code></Error>', { status: 404 })
      }
      if (req.method === 'DELETE') {
        objects.delete(key)
        return new Response(null, { status: 204 })
      }
      return new Response(null, { status: 405 })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, objects, requests, close: () => server.stop(true) }
}

let s3: ReturnType<typeof startFakeS3>
beforeAll(() => {
  s3 = startFakeS3()
})
afterAll(() => s3.close())

const settings = () => ({ endpoint: s3.url, bucket: 'kontor', accessKeyId: 'AKTEST', secretAccessKey: 'secret', region: 'eu-test-1' })
const bytes = (text: string) => new TextEncoder().encode(text)

describe('S3 file store', () => {
  test('puts, gets and deletes objects with signed requests', async () => {
    const store = createS3FileStore(settings())
    await store.put('sources/org/thread/a', bytes('hello s3'), { contentType: 'text/plain' })
    expect(s3.objects.get('/kontor/sources/org/thread/a')).toEqual({ body: bytes('hello s3'), type: 'text/plain' })
    expect(new TextDecoder().decode((await store.get('sources/org/thread/a'))!)).toBe('hello s3')
    expect(await store.get('sources/org/thread/missing')).toBeNull()
    await store.delete('sources/org/thread/a')
    await store.delete('sources/org/thread/a') // deleting twice is fine
    expect(s3.objects.size).toBe(0)
    for (const r of s3.requests) {
      expect(r.date).toMatch(/^\d{8}T\d{6}Z$/)
      expect(r.sha).toMatch(/^[0-9a-f]{64}$|^UNSIGNED-PAYLOAD$/)
    }
  })

  test('a stream is stored whole; a refused signature is an error', async () => {
    const store = createS3FileStore(settings())
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes('part one, '))
        c.enqueue(bytes('part two'))
        c.close()
      },
    })
    await store.put('k/stream', stream)
    expect(new TextDecoder().decode((await store.get('k/stream'))!)).toBe('part one, part two')
    const wrong = createS3FileStore({ ...settings(), accessKeyId: 'OTHER' })
    await expect(wrong.put('k/x', bytes('x'))).rejects.toThrow(/HTTP 403/)
    await expect(wrong.get('k/stream')).rejects.toThrow(/HTTP 403/)
  })

  test('keys that could leave the store are refused', async () => {
    const store = createS3FileStore(settings())
    for (const key of ['../x', '/abs', 'a/../b', 'a//b', 'a b']) await expect(store.put(key, bytes('x'))).rejects.toThrow(/invalid file key/)
  })
})

describe('local file store', () => {
  test('stores under its root, reports missing files as null, and refuses path tricks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kontor-local-'))
    const root = join(dir, 'files')
    const store = createLocalFileStore(root)
    await store.put('a/b/c', bytes('local'))
    expect(await Bun.file(join(root, 'a/b/c')).text()).toBe('local')
    expect(new TextDecoder().decode((await store.get('a/b/c'))!)).toBe('local')
    expect(await store.get('a/b/none')).toBeNull()
    await store.delete('a/b/c')
    await store.delete('a/b/c')
    expect(await store.get('a/b/c')).toBeNull()
    for (const key of ['../escape', '/etc/passwd', 'a/../../b']) await expect(store.put(key, bytes('x'))).rejects.toThrow(/invalid file key/)
    rmSync(dir, { recursive: true, force: true })
  })
})

describe('uploads with S3 configured', () => {
  let fake: FakeLlm
  let t: Awaited<ReturnType<typeof createTestApp>>
  beforeAll(async () => {
    fake = await startFakeLlm()
    t = await createTestApp({
      env: {
        OPENAI_API_KEY: 'sk-s3',
        OPENAI_BASE_URL: `${fake.url}/v1`,
        S3_ENDPOINT: s3.url,
        S3_BUCKET: 'kontor',
        S3_ACCESS_KEY_ID: 'AKTEST',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_REGION: 'eu-test-1',
      },
    })
  })
  afterAll(async () => {
    await t.close()
    fake.close()
  })

  test('the file goes to the bucket, is processed from there, and leaves it when deleted', async () => {
    const client = t.client()
    await registerOrg(client)
    await client.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
    await client.post('/api/models/permitted', { modelId: 'openai/text-embedding-3-small' })
    await client.post('/api/models/permitted', { modelId: 'openai/gpt-4.1' })
    const thread = (await client.post('/api/threads', {})).body
    const form = new FormData()
    form.set('file', new File(['Stored in a bucket.'], 'bucket.txt', { type: 'text/plain' }))
    const cookie = client.cookieHeader()
    const res = await t.app.request(`/api/threads/${thread.id}/sources/file`, { method: 'POST', headers: { cookie, origin: BASE_URL }, body: form })
    expect(res.status).toBe(201)
    const source = (await res.json()) as { id: string }
    const row = await t.deps.db.query.sources.findFirst({ where: eq(sources.id, source.id) })
    expect(s3.objects.get(`/kontor/${row!.fileKey}`)?.body).toEqual(bytes('Stored in a bucket.'))
    await processingIdle()
    expect((await client.get(`/api/threads/${thread.id}/sources`)).body[0]).toMatchObject({ status: 'ready', chunks: 1 })
    expect((await client.delete(`/api/threads/${thread.id}/sources/${source.id}`)).status).toBe(204)
    expect(s3.objects.has(`/kontor/${row!.fileKey}`)).toBe(false)
  })
})
